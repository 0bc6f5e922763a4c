// The control API's job list: WatchJobs snapshots and changes (see backendserver.h).
#include "backend/service/backendserver.h"

#include "backend/history/metricstore.h"
#include "backend/jobs/jobcontroller.h"
#include "backend/service/backendsession.h"
#include "worker/common/spec_io.h"

#include <algorithm>
#include <cmath>

namespace tessera {

namespace bv1 = tessera::backend::v1;

namespace {

constexpr int kDefaultRecent = 50;
constexpr int kMaxRecent = 1000;

} // namespace

bv1::JobSummary BackendServer::summary(const QString& id) const {
    bv1::JobSummary s;
    s.set_id(id.toStdString());
    s.set_owner(ownerOf(id).toStdString());
    if (const auto ticket = m_tickets.constFind(id); ticket != m_tickets.cend()) {
        s.set_state(jobStateName(JobState::Queued).toStdString());
        s.set_spec_json(*ticket);
        if (auto spec = parseJobSpec(*ticket, "ticket")) {
            s.set_name(spec->name());
        }
        return s;
    }
    const JobRecord stored = m_session->store() ? m_session->store()->job(id) : JobRecord();
    const JobController* jobs = m_session->controller();
    const bool followed = jobs->jobIds().contains(id);
    s.set_followed(followed && !isTerminal(jobs->state(id)));
    s.set_state(jobStateName(followed ? jobs->state(id) : stored.state).toStdString());
    s.set_reason(stored.reason.toStdString());
    s.set_name(stored.name.toStdString());
    s.set_submitted_ms(stored.submittedMs);
    s.set_finished_ms(stored.finishedMs);
    s.set_last_step(stored.lastStep);
    if (!std::isnan(stored.lastLoss)) {
        s.set_last_loss(stored.lastLoss);
    }
    if (!std::isnan(stored.testAccuracy)) {
        s.set_test_accuracy(stored.testAccuracy);
    }
    s.set_spec_json(followed ? jobSpecToJson(jobs->spec(id)) : stored.specJson.toStdString());
    if (followed && s.name().empty()) {
        s.set_name(jobs->spec(id).name());
    }
    return s;
}

void BackendServer::publishSummary(const bv1::JobSummary& summary) {
    bv1::JobsUpdate u;
    *u.add_jobs() = summary;
    for (auto it = m_jobLists.begin(); it != m_jobLists.end();) {
        if ((*it)->closed()) {
            it = m_jobLists.erase(it); // its client went away
        } else {
            (*it)->push(u);
            ++it;
        }
    }
}

void BackendServer::subscribeJobs(std::shared_ptr<JobsQueue> queue, int recent) {
    recent = recent <= 0 ? kDefaultRecent : std::min(recent, kMaxRecent);
    QStringList ids = m_tickets.keys();
    std::sort(ids.begin(), ids.end());
    const JobController* jobs = m_session->controller();
    for (const QString& id : jobs->jobIds()) {
        ids.append(id);
    }
    if (const MetricStore* store = m_session->store()) {
        QList<JobRecord> stored = store->jobs();
        std::sort(stored.begin(), stored.end(), [](const JobRecord& a, const JobRecord& b) {
            return a.submittedMs > b.submittedMs;
        });
        for (const JobRecord& r : stored) {
            if (recent == 0) {
                break;
            }
            if (!ids.contains(r.id)) {
                ids.append(r.id);
                --recent;
            }
        }
    }
    bv1::JobsUpdate snapshot;
    snapshot.set_snapshot(true);
    for (const QString& id : std::as_const(ids)) {
        *snapshot.add_jobs() = summary(id);
    }
    queue->push(std::move(snapshot));
    m_jobLists.append(std::move(queue));
}

} // namespace tessera
