// Control API streams (WatchJob, WatchCluster) read on their own threads, for the server's tests:
// what came so far and how the stream ended.
#pragma once

#include "backend/service/backendclient.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <grpcpp/client_context.h>

#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace tessera::test {

/// One server stream of `T` read on its own thread: `open` starts the call on the stub.
template <typename T> class StreamWatch {
public:
    using Stub = tessera::backend::v1::BackendService::Stub;
    using Open = std::function<std::unique_ptr<grpc::ClientReader<T>>(Stub&, grpc::ClientContext*)>;

    StreamWatch(const QString& endpoint, std::shared_ptr<const tls::Identity> identity, Open open)
        : m_client(endpoint, std::move(identity)) {
        m_thread = std::thread([this, open = std::move(open)] {
            auto stream = open(m_client.stub(), &m_context);
            T item;
            while (stream->Read(&item)) {
                std::lock_guard lock(m_mutex);
                m_items.push_back(item);
            }
            const grpc::Status end = stream->Finish();
            std::lock_guard lock(m_mutex);
            m_end = end;
            m_ended = true;
        });
    }
    ~StreamWatch() {
        m_context.TryCancel();
        m_thread.join();
    }
    StreamWatch(const StreamWatch&) = delete;
    StreamWatch& operator=(const StreamWatch&) = delete;

    /// Ends the stream from this side (a client that went away).
    void cut() { m_context.TryCancel(); }
    bool ended() const {
        std::lock_guard lock(m_mutex);
        return m_ended;
    }
    grpc::Status end() const {
        std::lock_guard lock(m_mutex);
        return m_end;
    }
    std::vector<T> items() const {
        std::lock_guard lock(m_mutex);
        return m_items;
    }

private:
    BackendClient m_client;
    grpc::ClientContext m_context;
    std::thread m_thread;
    mutable std::mutex m_mutex;
    std::vector<T> m_items;
    grpc::Status m_end;
    bool m_ended = false;
};

/// WatchJob(jobId[, backfill from fromSeq]).
class JobWatch : public StreamWatch<tessera::backend::v1::JobUpdate> {
public:
    JobWatch(const QString& endpoint, std::shared_ptr<const tls::Identity> identity,
             const QString& jobId, bool backfill = false, quint64 fromSeq = 0)
        : StreamWatch(endpoint, std::move(identity),
                      [id = jobId.toStdString(), backfill, fromSeq](Stub& stub,
                                                                    grpc::ClientContext* context) {
                          tessera::backend::v1::WatchJobRequest request;
                          request.set_job_id(id);
                          request.set_backfill(backfill);
                          request.set_from_seq(fromSeq);
                          return stub.WatchJob(context, request);
                      }) {}

    /// The metric updates' seqs, in arrival order.
    QList<quint64> metricSeqs() const {
        QList<quint64> seqs;
        for (const auto& u : items()) {
            if (u.has_metric()) {
                seqs << u.metric().seq();
            }
        }
        return seqs;
    }
    /// The metric updates' steps, in arrival order.
    QList<qint64> steps() const {
        QList<qint64> steps;
        for (const auto& u : items()) {
            if (u.has_metric()) {
                steps << u.metric().step();
            }
        }
        return steps;
    }
    QStringList states() const {
        QStringList s;
        for (const auto& u : items()) {
            if (u.has_state()) {
                s << QString::fromStdString(u.state().state());
            }
        }
        return s;
    }
};

/// WatchCluster: the snapshots so far.
class ClusterWatch : public StreamWatch<tessera::backend::v1::ClusterSnapshot> {
public:
    ClusterWatch(const QString& endpoint, std::shared_ptr<const tls::Identity> identity)
        : StreamWatch(endpoint, std::move(identity), [](Stub& stub, grpc::ClientContext* context) {
              return stub.WatchCluster(context, tessera::backend::v1::WatchClusterRequest());
          }) {}

    tessera::backend::v1::ClusterSnapshot last() const {
        const auto all = items();
        return all.empty() ? tessera::backend::v1::ClusterSnapshot() : all.back();
    }
    /// The names of the last snapshot's nodes that are ready.
    QStringList readyNodes() const {
        QStringList names;
        const tessera::backend::v1::ClusterSnapshot snapshot = last();
        for (const auto& n : snapshot.nodes()) {
            if (n.state() == "ready") {
                names << QString::fromStdString(n.name());
            }
        }
        return names;
    }
};

} // namespace tessera::test
