// HTTP for a cloud's REST API: bearer key, JSON bodies, bounded replies, and the retries a
// well-behaved client owes a rate-limited API (HTTP 429 with Retry-After) and a flaky one (5xx).
#pragma once

#include "backend/provision/cloud/cloudpace.h"
#include "worker/common/error.h"

#include <QByteArray>
#include <QObject>
#include <QPointer>
#include <QString>
#include <QUrl>

#include <functional>

class QNetworkAccessManager;
class QNetworkReply;

namespace tessera {

/// The outcome of one call after its retries.
struct HttpReply {
    int status = 0;       ///< HTTP status; 0 when no answer came (networkError says why)
    QByteArray body;      ///< the reply's body (at most CloudHttp::kMaxReplyBytes)
    QString networkError; ///< why no answer came, else empty
    int attempts = 0;     ///< requests sent, the first included
};

/// Sends requests to one API base URL. Lives in one thread and never blocks it: callbacks come
/// through Qt's event loop. The key is sent as "Authorization: Bearer <key>" and never logged.
class CloudHttp : public QObject {
    Q_OBJECT
public:
    static constexpr qint64 kMaxReplyBytes = 16 * 1024 * 1024;
    /// After this long refused with HTTP 429, a retry is logged as a warning (at most one per 10 s
    /// of waiting), not as info.
    static constexpr int kStormNoticeMs = 30000;

    /// `base` e.g. https://cloud.lambda.ai/api/v1 (see checkBaseUrl).
    explicit CloudHttp(const QUrl& base, QObject* parent = nullptr);

    /// A base URL the key may be sent to: https, or http to a loopback address (a local test
    /// double). Errors: InvalidArgument naming the URL and why.
    static Result<QUrl> checkBaseUrl(const QString& url);

    /// The key every request carries; requests of one key share one schedule (setPacing).
    void setApiKey(const QString& key);
    bool hasApiKey() const { return !m_key.isEmpty(); }
    /// `text` with every occurrence of the key replaced by "<API key>" (an error body that
    /// echoes the request's headers must not put the key into a log or a lease's reason).
    QString redacted(QString text) const {
        return m_key.size() >= 4 ? text.replace(m_key, QStringLiteral("<API key>")) : text;
    }
    QUrl baseUrl() const { return m_base; }

    /// Retry timing, ms: back-off starts at `firstMs` and doubles up to `maxMs`; a Retry-After
    /// above `maxMs` is cut to it; waiting for 429s stops after `rateLimitBudgetMs` in all.
    /// Defaults 1000 / 30000 / 300000 (a 429 storm of five minutes is ridden out).
    void setBackoff(int firstMs, int maxMs, int rateLimitBudgetMs);
    /// The spacing the API's documented rate limits ask for (default none). Every CloudHttp of
    /// this process with the same key keeps it together (CloudPace), so rents, polls and health
    /// checks running at once stay within it; a 429 still holds everyone off for its Retry-After.
    void setPacing(const CloudPacing& pacing);
    CloudPacing pacing() const { return m_pacing; }
    /// How long one request may go without a byte moving before it is aborted (default 30 s).
    void setTransferTimeout(int ms) { m_transferTimeoutMs = ms; }

    /// Sends `verb` `path` (relative to the base) with a JSON `body` (may be empty). A 429 is
    /// retried after its Retry-After (seconds or an HTTP date; else the back-off). When
    /// `idempotent`, a 5xx or a network failure is retried too, 4 attempts in all. `done` runs
    /// once, in this object's thread, unless `context` is destroyed first.
    void send(QObject* context, const QByteArray& verb, const QString& path, const QByteArray& body,
              bool idempotent, std::function<void(const HttpReply&)> done);

private:
    struct Call;
    /// Takes the call's turn in the key's schedule, then sends it (sendNow).
    void attempt(std::shared_ptr<Call> call);
    void sendNow(std::shared_ptr<Call> call);
    void finished(std::shared_ptr<Call> call, QNetworkReply* reply);
    int retryAfterMs(QNetworkReply* reply, int attempt) const;

    QNetworkAccessManager* m_net;
    QUrl m_base;
    QString m_key;
    CloudPacing m_pacing;
    std::shared_ptr<CloudPace> m_pace; ///< the key's schedule; null without pacing or key
    int m_firstMs = 1000, m_maxMs = 30000, m_rateLimitBudgetMs = 300000;
    int m_transferTimeoutMs = 30000;
};

} // namespace tessera
