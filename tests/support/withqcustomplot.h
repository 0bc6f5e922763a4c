// Includes qcustomplot.h in a test built with QT_NO_KEYWORDS (the app's and backend's headers
// need it: protobuf has slots() accessors): qcustomplot.h itself uses Qt's keywords, so they are
// defined around it only.
#pragma once

#ifdef QT_NO_KEYWORDS
#define signals Q_SIGNALS
#define slots Q_SLOTS
#define emit Q_EMIT
#define foreach Q_FOREACH
#endif
#include <qcustomplot.h>
#undef slots
#undef signals
#undef emit
#undef foreach
