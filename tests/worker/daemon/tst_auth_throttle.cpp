// AuthThrottle: free failures, doubling lockouts, forgetting, bounded memory, and TokenAuth::admit
// refusing a locked-out peer's right token without looking at it (issue 20, point 3).
#include "worker/daemon/security/auth.h"
#include "worker/daemon/security/auth_throttle.h"

#include <QTest>

using namespace tessera::daemon;
using namespace std::chrono_literals;
using Clock = AuthThrottle::Clock;

class TestAuthThrottle : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void freeFailuresThenDoublingLockouts() {
        AuthThrottle t;
        const Clock::time_point t0{};
        for (int i = 0; i < AuthThrottle::kFreeFailures; ++i) {
            QCOMPARE(t.failed("a", t0).count(), 0);
            QCOMPARE(t.lockedFor("a", t0).count(), 0);
        }
        QCOMPARE(t.failed("a", t0), std::chrono::milliseconds(1000));
        QVERIFY(t.lockedFor("a", t0 + 999ms).count() > 0);
        QCOMPARE(t.lockedFor("a", t0 + 1000ms).count(), 0);
        QCOMPARE(t.failed("a", t0 + 1s), std::chrono::milliseconds(2000));
        QCOMPARE(t.failed("a", t0 + 3s), std::chrono::milliseconds(4000));
        // Capped: 1 s × 2^k never beyond kMaxLockout, however many failures.
        std::chrono::milliseconds last{};
        for (int i = 0; i < 100; ++i) {
            last = t.failed("a", t0 + 10s);
        }
        QCOMPARE(last, AuthThrottle::kMaxLockout);
    }

    void peersAreApart() {
        AuthThrottle t;
        const Clock::time_point t0{};
        for (int i = 0; i <= AuthThrottle::kFreeFailures; ++i) {
            t.failed("guesser", t0);
        }
        QVERIFY(t.lockedFor("guesser", t0).count() > 0);
        QCOMPARE(t.lockedFor("backend", t0).count(), 0);
    }

    void quietPeersAreForgiven() {
        AuthThrottle t;
        const Clock::time_point t0{};
        for (int i = 0; i <= AuthThrottle::kFreeFailures; ++i) {
            t.failed("a", t0);
        }
        // kForgetAfter after the last failure the count starts again: free failures once more.
        const Clock::time_point later = t0 + AuthThrottle::kForgetAfter + 1s;
        QCOMPARE(t.failed("a", later).count(), 0);
    }

    void manyPeersStayBounded() {
        AuthThrottle t;
        const Clock::time_point t0{};
        for (std::size_t i = 0; i < 3 * AuthThrottle::kMaxPeers; ++i) {
            t.failed("peer-" + std::to_string(i), t0 + std::chrono::milliseconds(i));
        }
        QVERIFY(t.size() <= AuthThrottle::kMaxPeers);
        // The newest peer is still remembered: its next failures count on from its first.
        const std::string newest = "peer-" + std::to_string(3 * AuthThrottle::kMaxPeers - 1);
        const Clock::time_point soon = t0 + 3 * AuthThrottle::kMaxPeers * 1ms;
        for (int i = 1; i < AuthThrottle::kFreeFailures; ++i) {
            QCOMPARE(t.failed(newest, soon).count(), 0);
        }
        QVERIFY(t.failed(newest, soon).count() > 0);
    }

    void aLockedOutPeersRightTokenIsRefusedUnchecked() {
        const TokenAuth auth("secret");
        const std::string right = "Bearer secret";
        QVERIFY(auth.admit("p", "'p'", right, "GetInfo").ok());
        for (int i = 0; i <= AuthThrottle::kFreeFailures; ++i) {
            const grpc::Status s =
                auth.admit("p", "'p'", std::string_view("Bearer guess"), "GetInfo");
            QCOMPARE(s.error_code(), grpc::StatusCode::UNAUTHENTICATED);
            QVERIFY2(s.error_message().find("wrong bearer token") == 0, s.error_message().c_str());
        }
        const grpc::Status locked = auth.admit("p", "'p'", right, "GetInfo");
        QCOMPARE(locked.error_code(), grpc::StatusCode::UNAUTHENTICATED);
        QVERIFY2(locked.error_message().find("too many failed authentications from 'p'") == 0,
                 locked.error_message().c_str());
        QVERIFY(auth.admit("q", "'q'", right, "GetInfo").ok()); // another peer is not affected
        // A loopback caller (empty key) is never locked out.
        for (int i = 0; i <= 3 * AuthThrottle::kFreeFailures; ++i) {
            (void)auth.admit("", "a local peer", std::string_view("Bearer guess"), "GetInfo");
        }
        QVERIFY(auth.admit("", "a local peer", right, "GetInfo").ok());
        // No metadata at all counts as a failure too.
        const grpc::Status none = auth.admit("r", "'r'", std::nullopt, "GetInfo");
        QVERIFY2(none.error_message().find("no authorization metadata") == 0,
                 none.error_message().c_str());
    }

    void peerKeysDropThePort() {
        QCOMPARE(peerAddressKey("ipv4:10.0.0.2:5123"), std::string("ipv4:10.0.0.2"));
        QCOMPARE(peerAddressKey("ipv6:[2001:db8::1]:5123"), std::string("ipv6:[2001:db8::1]"));
        // Loopback callers are not throttled (empty key): nothing tells them apart.
        QCOMPARE(peerAddressKey("ipv4:127.0.0.1:5123"), std::string());
        QCOMPARE(peerAddressKey("ipv6:[::1]:5123"), std::string());
        QCOMPARE(peerAddressKey("ipv6:%5B::1%5D:5123"), std::string());
        QCOMPARE(peerAddressKey("unix:/tmp/s"), std::string("unix:/tmp/s"));
        QCOMPARE(peerAddressKey("ipv4:"), std::string("ipv4:"));
    }
};

QTEST_GUILESS_MAIN(TestAuthThrottle)
#include "tst_auth_throttle.moc"
