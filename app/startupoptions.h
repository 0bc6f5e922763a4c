// Command-line flags of the `tessera` app (--rent-local, --spec, --launch, --screenshot, ...).
#pragma once

#include "worker/common/error.h"

#include <QString>
#include <QStringList>

namespace tessera {

/// What the app does on its own after start-up (see Autopilot).
struct StartupOptions {
    int rentLocal = 0;       ///< --rent-local N: rent N local workers at start (0 = none)
    int slotsPerWorker = 1;  ///< --slots-per-worker N: ranks per rented worker
    QString spec;            ///< --spec FILE: add and select this spec file
    bool launch = false;     ///< --launch: launch the selected spec once the cluster has the slots
    QString screenshot;      ///< --screenshot FILE: grab the window to FILE (PNG) after K points
    int quitAfterPoints = 0; ///< --quit-after-points K: after K loss points (screenshot), quit
    int timeoutSeconds = 0;  ///< --timeout S: give up (exit 1) after S seconds; 0 = never
    QString dataDir;         ///< --data-dir DIR: history and local workers there (TESSERA_DATA_DIR)
    bool help = false;       ///< --help / -h given: print helpText() and exit 0

    /// True when the app should quit by itself (screenshot or quit-after-points given).
    bool unattended() const { return !screenshot.isEmpty() || quitAfterPoints > 0; }

    /// Parses `arguments` (argv, program name first). Errors: InvalidArgument naming the flag and
    /// the value expected, e.g. "--rent-local needs a whole number from 1 to 64, not 'x'".
    static Result<StartupOptions> parse(const QStringList& arguments);

    /// Usage text listing every flag.
    static QString helpText();
};

} // namespace tessera
