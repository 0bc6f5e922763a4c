// HTTP with retries for cloud APIs (see cloudhttp.h).
#include "backend/provision/cloud/cloudhttp.h"

#include "backend/core/logging.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QHostAddress>
#include <QLoggingCategory>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimer>

#include <algorithm>

namespace tessera {

struct CloudHttp::Call {
    QPointer<QObject> context;
    QByteArray verb;
    QString path;
    QByteArray body;
    bool idempotent = false;
    std::function<void(const HttpReply&)> done;
    int attempts = 0;
    qint64 rateLimitWaitedMs = 0;
    qint64 noticedAtMs = 0; ///< rateLimitWaitedMs when the storm was last said as a warning
};

CloudHttp::CloudHttp(const QUrl& base, QObject* parent)
    : QObject(parent), m_net(new QNetworkAccessManager(this)), m_base(base) {}

Result<QUrl> CloudHttp::checkBaseUrl(const QString& url) {
    const QUrl u(url, QUrl::StrictMode);
    if (!u.isValid() || u.host().isEmpty()) {
        return fail(ErrorCode::InvalidArgument,
                    QStringLiteral("'%1' is not an API URL (like https://cloud.lambda.ai/api/v1)")
                        .arg(url)
                        .toStdString());
    }
    const QHostAddress host(u.host());
    const bool loopback = host.isLoopback() || u.host() == QLatin1String("localhost");
    if (u.scheme() != QLatin1String("https") &&
        !(u.scheme() == QLatin1String("http") && loopback)) {
        return fail(ErrorCode::InvalidArgument,
                    QStringLiteral("the API URL %1 is not https: Tessera sends the API key only "
                                   "over https (or plain http to a test double on this machine)")
                        .arg(url)
                        .toStdString());
    }
    return u;
}

void CloudHttp::setApiKey(const QString& key) {
    m_key = key;
    setPacing(m_pacing);
}

void CloudHttp::setPacing(const CloudPacing& pacing) {
    m_pacing = pacing;
    const bool paced = pacing.requestIntervalMs > 0 || pacing.launchIntervalMs > 0;
    m_pace = paced && !m_key.isEmpty()
                 ? CloudPace::forKey(QCryptographicHash::hash(
                       m_base.host().toUtf8() + '\n' + m_key.toUtf8(), QCryptographicHash::Sha256))
                 : nullptr;
}

void CloudHttp::setBackoff(int firstMs, int maxMs, int rateLimitBudgetMs) {
    m_firstMs = std::max(1, firstMs);
    m_maxMs = std::max(m_firstMs, maxMs);
    m_rateLimitBudgetMs = std::max(0, rateLimitBudgetMs);
}

void CloudHttp::send(QObject* context, const QByteArray& verb, const QString& path,
                     const QByteArray& body, bool idempotent,
                     std::function<void(const HttpReply&)> done) {
    auto call = std::make_shared<Call>();
    call->context = context;
    call->verb = verb;
    call->path = path;
    call->body = body;
    call->idempotent = idempotent;
    call->done = std::move(done);
    attempt(call);
}

void CloudHttp::attempt(std::shared_ptr<Call> call) {
    if (!call->context) {
        return;
    }
    const qint64 waitMs = m_pace ? m_pace->reserve(m_pacing, !m_pacing.launchPath.isEmpty() &&
                                                                 call->path == m_pacing.launchPath)
                                 : 0;
    if (waitMs > 0) {
        // Precise: a coarse timer may fire up to 5 % early, which on a launch's 12.5 s wait would
        // put it within the API's one second of the request before it.
        QTimer::singleShot(int(waitMs), Qt::PreciseTimer, this, [this, call] { sendNow(call); });
    } else {
        sendNow(call);
    }
}

void CloudHttp::sendNow(std::shared_ptr<Call> call) {
    if (!call->context) {
        return;
    }
    ++call->attempts;
    QUrl url = m_base;
    url.setPath(m_base.path() + call->path);
    QNetworkRequest req(url);
    req.setRawHeader("Authorization", "Bearer " + m_key.toUtf8());
    req.setRawHeader("Accept", "application/json");
    req.setHeader(QNetworkRequest::UserAgentHeader, QStringLiteral("tessera"));
    if (!call->body.isEmpty()) {
        req.setHeader(QNetworkRequest::ContentTypeHeader, QStringLiteral("application/json"));
    }
    req.setTransferTimeout(m_transferTimeoutMs);
    req.setAttribute(QNetworkRequest::RedirectPolicyAttribute,
                     QNetworkRequest::ManualRedirectPolicy); // never carry the key elsewhere
    QNetworkReply* reply = m_net->sendCustomRequest(req, call->verb, call->body);
    connect(reply, &QNetworkReply::downloadProgress, reply, [reply](qint64 received, qint64) {
        if (received > kMaxReplyBytes) {
            reply->abort();
        }
    });
    connect(reply, &QNetworkReply::finished, this, [this, call, reply] { finished(call, reply); });
}

int CloudHttp::retryAfterMs(QNetworkReply* reply, int attempt) const {
    const QByteArray h = reply->rawHeader("Retry-After").trimmed();
    bool ok = false;
    const qint64 secs = h.toLongLong(&ok);
    qint64 ms = -1;
    if (ok && secs >= 0) {
        ms = secs * 1000;
    } else if (!h.isEmpty()) {
        const QDateTime when = QDateTime::fromString(QString::fromLatin1(h), Qt::RFC2822Date);
        if (when.isValid()) {
            ms = std::max<qint64>(0, QDateTime::currentDateTimeUtc().msecsTo(when));
        }
    }
    if (ms < 0) {
        ms = qint64(m_firstMs) << std::min(attempt - 1, 16);
    }
    return int(std::clamp<qint64>(ms, m_firstMs, m_maxMs));
}

void CloudHttp::finished(std::shared_ptr<Call> call, QNetworkReply* reply) {
    reply->deleteLater();
    HttpReply r;
    r.attempts = call->attempts;
    r.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    r.body = reply->readAll().left(kMaxReplyBytes);
    if (r.status == 0) {
        r.networkError = reply->errorString();
    }
    int waitMs = -1;
    if (r.status == 429) {
        waitMs = retryAfterMs(reply, call->attempts);
        if (call->rateLimitWaitedMs + waitMs > m_rateLimitBudgetMs) {
            waitMs = -1; // the storm outlasted the budget: report it
        }
    } else if (call->idempotent && (r.status == 0 || r.status >= 500) && call->attempts < 4) {
        waitMs = std::min(m_maxMs, m_firstMs << (call->attempts - 1));
    }
    if (waitMs < 0 || !call->context) {
        if (call->context) {
            call->done(r);
        }
        return;
    }
    if (r.status == 429) {
        call->rateLimitWaitedMs += waitMs;
        if (m_pace) {
            m_pace->holdOff(waitMs);
        }
    }
    if (r.status == 429 && call->rateLimitWaitedMs >= kStormNoticeMs &&
        (call->noticedAtMs == 0 || call->rateLimitWaitedMs - call->noticedAtMs >= 10000)) {
        call->noticedAtMs = call->rateLimitWaitedMs;
        // A long storm is said where a person sees it (a warning reaches tessera-ctl's stderr),
        // so a rent that waits minutes does not look hung.
        qCWarning(lcLease).noquote()
            << QStringLiteral("the cloud's API has refused %1 %2 for %3 s so far (HTTP 429: too "
                              "many requests): trying again in %4 s; Tessera gives up after %5 s")
                   .arg(call->verb, call->path)
                   .arg((call->rateLimitWaitedMs - waitMs) / 1000)
                   .arg((waitMs + 999) / 1000)
                   .arg(m_rateLimitBudgetMs / 1000);
    } else {
        qCInfo(lcLease).noquote() << call->verb << call->path << "got"
                                  << (r.status ? QString::number(r.status) : r.networkError)
                                  << "; trying again in" << waitMs << "ms";
    }
    QTimer::singleShot(waitMs, this, [this, call] { attempt(call); });
}

} // namespace tessera
