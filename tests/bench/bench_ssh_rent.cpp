// Rent-to-ready over SSH with mutual TLS against the same rent in plaintext (issue 20: TLS may
// cost at most 1 s), side by side on one test host (a network namespace with sshd,
// tests/support/test-hosts.sh): a warm-up rent installs the worker bundle, then ROUNDS rents of
// each kind, alternating, each released before the next. Prints every rent and the medians, their
// difference and ratio. Exit code 1 when TLS's median is more than 1 s over plaintext's, 77 when
// test hosts cannot be made here (needs root). Label bench: ctest -L bench -R bench_ssh_rent -V
#include "backend/provision/ssh/sshprovider.h"
#include "tests/backend/testcluster.h"
#include "tests/support/providerrun.h"
#include "tests/support/testhosts.h"

#include <QCoreApplication>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <vector>

using namespace tessera;

namespace {

constexpr int kRounds = 5;

/// One rent of `host` to Ready and its release; the rent's milliseconds, or -1 (printed why).
qint64 rentOnce(test::ProviderRun<SshProvider>& run, const SshHost& host, bool tls) {
    run.provider.setWorkerTls(tls);
    QString id;
    const QString why = test::rentReady(run.provider, host.offerId(), 120000, &id);
    if (!why.isEmpty()) {
        std::fprintf(stderr, "bench_ssh_rent: rent failed: %s\n", qPrintable(why));
        return -1;
    }
    const Lease l = run.provider.lease(id);
    const qint64 ms = l.created.msecsTo(l.ready);
    (void)run.provider.release(id);
    if (!QTest::qWaitFor([&] { return !run.provider.lease(id).live(); }, 60000)) {
        std::fprintf(stderr, "bench_ssh_rent: release of %s did not end\n", qPrintable(id));
        return -1;
    }
    return ms;
}

double median(std::vector<qint64> v) {
    std::sort(v.begin(), v.end());
    return v.size() % 2 ? double(v[v.size() / 2]) : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2.0;
}

} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    QTemporaryDir data;
    test::useBuildAndData(data.path());
    test::TestHosts hosts(1);
    if (hosts.missing()) {
        std::printf("SKIP bench_ssh_rent: no test hosts: %s\n", qPrintable(hosts.error()));
        return 77;
    }
    if (!hosts.error().isEmpty()) {
        std::fprintf(stderr, "bench_ssh_rent: %s\n", qPrintable(hosts.error()));
        return 2;
    }
    const SshHost host =
        hosts.sshHosts(QStringLiteral("bench-"), data.filePath(QStringLiteral("remote")), 0)
            .first();
    test::ProviderRun<SshProvider> run(data.filePath(QStringLiteral("leases.sqlite")));
    if (!run.storeOpen) {
        std::fprintf(stderr, "bench_ssh_rent: cannot open the lease store\n");
        return 2;
    }
    run.provider.setHosts({host});
    const qint64 warm = rentOnce(run, host, true);
    if (warm < 0) {
        return 2;
    }
    std::printf("warm-up rent (installs the worker bundle): %lld ms\n", warm);
    std::vector<qint64> tls, plain;
    for (int round = 0; round < kRounds; ++round) {
        for (bool withTls : {round % 2 == 0, round % 2 != 0}) {
            const qint64 ms = rentOnce(run, host, withTls);
            if (ms < 0) {
                return 2;
            }
            (withTls ? tls : plain).push_back(ms);
            std::printf("round %d  %-9s rent-to-ready %5lld ms\n", round + 1,
                        withTls ? "mTLS" : "plaintext", ms);
        }
    }
    const double t = median(tls), p = median(plain);
    std::printf(
        "median rent-to-ready over SSH: mTLS %.0f ms, plaintext %.0f ms; TLS costs %+.0f ms "
        "(ratio %.2f); goal: at most +1000 ms\n",
        t, p, t - p, p > 0 ? t / p : 0.0);
    return t - p <= 1000 ? 0 : 1;
}
