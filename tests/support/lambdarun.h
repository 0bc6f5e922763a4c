// What one app run has for the Lambda Cloud provider's tests: a registry that probes quickly, a
// lease store, the Lambda API (test hosts log in as root) and its provider with short timing.
#pragma once

#include "backend/cluster/clusterregistry.h"
#include "backend/provision/cloud/cloudhttp.h"
#include "backend/provision/cloud/cloudprovider.h"
#include "backend/provision/cloud/lambdaapi.h"
#include "backend/provision/leasestore.h"
#include "tests/support/fakelambda.h"

#include <QSignalSpy>
#include <QTest>

namespace tessera::test {

/// `paced`: requests spaced by Lambda's documented limits (LambdaCloudApi's default, against a
/// fake that enforces them), else none and quicker retries (a fake without its limits).
struct LambdaRun {
    ClusterRegistry registry;
    LeaseStore store;
    LambdaCloudApi api;
    CloudProvider provider{&api, &registry, &store};
    bool storeOpen = false;
    LambdaRun(const QString& db, const QString& url, const QString& key, bool paced)
        : api(QUrl(url)) {
        registry.setProbeInterval(500);
        registry.setProbeTimeout(5000);
        storeOpen = store.open(db).has_value();
        api.setApiKey(key);
        api.setSshUser(QStringLiteral("root")); // the test hosts' only login
        CloudRent::Timing t;
        t.pollFirstMs = paced ? 500 : 100;
        t.pollMaxMs = paced ? 2000 : 500;
        t.bootTimeoutMs = paced ? 180000 : 120000;
        t.registerTimeoutMs = 60000;
        provider.setTiming(t);
        if (!paced) {
            api.http()->setBackoff(50, 2000, 60000);
            api.http()->setPacing({});
        }
    }
    /// Lists the offers and waits for them (60 s at most); "" or why not.
    QString offers() {
        QSignalSpy changed(&provider, &Provider::offersChanged);
        provider.refreshOffers();
        return changed.wait(60000) ? provider.offersError()
                                   : QStringLiteral("no offers within 60 s");
    }
};

/// An app that stops between its launch request and the reply: a run on `db` rents one
/// gpu_1x_a10, the fake records the instance and holds the reply, and the run ends. Gives the
/// lease id, or "" (with a test failure recorded) when that did not happen. The fake's hold is
/// lifted again.
inline QString rentCutShortMidLaunch(FakeLambda& fake, const QString& db, const QString& key,
                                     bool paced) {
    QString leaseId;
    {
        LambdaRun run(db, fake.url(), key, paced);
        if (!run.offers().isEmpty()) {
            return QString();
        }
        fake.control(QStringLiteral("/_fake/hold-launch"), {{QStringLiteral("seconds"), 600}});
        const Result<QString> id = run.provider.rent(QStringLiteral("gpu_1x_a10"));
        if (!id) {
            return QString();
        }
        leaseId = *id;
        if (!QTest::qWaitFor([&] { return !fake.listed().isEmpty(); }, 120000)) {
            leaseId.clear();
        }
    }
    fake.control(QStringLiteral("/_fake/hold-launch"), {{QStringLiteral("seconds"), 0}});
    return leaseId;
}

} // namespace tessera::test
