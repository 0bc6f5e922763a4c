// A node's device sample (the workers' tessera.v1.TelemetrySample) as a Qt signal argument: the
// backend's watchers and the clients' feeds hand it between threads.
#pragma once

#include "tessera/v1/worker.pb.h"

#include <QMetaType>

Q_DECLARE_METATYPE(tessera::v1::TelemetrySample)
