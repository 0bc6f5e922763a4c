// QCustomPlot under QT_NO_KEYWORDS: the one place where Qt's `signals`/`slots`/`emit`/`foreach`
// keywords exist. The whole project builds with QT_NO_KEYWORDS because protobuf's generated
// accessors (WorkerInfo::slots(), …) and our own `slots` fields clash with Qt's `slots` macro,
// while qcustomplot.h is written with those keywords: they are defined around it only.
// Include this instead of <qcustomplot.h>.
#pragma once

#define signals Q_SIGNALS
#define slots Q_SLOTS
#define emit Q_EMIT
#define foreach Q_FOREACH
#include <qcustomplot.h>
#undef slots
#undef signals
#undef emit
#undef foreach
