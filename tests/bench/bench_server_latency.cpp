// tessera-bench-server-latency (issue 48): how soon a metric printed by a rank reaches a client
// of tessera-server's control API. One job prints 1,000 points a second (tessera-test-emitter →
// tessera-worker → the server's JobController → WatchJob); two clients follow it at once with
// JobFeed, as the app will: a remote one over TCP with mutual TLS (loopback, with a user's
// certificate of the cluster CA) and the local peer on the data folder's Unix socket. Prints
// p50/p99/max latency from the rank's print to the point in each client, and their ratio.
// Goal: remote p99 < 100 ms. Label `bench`.
#include "backend/client/jobfeed.h"
#include "backend/service/backendclient.h"
#include "tests/backend/server/servedfolder.h"
#include "tests/backend/testcluster.h"
#include "tests/support/offthread.h"
#include "worker/common/spec_io.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <chrono>
#include <cstdio>

using namespace tessera;

namespace {

constexpr int kPoints = 5000; // five seconds at 1,000 points/s
constexpr int kIntervalUs = 1000;
constexpr double kGoalP99Ms = 100;

double percentile(QList<double> v, double p) {
    if (v.isEmpty()) {
        return 0;
    }
    std::sort(v.begin(), v.end());
    return v[std::min<qsizetype>(v.size() - 1, qsizetype(p * double(v.size() - 1) + 0.5))];
}

double nowUs() {
    return double(std::chrono::duration_cast<std::chrono::microseconds>(
                      std::chrono::system_clock::now().time_since_epoch())
                      .count());
}

/// Latencies of one client's points, ms from the rank's print (its "t_us") to arrival.
struct Arrivals {
    explicit Arrivals(client::JobFeed* feed) {
        QObject::connect(feed, &client::JobFeed::metricReceived, [this](const MetricPoint& p) {
            ms << (nowUs() - p.values.value(QStringLiteral("t_us"))) / 1000.0;
        });
        QObject::connect(feed, &client::JobFeed::finished, [this] { done = true; });
        QObject::connect(feed, &client::JobFeed::gone, [this](const QString& why) {
            problem = why;
            done = true;
        });
    }
    void print(const char* name) const {
        std::printf("%-28s %6lld points  p50 %6.1f ms  p99 %6.1f ms  max %6.1f ms\n", name,
                    static_cast<long long>(ms.size()), percentile(ms, 0.5), percentile(ms, 0.99),
                    percentile(ms, 1.0));
    }
    QList<double> ms;
    bool done = false;
    QString problem;
};

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    registerBackendMetaTypes();
    QTemporaryDir data;
    test::useBuildAndData(data.path());
    test::ServedFolder folder(data.path(), 1);
    std::shared_ptr<const tls::Identity> user;
    if (QString why = folder.error.isEmpty()
                          ? test::serveOverTls(folder, QStringLiteral("bench"), &user)
                          : folder.error;
        !why.isEmpty()) {
        std::printf("server latency: %s\n", qPrintable(why));
        return 1;
    }
    v1::JobSpec spec = test::emitterJob(1, kPoints, 0);
    spec.mutable_model()->clear_command();
    for (const QString& a : {test::buildBin() + QStringLiteral("/tessera-test-emitter"),
                             QStringLiteral("--lines"), QString::number(kPoints),
                             QStringLiteral("--interval-us"), QString::number(kIntervalUs)}) {
        spec.mutable_model()->add_command(a.toStdString());
    }
    auto local = std::make_shared<BackendClient>(folder.socket());
    auto remote = std::make_shared<BackendClient>(
        QStringLiteral("127.0.0.1:%1").arg(folder.server->tcpPort()), user);
    // Submitted through the remote client, as a person elsewhere would.
    // The in-process server answers on this thread: the blocking call goes on another.
    auto submitted = test::offThread([&] { return remote->submit(jobSpecToJson(spec)); });
    if (!submitted) {
        std::printf("server latency: submit failed: %s\n", submitted.error().message.c_str());
        return 1;
    }
    const QString id = QString::fromStdString(submitted->job_id());
    client::JobFeed remoteFeed(remote, id), localFeed(local, id);
    Arrivals remoteArrivals(&remoteFeed), localArrivals(&localFeed);
    remoteFeed.start();
    localFeed.start();
    QElapsedTimer took;
    took.start();
    const bool ended =
        QTest::qWaitFor([&] { return remoteArrivals.done && localArrivals.done; }, 120000);
    std::printf("tessera-server metric latency, %d points at %d points/s (one rank, print → "
                "client), %.1f s:\n",
                kPoints, 1000000 / kIntervalUs, double(took.elapsed()) / 1000.0);
    remoteArrivals.print("remote (TCP + mutual TLS)");
    localArrivals.print("local peer (Unix socket)");
    const double remoteP99 = percentile(remoteArrivals.ms, 0.99);
    const double localP99 = percentile(localArrivals.ms, 0.99);
    std::printf("remote/local p99 ratio %.2f; goal: remote p99 < %.0f ms\n",
                localP99 > 0 ? remoteP99 / localP99 : 0.0, kGoalP99Ms);
    for (const Arrivals* a : {&remoteArrivals, &localArrivals}) {
        if (!a->problem.isEmpty()) {
            std::printf("a client lost the job: %s\n", qPrintable(a->problem));
        }
    }
    const bool complete =
        ended && remoteArrivals.ms.size() == kPoints && localArrivals.ms.size() == kPoints;
    return complete && remoteP99 < kGoalP99Ms ? 0 : 1;
}
