// Ships a user program's model.workdir to the job's workers before the launch: packed once,
// sent only to the workers that do not hold that bundle yet (HasBundle, then PutBundle).
#pragma once

#include "backend/cluster/workerclient.h"
#include "worker/common/error.h"

#include <QList>
#include <QString>

#include <memory>
#include <utility>

namespace tessera {

/// What shipping did.
struct ShippedWorkdir {
    QString sha256;    ///< the bundle the ranks run in (model.workdirSha256)
    quint64 bytes = 0; ///< the bundle's size
    quint64 sent = 0;  ///< bytes sent in all (0 when every worker had it)
    QString
        summary; ///< one line for the job's log, e.g. "code 2.1 kB (3 files) → nodeB; nodeA had it"
};

/// Packs `workdir` (at most `maxMib` MiB, 0 = 256; links followed with `followLinks`, i.e.
/// model.workdirFollowLinks) and ships it to each of `workers` (name,
/// client) that lacks it. Blocking: run off the GUI thread. Errors: those of packWorkdir() and
/// of the workers' HasBundle/PutBundle, naming the worker.
Result<ShippedWorkdir>
shipWorkdir(const QString& workdir, int maxMib, bool followLinks,
            const QList<std::pair<QString, std::shared_ptr<WorkerClient>>>& workers);

} // namespace tessera
