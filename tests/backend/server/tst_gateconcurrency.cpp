// The control API's gate under concurrent calls on one connection. gRPC gives every call of a
// connection the same auth context; the gate once added the caller's name to it per call, which
// raced the handlers reading it (CI: "assertion failed: prop->name != nullptr" in
// grpc_auth_property_iterator_next, SIGABRT). Many threads now call Describe at once over one
// channel, on the socket and over mutual TLS, and every answer must name the right caller.
#include "backend/service/backendclient.h"
#include "tests/backend/server/servedfolder.h"
#include "tests/backend/testcluster.h"

#include <QTemporaryDir>
#include <QTest>

#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

using namespace tessera;

namespace {

constexpr int kThreads = 8;
constexpr int kCallsEach = 120;

/// What the threads saw: calls answered, and the first wrong answer or failure.
struct Outcome {
    std::atomic<int> answered{0};
    std::atomic<int> threadsDone{0};
    std::mutex mutex;
    QString firstProblem;

    void problem(const QString& what) {
        const std::lock_guard lock(mutex);
        if (firstProblem.isEmpty()) {
            firstProblem = what;
        }
    }
};

/// kThreads threads × kCallsEach Describe calls on `client`, expecting `user` and `admin`; the
/// calling thread turns the event loop meanwhile (the server answers on it).
QString hammer(BackendClient& client, const QString& user, bool admin) {
    Outcome outcome;
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
        threads.emplace_back([&] {
            for (int i = 0; i < kCallsEach; ++i) {
                auto reply = client.describe(20000);
                if (!reply) {
                    outcome.problem(QString::fromStdString(reply.error().message));
                } else if (QString::fromStdString(reply->user()) != user ||
                           reply->admin() != admin) {
                    outcome.problem(QStringLiteral("answered as '%1' (admin %2)")
                                        .arg(QString::fromStdString(reply->user()))
                                        .arg(reply->admin()));
                } else {
                    ++outcome.answered;
                }
            }
            ++outcome.threadsDone;
        });
    }
    // Each call has its own deadline, so the threads end, answered or not; the server answers
    // on this thread's event loop, which must turn until they have.
    while (!QTest::qWaitFor([&] { return outcome.threadsDone.load() == kThreads; }, 1000)) {
    }
    for (auto& t : threads) {
        t.join();
    }
    if (!outcome.firstProblem.isEmpty()) {
        return outcome.firstProblem;
    }
    if (outcome.answered.load() != kThreads * kCallsEach) {
        return QStringLiteral("%1 of %2 calls answered")
            .arg(outcome.answered.load())
            .arg(kThreads * kCallsEach);
    }
    return {};
}

} // namespace

class TestGateConcurrency : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        QVERIFY(m_data.isValid());
        test::useBuildAndData(m_data.path());
        m_folder = std::make_unique<test::ServedFolder>(m_data.path(), 0);
        QVERIFY2(m_folder->error.isEmpty(), qPrintable(m_folder->error));
        const QString serving = test::serveOverTls(*m_folder, QStringLiteral("alice"), &m_alice);
        QVERIFY2(serving.isEmpty(), qPrintable(serving));
    }
    void cleanupTestCase() { m_folder.reset(); }

    void concurrentCallsOnTheSocketAreAllTheServersUser() {
        BackendClient client(m_folder->socket());
        QCOMPARE(hammer(client, ClientGate::processUser(), true), QString());
    }

    void concurrentCallsOverTlsAreAllAlice() {
        BackendClient client(QStringLiteral("127.0.0.1:%1").arg(m_folder->server->tcpPort()),
                             m_alice);
        QCOMPARE(hammer(client, QStringLiteral("alice"), false), QString());
    }

private:
    QTemporaryDir m_data;
    std::unique_ptr<test::ServedFolder> m_folder;
    std::shared_ptr<const tls::Identity> m_alice;
};

QTEST_GUILESS_MAIN(TestGateConcurrency)
#include "tst_gateconcurrency.moc"
