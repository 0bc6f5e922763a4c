// Rent-to-ready from the cloud provider against the fake Lambda Cloud with boot time 0 (issue 21:
// Tessera's own part under 5 s), beside its peer measured in the same run: the SSH provider's
// rent of a test host that is already up (the bootstrap alone). A warm-up rent of each installs
// the worker bundle; then ROUNDS rents of each, alternating, each released before the next.
// Prints every cloud rent's phases — keys and launch (requested → booting), the cloud's boot and
// sshd (booting → installing), the bootstrap (installing → ready) — the medians, and the cloud's
// overhead over the SSH rent as a difference and a ratio. Tessera's own part is everything but
// the fake's boot (its test host coming up). Exit code 1 when that part's median is over 5 s, 77
// when test hosts cannot be made here (needs root). Label bench:
//   ctest --test-dir build -L bench -R bench_cloud_rent -V
#include "backend/provision/cloud/cloudhttp.h"
#include "backend/provision/cloud/cloudprovider.h"
#include "backend/provision/cloud/lambdaapi.h"
#include "backend/provision/ssh/sshprovider.h"
#include "tests/backend/testcluster.h"
#include "tests/support/fakelambda.h"
#include "tests/support/providerrun.h"
#include "tests/support/testhosts.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <map>
#include <vector>

using namespace tessera;

namespace {

constexpr int kRounds = 5;
const QString kKey = QStringLiteral("bench-key");

double median(std::vector<qint64> v) {
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? double(v[v.size() / 2]) : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2.0;
}

/// Milliseconds from rent() to each state the lease entered, or an empty map (printed why).
std::map<LeaseState, qint64> rentPhases(Provider& p, const QString& offer) {
    QElapsedTimer clock;
    std::map<LeaseState, qint64> at;
    QString id;
    const auto c = QObject::connect(&p, &Provider::leaseChanged, [&](const Lease& l) {
        if (l.id == id || id.isEmpty()) {
            at.try_emplace(l.state, clock.elapsed());
        }
    });
    clock.start();
    const Result<QString> rented = p.rent(offer);
    if (!rented) {
        std::fprintf(stderr, "bench_cloud_rent: %s\n", rented.error().message.c_str());
        return {};
    }
    id = *rented;
    const bool done = QTest::qWaitFor(
        [&] { return p.lease(id).state == LeaseState::Ready || !p.lease(id).live(); }, 180000);
    QObject::disconnect(c);
    if (!done || p.lease(id).state != LeaseState::Ready) {
        std::fprintf(stderr, "bench_cloud_rent: rent of %s failed: %s\n", qPrintable(offer),
                     qPrintable(p.lease(id).reason));
        return {};
    }
    (void)p.release(id);
    if (!QTest::qWaitFor([&] { return !p.lease(id).live(); }, 60000)) {
        std::fprintf(stderr, "bench_cloud_rent: release of %s did not end\n", qPrintable(id));
        return {};
    }
    return at;
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    QTemporaryDir data;
    test::useBuildAndData(data.path());
    test::TestHosts hosts(1);
    if (hosts.missing()) {
        std::printf("SKIP bench_cloud_rent: no test hosts: %s\n", qPrintable(hosts.error()));
        return 77;
    }
    test::FakeLambda fake(kKey, /*realHosts=*/true, /*bootSeconds=*/0);
    if (!hosts.error().isEmpty() || !fake.error().isEmpty()) {
        std::fprintf(stderr, "bench_cloud_rent: %s%s\n", qPrintable(hosts.error()),
                     qPrintable(fake.error()));
        return 1;
    }
    ClusterRegistry registry;
    registry.setProbeInterval(500);
    LambdaCloudApi api{QUrl(fake.url())};
    api.setApiKey(kKey);
    api.setSshUser(QStringLiteral("root"));
    CloudProvider cloud(&api, &registry, nullptr);
    CloudRent::Timing t;
    t.pollFirstMs = 100; // what a person would want of a real cloud too: the boot is polled
    t.pollMaxMs = 1000;  // soon and often, as one poll costs the API little
    cloud.setTiming(t);
    QSignalSpy listed(&cloud, &Provider::offersChanged);
    cloud.refreshOffers();
    if (!listed.wait(30000) || !cloud.offersError().isEmpty()) {
        std::fprintf(stderr, "bench_cloud_rent: no offers: %s\n", qPrintable(cloud.offersError()));
        return 1;
    }
    test::ProviderRun<SshProvider> ssh(data.filePath(QStringLiteral("ssh.sqlite")));
    const SshHost host =
        hosts.sshHosts(QStringLiteral("peer-"), data.filePath(QStringLiteral("remote")), 0).first();
    ssh.provider.setHosts({host});

    const QString type = QStringLiteral("gpu_1x_a10");
    if (rentPhases(cloud, type).empty() || rentPhases(ssh.provider, host.offerId()).empty()) {
        return 1; // warm-up: the worker bundle is copied once per host
    }
    std::vector<qint64> total, own, boot, peer;
    for (int i = 0; i < kRounds; ++i) {
        auto c = rentPhases(cloud, type);
        auto s = rentPhases(ssh.provider, host.offerId());
        if (c.empty() || s.empty()) {
            return 1;
        }
        const qint64 launched = c[LeaseState::Booting], up = c[LeaseState::Installing],
                     ready = c[LeaseState::Ready];
        total.push_back(ready);
        boot.push_back(up - launched);
        own.push_back(ready - (up - launched));
        peer.push_back(s[LeaseState::Ready]);
        std::printf("cloud rent %d: keys+launch %lld ms, boot+sshd %lld ms, bootstrap %lld ms, "
                    "ready after %lld ms; SSH rent of an up host %lld ms\n",
                    i + 1, launched, up - launched, ready - up, ready, peer.back());
    }
    const double o = median(own), p = median(peer);
    std::printf("median rent-to-ready: cloud %.0f ms (fake's boot and sshd %.0f ms, Tessera's own "
                "part %.0f ms), SSH rent of an up host %.0f ms; cloud over SSH %+.0f ms, ratio "
                "%.2f (goal: Tessera's own part under 5000 ms)\n",
                median(total), median(boot), o, p, median(total) - p, median(total) / p);
    return o <= 5000 ? 0 : 1;
}
