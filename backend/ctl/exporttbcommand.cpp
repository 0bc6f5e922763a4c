// `tessera-ctl export-tb` (see exporttbcommand.h).
#include "backend/ctl/exporttbcommand.h"

#include "backend/history/metricstore.h"
#include "backend/history/runcurve.h"
#include "backend/history/tensorboardexport.h"

#include <cstdio>

namespace tessera::ctl {

namespace {

int refuse(const std::string& why) {
    std::fprintf(stderr, "tessera-ctl: error: %s\n", why.c_str());
    return kExitBadInput;
}

} // namespace

int exportTensorboard(const CtlOptions& options) {
    MetricStore store;
    if (Result<void> opened = store.open(MetricStore::defaultPath()); !opened) {
        return refuse(opened.error().message);
    }
    const QString& id = options.jobId;
    if (store.job(id).id.isEmpty()) {
        return refuse("no job '" + id.toStdString() + "' in the history " +
                      store.path().toStdString() + "; tessera-ctl jobs lists the jobs it holds");
    }
    const QList<MetricPoint> points = continuousRun(store.points(id), store.attempts(id));
    const Result<QList<TensorboardRun>> runs = writeTensorboardRuns(options.exportDir, id, points);
    if (!runs) {
        return refuse("export-tb " + id.toStdString() + ": " + runs.error().message);
    }
    for (const TensorboardRun& run : *runs) {
        std::printf("%s: rank %d, %d scalars\n", qPrintable(run.file), run.rank, run.events);
    }
    std::printf("tensorboard --logdir %s shows them\n", qPrintable(options.exportDir));
    std::fflush(stdout);
    return kExitOk;
}

} // namespace tessera::ctl
