// A real training job for provider tests: the Fashion-MNIST MLP example, data parallel over
// every ready node of a registry, to show that rented nodes work together as a cluster.
#pragma once

#include "backend/cluster/clusterregistry.h"
#include "backend/history/metricstore.h"
#include "backend/jobs/jobcontroller.h"
#include "worker/common/spec_io.h"

#include <QFileInfo>
#include <QTest>

namespace tessera::test {

/// Why trainFashionMnist cannot run here, or "" (the dataset's Debian package is installed).
inline QString fashionMnistMissing() {
    return QFileInfo::exists(QStringLiteral(TESSERA_FASHION_MNIST_DIR))
               ? QString()
               : QStringLiteral("Fashion-MNIST is not installed (Debian package "
                                "dataset-fashion-mnist)");
}

/// Trains resources/examples/fashion-mnist-mlp.json for `steps` steps on the registry's ready
/// nodes (metrics in the SQLite file `metricsDb`), waiting up to 240 s; `dataParallel` > 0
/// replaces the example's data-parallel degree. Returns "" when the job succeeded and reported a
/// loss, else why not.
inline QString trainFashionMnist(ClusterRegistry& registry, const QString& metricsDb, int steps,
                                 int dataParallel = 0) {
    auto spec = loadJobSpec(TESSERA_SOURCE_DIR "/resources/examples/fashion-mnist-mlp.json");
    if (!spec) {
        return QStringLiteral("cannot load the example spec");
    }
    spec->mutable_training()->set_max_steps(steps);
    if (dataParallel > 0) {
        spec->mutable_layout()->set_data_parallel(dataParallel);
    }
    spec->mutable_dataset()->set_path(TESSERA_FASHION_MNIST_DIR);
    MetricStore metrics;
    if (!metrics.open(metricsDb)) {
        return QStringLiteral("cannot open ") + metricsDb;
    }
    JobController jobs(&registry, &metrics);
    auto job = jobs.submit(*spec);
    if (!job) {
        return QString::fromStdString(job.error().message);
    }
    const bool ended = QTest::qWaitFor(
        [&] {
            const JobState s = metrics.job(*job).state;
            return s == JobState::Succeeded || s == JobState::Failed;
        },
        240000);
    if (!ended || metrics.job(*job).state != JobState::Succeeded) {
        return QStringLiteral("the job did not succeed: ") + metrics.job(*job).reason;
    }
    for (const MetricPoint& p : metrics.points(*job)) {
        if (p.values.contains(QStringLiteral("loss"))) {
            return QString();
        }
    }
    return QStringLiteral("the job reported no loss");
}

} // namespace tessera::test
