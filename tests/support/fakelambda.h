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
    explicit FakeLambda(const QString& apiKey, bool realHosts = true, int bootSeconds = 0) {
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

    /// Instance `id`'s status as the API reports it ("" once it no longer knows it).
    QString status(const QString& id, const QString& key) {
        return api(QStringLiteral("/instances/") + id, key)
            .value(QStringLiteral("data"))
            .toObject()
            .value(QStringLiteral("status"))
            .toString();
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
