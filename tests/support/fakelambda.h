// The fake Lambda Cloud API (tests/support/fake-lambda-cloud.py) run from C++ tests: started on
// a loopback port with its own state folder, steered through its /_fake/ control endpoints,
// stopped (and every test host it brought up taken down) in the destructor.
#pragma once

#include <QEventLoop>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTimer>

namespace tessera::test {

class FakeLambda {
public:
    /// Starts the fake with `apiKey`; `realHosts` false: instances get an address but no host.
    /// `rateLimits` false turns the documented limits off (the fake's default is on): for tests
    /// whose client does not pace its requests (LambdaCloudApi's http()->setPacing({})).
    explicit FakeLambda(const QString& apiKey, bool realHosts = true, int bootSeconds = 0,
                        bool rateLimits = true) {
        QStringList args{QStringLiteral(TESSERA_SOURCE_DIR "/tests/support/fake-lambda-cloud.py"),
                         QStringLiteral("--api-key"),
                         apiKey,
                         QStringLiteral("--state-dir"),
                         m_state.path(),
                         QStringLiteral("--port"),
                         QStringLiteral("0"),
                         QStringLiteral("--boot-seconds"),
                         QString::number(bootSeconds)};
        if (!realHosts) {
            args << QStringLiteral("--no-hosts");
        }
        if (!rateLimits) {
            args << QStringLiteral("--no-rate-limits");
        }
        m_process.setProcessChannelMode(QProcess::SeparateChannels);
        m_process.start(QStringLiteral("/usr/bin/python3"), args);
        QString out;
        const auto m = QRegularExpression(QStringLiteral("listening on (\\S+)"));
        for (int i = 0; i < 300 && m_url.isEmpty(); ++i) {
            if (!m_process.waitForReadyRead(100) && m_process.state() == QProcess::NotRunning) {
                break;
            }
            out += QString::fromUtf8(m_process.readAllStandardOutput());
            if (const auto match = m.match(out); match.hasMatch()) {
                m_url = match.captured(1);
            }
        }
        if (m_url.isEmpty()) {
            m_error = QStringLiteral("the fake Lambda Cloud did not start: ") +
                      QString::fromUtf8(m_process.readAllStandardError()).right(2000);
        }
    }
    ~FakeLambda() {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.terminate(); // it takes its test hosts down first
            if (!m_process.waitForFinished(60000)) {
                m_process.kill();
                m_process.waitForFinished(5000);
            }
        }
    }
    FakeLambda(const FakeLambda&) = delete;
    FakeLambda& operator=(const FakeLambda&) = delete;

    /// Empty when it runs; else why not.
    QString error() const { return m_error; }
    /// The API's base URL, http://127.0.0.1:PORT/api/v1.
    QString url() const { return m_url; }
    /// Its log so far (stderr), for failure messages.
    QString log() { return m_log += QString::fromUtf8(m_process.readAllStandardError()); }

    /// POST (or GET when `get`) `path` under the server's root (e.g. "/_fake/quota"); returns
    /// the reply's JSON object (empty on failure).
    QJsonObject control(const QString& path, const QJsonObject& body = {}, bool get = false) {
        QUrl u(m_url);
        u.setPath(path);
        QNetworkRequest req(u);
        req.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
        return wait(get ? m_net.get(req)
                        : m_net.post(req, QJsonDocument(body).toJson(QJsonDocument::Compact)));
    }

    /// GET /api/v1/<path> with the key: the documented API, as a client sees it.
    QJsonObject api(const QString& path, const QString& key) {
        QNetworkRequest req(QUrl(m_url + path));
        req.setRawHeader("Authorization", "Bearer " + key.toUtf8());
        return wait(m_net.get(req));
    }

    /// The fake's whole state (GET /_fake/state): instances with their hosts and firewall
    /// rules, rulesets, and the requests it refused with 429 ("rate_limited").
    QJsonObject state() {
        return control(QStringLiteral("/_fake/state"), {}, true)
            .value(QStringLiteral("data"))
            .toObject();
    }
    /// Instance `id` as the fake holds it ({"instance": the API's view, "host": {"ns",
    /// "address", …}, "firewall": {"rules", "nft"}, …}; hidden ones included), or {}.
    QJsonObject instanceState(const QString& id) {
        for (const QJsonValue& v : state().value(QStringLiteral("instances")).toArray()) {
            if (v.toObject().value(QStringLiteral("instance")).toObject().value("id") == id) {
                return v.toObject();
            }
        }
        return {};
    }

    /// The API requests received so far (GET /_fake/log): {method, path, time, status, …} each.
    QJsonArray requestLog() {
        QUrl u(m_url);
        u.setPath(QStringLiteral("/_fake/log"));
        return wait(m_net.get(QNetworkRequest(u))).value(QStringLiteral("data")).toArray();
    }

    /// Forgets the requests received so far (DELETE /_fake/log).
    void clearLog() {
        QUrl u(m_url);
        u.setPath(QStringLiteral("/_fake/log"));
        wait(m_net.deleteResource(QNetworkRequest(u)));
    }

    /// POST /api/v1/<path> with the key and a JSON body: the documented API, as a client sees it.
    QJsonObject apiPost(const QString& path, const QJsonObject& body, const QString& key) {
        QNetworkRequest req(QUrl(m_url + path));
        req.setRawHeader("Authorization", "Bearer " + key.toUtf8());
        req.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
        return wait(m_net.post(req, QJsonDocument(body).toJson(QJsonDocument::Compact)));
    }

    /// The instances GET /instances would list (the API's view of each: not hidden, neither
    /// terminated nor preempted), read from /_fake/state so that a test's polling does not use up
    /// the client's request budget.
    QJsonArray listed() {
        QJsonArray out;
        for (const QJsonValue& v : state().value(QStringLiteral("instances")).toArray()) {
            const QJsonObject i = v.toObject().value(QStringLiteral("instance")).toObject();
            const QString status = i.value(QStringLiteral("status")).toString();
            if (!v.toObject().value(QStringLiteral("hidden")).toBool() &&
                status != QLatin1String("terminated") && status != QLatin1String("preempted")) {
                out.append(i);
            }
        }
        return out;
    }

    /// Instance `id`'s status as the API would report it ("" once it no longer knows it). Read
    /// from /_fake/state, which the fake's rate limits leave alone: a test's own look does not
    /// use up the client's budget, nor is a 429 taken for "gone". (`key` is not needed.)
    QString status(const QString& id, const QString& key = {}) {
        Q_UNUSED(key);
        const QJsonObject i = instanceState(id);
        return i.value(QStringLiteral("hidden")).toBool()
                   ? QString()
                   : i.value(QStringLiteral("instance")).toObject().value("status").toString();
    }
    /// True when the API reports instance `id` terminated or no longer knows it.
    bool terminated(const QString& id, const QString& key) {
        const QString s = status(id, key);
        return s == QLatin1String("terminated") || s.isEmpty();
    }

private:
    /// The reply's JSON object once it has come (at most 30 s), or an empty one.
    static QJsonObject wait(QNetworkReply* r) {
        QEventLoop loop;
        QObject::connect(r, &QNetworkReply::finished, &loop, &QEventLoop::quit);
        QTimer::singleShot(30000, &loop, &QEventLoop::quit);
        loop.exec();
        const QJsonObject o = QJsonDocument::fromJson(r->readAll()).object();
        r->deleteLater();
        return o;
    }

    QTemporaryDir m_state;
    QProcess m_process;
    QNetworkAccessManager m_net;
    QString m_url, m_error, m_log;
};

} // namespace tessera::test
