// Where Tessera finds its programs and keeps its data (SQLite history, local workers' folders).
#pragma once

#include <QString>

namespace tessera {

/// Folder of Tessera's executables: env TESSERA_BIN_DIR if set, else the folder of the running
/// program (QCoreApplication::applicationDirPath(); all executables are built into <build>/bin).
QString binDir();

/// Absolute path of the sibling program `name` (e.g. "tessera-worker") in binDir().
QString binPath(const QString& name);

/// Tessera's data folder: env TESSERA_DATA_DIR if set, else QStandardPaths::AppDataLocation.
/// Created if missing.
QString dataDir();

/// The planner's per-node calibration file, calibration.json in dataDir(): written by
/// `tessera-ctl calibrate`, read by the designer and auto-plan.
QString calibrationPath();

/// The probe records calibration.json was fitted from (calibration-probes.json in dataDir()),
/// for `tessera-ctl calibrate --append`.
QString probeRecordsPath();

} // namespace tessera
