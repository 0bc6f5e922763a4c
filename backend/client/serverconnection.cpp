// A client's live view of one server (see serverconnection.h).
#include "backend/client/serverconnection.h"

#include "backend/client/rpcstream.h"
#include "backend/service/backendclient.h"
#include "tessera/backend/v1/backend.grpc.pb.h"
#include "worker/common/tsan_handoff.h"

#include <QCoreApplication>

#include <algorithm>
#include <limits>

namespace tessera::client {

namespace bv1 = tessera::backend::v1;

QString ServerAddress::describe() const {
    return isLocal() ? QCoreApplication::translate("ServerAddress", "this machine") : endpoint;
}

QThreadPool* ServerConnection::requestPool() {
    static QThreadPool* pool = [] {
        auto* p = new QThreadPool;
        p->setMaxThreadCount(8);
        // A call still in flight when the application object goes (a Describe asked just before
        // the window closed) must not be inside gRPC while the process tears it down: the
        // application's destructor waits for it (each call has a deadline of seconds).
        qAddPostRoutine([] { requestPool()->waitForDone(); });
        return p;
    }();
    return pool;
}

ServerConnection::ServerConnection(ServerAddress address, QObject* parent)
    : QObject(parent), m_address(std::move(address)),
      m_client(std::make_shared<BackendClient>(m_address.endpoint, m_address.identity)) {}

ServerConnection::~ServerConnection() {
    for (auto& s : m_streams) {
        if (s) {
            s->stop();
        }
    }
}

void ServerConnection::start() {
    if (m_streams[ClusterStream]) {
        return;
    }
    for (int s = 0; s < StreamCount; ++s) {
        m_streams[s] = makeStream(Stream(s));
        m_streams[s]->start();
    }
}

void ServerConnection::describe() {
    request<Result<bv1::DescribeReply>>([](BackendClient& c) { return c.describe(); },
                                        [this](Result<bv1::DescribeReply> r) {
                                            if (!r) {
                                                return; // the streams say why
                                            }
                                            m_user = QString::fromStdString(r->user());
                                            m_admin = r->admin();
                                            m_version = QString::fromStdString(r->version());
                                            Q_EMIT described();
                                        });
}

const bv1::JobSummary* ServerConnection::job(const QString& id) const {
    const std::string key = id.toStdString();
    for (const bv1::JobSummary& j : m_jobs) {
        if (j.id() == key) {
            return &j;
        }
    }
    return nullptr;
}

void ServerConnection::submit(const std::string& specJson,
                              std::function<void(Result<bv1::SubmitJobReply>)> done) {
    request<Result<bv1::SubmitJobReply>>(
        [specJson](BackendClient& c) { return c.submit(specJson); }, std::move(done));
}

void ServerConnection::cancel(const QString& jobId, std::function<void(Result<void>)> done) {
    request<Result<void>>([jobId](BackendClient& c) { return c.cancel(jobId); }, std::move(done));
}

template <typename Reply, typename Open>
grpc::Status ServerConnection::readStream(grpc::ClientContext& context, Stream stream, Open open) {
    auto reader = open(context);
    Reply message;
    bool first = true;
    while (reader->Read(&message)) {
        if (first) {
            first = false;
            QMetaObject::invokeMethod(this, tsanHandOff([this, stream] { onOpened(stream); }),
                                      Qt::QueuedConnection);
        }
        QMetaObject::invokeMethod(this, tsanHandOff([this, message] {
                                      if constexpr (std::is_same_v<Reply, bv1::ClusterSnapshot>) {
                                          onCluster(message);
                                      } else {
                                          onJobs(message);
                                      }
                                  }),
                                  Qt::QueuedConnection);
    }
    return reader->Finish();
}

std::unique_ptr<RpcStream> ServerConnection::makeStream(Stream stream) {
    auto call = [this, stream](grpc::ClientContext& context) {
        BackendClient* client = m_client.get();
        if (stream == ClusterStream) {
            return readStream<bv1::ClusterSnapshot>(context, stream, [client](auto& ctx) {
                return client->stub().WatchCluster(&ctx, bv1::WatchClusterRequest());
            });
        }
        return readStream<bv1::JobsUpdate>(context, stream, [client](auto& ctx) {
            return client->stub().WatchJobs(&ctx, bv1::WatchJobsRequest());
        });
    };
    auto ended = [this, stream](const grpc::Status& status) {
        const bool refused = status.error_code() == grpc::StatusCode::UNAUTHENTICATED ||
                             status.error_code() == grpc::StatusCode::PERMISSION_DENIED;
        QMetaObject::invokeMethod(
            this,
            tsanHandOff([this, stream, code = int(status.error_code()),
                         message = QString::fromStdString(status.error_message())] {
                onEnded(stream, code, message);
            }),
            Qt::QueuedConnection);
        return !refused;
    };
    return std::make_unique<RpcStream>(std::move(call), std::move(ended));
}

void ServerConnection::onOpened(Stream stream) {
    m_open[stream] = true;
    if (m_open[ClusterStream] && m_open[JobsStream] && m_link != Link::Connected) {
        setLink(Link::Connected, QString());
        describe(); // again after each reconnect: it may be another server (a restart, an update)
    }
}

void ServerConnection::onEnded(Stream stream, int code, const QString& message) {
    m_open[stream] = false;
    const auto status = grpc::Status(grpc::StatusCode(code), message.toStdString());
    const QString why = QString::fromStdString(
        backendCallError(
            status.ok() ? grpc::Status(grpc::StatusCode::UNAVAILABLE, "the server ended the stream")
                        : status,
            m_address.endpoint)
            .message);
    const bool refused =
        code == grpc::StatusCode::UNAUTHENTICATED || code == grpc::StatusCode::PERMISSION_DENIED;
    if (m_link == Link::Refused) {
        return;
    }
    setLink(refused ? Link::Refused : Link::Lost, why);
}

void ServerConnection::setLink(Link link, const QString& problem) {
    if (link == m_link && problem == m_problem) {
        return;
    }
    m_link = link;
    m_problem = problem;
    Q_EMIT linkChanged(link, problem);
}

void ServerConnection::onCluster(const bv1::ClusterSnapshot& snapshot) {
    m_cluster = snapshot;
    Q_EMIT clusterChanged();
}

void ServerConnection::onJobs(const bv1::JobsUpdate& update) {
    if (update.snapshot()) {
        m_jobs.clear();
        for (const bv1::JobSummary& j : update.jobs()) {
            m_jobs.append(j);
        }
        // Newest first; queued tickets (not submitted yet, so no time) before all.
        const auto when = [](const bv1::JobSummary& j) {
            return j.submitted_ms() == 0 ? std::numeric_limits<qint64>::max() : j.submitted_ms();
        };
        std::stable_sort(
            m_jobs.begin(), m_jobs.end(),
            [&](const bv1::JobSummary& a, const bv1::JobSummary& b) { return when(a) > when(b); });
        Q_EMIT jobsReset();
        return;
    }
    for (const bv1::JobSummary& j : update.jobs()) {
        const QString id = QString::fromStdString(j.id());
        const auto at = std::find_if(m_jobs.begin(), m_jobs.end(),
                                     [&](const bv1::JobSummary& k) { return k.id() == j.id(); });
        if (!j.became().empty()) {
            if (at != m_jobs.end()) {
                m_jobs.erase(at);
            }
            m_became.insert(id, QString::fromStdString(j.became()));
            Q_EMIT ticketBecame(id, QString::fromStdString(j.became()));
            continue;
        }
        if (at != m_jobs.end()) {
            *at = j;
        } else {
            m_jobs.prepend(j);
        }
        Q_EMIT jobChanged(id);
    }
}

} // namespace tessera::client
