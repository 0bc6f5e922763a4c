// The control API's jobs: submit, cancel, owners and WatchJob streams (see backendserver.h).
#include "backend/service/backendserver.h"

#include "backend/autoscale/autoscaler.h"
#include "backend/history/metricstore.h"
#include "backend/jobs/jobcontroller.h"
#include "backend/service/backendsession.h"
#include "backend/service/errorstatus.h"
#include "backend/service/updatequeue.h"
#include "worker/common/spec_io.h"

namespace tessera {

namespace bv1 = tessera::backend::v1;

grpc::Status BackendServer::submit(const std::string& specJson, const Caller& caller,
                                   bv1::SubmitJobReply* reply) {
    Result<v1::JobSpec> spec = parseJobSpec(specJson, "SubmitJob");
    if (!spec) {
        record(caller, QStringLiteral("submit"), QString(),
               QString::fromStdString(spec.error().message).left(300), QStringLiteral("refused"));
        return statusOf(spec.error());
    }
    const QString name = QString::fromStdString(spec->name());
    Result<QString> id = m_session->autoscaler()->submit(*spec);
    if (!id) {
        record(caller, QStringLiteral("submit"), name,
               QString::fromStdString(id.error().message).left(300), QStringLiteral("failed"));
        return statusOf(id.error());
    }
    reply->set_job_id(id->toStdString());
    reply->set_queued(!m_session->controller()->jobIds().contains(*id));
    if (reply->queued()) {
        m_tickets.insert(*id, specJson);
        m_owners.insert(*id, caller.user); // the job's own id comes with jobSubmitted
    } else {
        setOwner(*id, caller.user);
    }
    publishJob(*id);
    record(caller, QStringLiteral("submit"), *id,
           reply->queued() ? tr("%1, queued for the autoscaler").arg(name) : name,
           QStringLiteral("ok"));
    return grpc::Status::OK;
}

grpc::Status BackendServer::cancel(const QString& jobId, const Caller& caller) {
    JobController* jobs = m_session->controller();
    if (!jobs->jobIds().contains(jobId)) {
        return {grpc::StatusCode::NOT_FOUND,
                tr("job %1 is not followed by this backend (`tessera-ctl status` lists the jobs)")
                    .arg(jobId)
                    .toStdString()};
    }
    if (const JobState s = jobs->state(jobId); isTerminal(s)) {
        return {grpc::StatusCode::FAILED_PRECONDITION,
                tr("job %1 %2 already").arg(jobId, jobStateName(s)).toStdString()};
    }
    const QString owner = ownerOf(jobId);
    if (owner != caller.user && !caller.admin) {
        const QString why = tr("job %1 was started by %2: only %2 or an admin (server.json "
                               "\"admins\") may cancel it")
                                .arg(jobId, owner);
        record(caller, QStringLiteral("cancel"), jobId, why, QStringLiteral("refused"));
        return {grpc::StatusCode::PERMISSION_DENIED, why.toStdString()};
    }
    jobs->cancel(jobId);
    record(caller, QStringLiteral("cancel"), jobId,
           owner == caller.user ? QString() : tr("as an admin; started by %1").arg(owner),
           QStringLiteral("ok"));
    return grpc::Status::OK;
}

QString BackendServer::ownerOf(const QString& jobId) const {
    QString owner = m_owners.value(jobId);
    if (owner.isEmpty()) {
        if (const MetricStore* store = m_session->store()) {
            owner = store->job(jobId).owner;
        }
    }
    return owner.isEmpty() ? m_access.localUser : owner;
}

void BackendServer::setOwner(const QString& jobId, const QString& owner) {
    m_owners.insert(jobId, owner);
    if (MetricStore* store = m_session->store()) {
        store->setJobOwner(jobId, owner);
    }
}
grpc::Status BackendServer::subscribe(const QString& jobId, std::shared_ptr<UpdateQueue> queue,
                                      Backfill* backfill) {
    JobController* jobs = m_session->controller();
    if (m_tickets.contains(jobId)) {
        queue->push(stateUpdate(jobId, JobState::Queued, QString()));
        m_streams.insert(jobId, std::move(queue));
        return grpc::Status::OK;
    }
    MetricStore* store = m_session->store();
    const bool followed = jobs->jobIds().contains(jobId);
    const JobRecord stored = store && backfill ? store->job(jobId) : JobRecord();
    if (!followed && stored.id.isEmpty()) {
        return {grpc::StatusCode::NOT_FOUND,
                tr("job %1 is not followed by this backend (`tessera-ctl status` lists the jobs)")
                    .arg(jobId)
                    .toStdString()};
    }
    if (backfill && store) {
        jobs->flushHistory(); // what came before this moment is stored; what comes after, queued
        backfill->storePath = store->path();
        backfill->upToSeq = store->lastStoredSeq(jobId);
        for (const AttemptRecord& a : store->attempts(jobId)) {
            bv1::RecoveryUpdate r;
            r.set_attempt(a.attempt);
            r.set_cause(a.cause.toStdString());
            r.set_resume_step(a.resumeStep);
            r.set_seq_base(a.seqBase);
            backfill->relaunches.append(r);
        }
    }
    if (!followed) { // only the history knows it: its state as recorded, then the replay
        bv1::JobUpdate u = stateUpdate(jobId, stored.state, stored.reason);
        if (!isTerminal(stored.state)) {
            u.mutable_state()->set_reason(
                tr("not followed by this backend now (its last recorded state)").toStdString());
        }
        queue->push(u);
        queue->close(grpc::Status::OK);
        return grpc::Status::OK;
    }
    const JobState now = jobs->state(jobId);
    queue->push(stateUpdate(jobId, now, QString()));
    if (isTerminal(now)) {
        queue->close(grpc::Status::OK);
    } else {
        m_streams.insert(jobId, std::move(queue));
    }
    return grpc::Status::OK;
}

void BackendServer::publish(const QString& jobId, const bv1::JobUpdate& update) {
    for (auto it = m_streams.find(jobId); it != m_streams.end() && it.key() == jobId;) {
        if ((*it)->closed()) {
            it = m_streams.erase(it); // its client went away
        } else {
            (*it)->push(update);
            ++it;
        }
    }
}

void BackendServer::closeStreams(const QString& jobId, const grpc::Status& status) {
    for (const std::shared_ptr<UpdateQueue>& q : m_streams.values(jobId)) {
        q->close(status);
    }
    m_streams.remove(jobId);
}

bv1::JobUpdate BackendServer::stateUpdate(const QString& jobId, JobState state,
                                          const QString& reason) const {
    bv1::JobUpdate u;
    bv1::StateUpdate* s = u.mutable_state();
    s->set_job_id(jobId.toStdString());
    s->set_state(jobStateName(state).toStdString());
    s->set_reason(reason.toStdString());
    if (const MetricStore* store = m_session->store()) {
        s->set_last_step(store->job(jobId).lastStep);
    }
    s->set_epochs(m_session->controller()->spec(jobId).training().epochs());
    s->set_owner(ownerOf(jobId).toStdString());
    return u;
}

} // namespace tessera
