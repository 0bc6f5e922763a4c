// Test helpers for the autoscaler: a job submitted through it, waited for until its rents are
// ready and it has ended; and its decision log as text.
#pragma once

#include "backend/autoscale/autoscaler.h"
#include "backend/jobs/jobcontroller.h"

#include <QSignalSpy>
#include <QTest>

namespace tessera::test {

/// Submits `spec` through `scaler` and waits up to `rentMs` for its nodes (the ticket submitted
/// or failed), then up to `runMs` for the job to end. Returns the job id when it Succeeded; else
/// an error saying why (the refusal, the failed ticket's reason, the job's end state, a timeout).
/// `ticket`, when given, receives what submit() returned first (a "wait-N" ticket or a job id).
inline Result<QString> runAutoscaled(Autoscaler& scaler, JobController& jobs,
                                     const v1::JobSpec& spec, int rentMs, int runMs = 120000,
                                     QString* ticket = nullptr) {
    QSignalSpy submitted(&scaler, &Autoscaler::jobSubmitted);
    QSignalSpy failed(&scaler, &Autoscaler::ticketFailed);
    Result<QString> first = scaler.submit(spec);
    if (!first) {
        return first;
    }
    if (ticket != nullptr) {
        *ticket = *first;
    }
    QString job = *first;
    if (first->startsWith(QLatin1String("wait-"))) {
        if (!QTest::qWaitFor([&] { return !submitted.isEmpty() || !failed.isEmpty(); }, rentMs)) {
            return fail(ErrorCode::Unavailable, "the rents were not ready in time");
        }
        if (!failed.isEmpty()) {
            return fail(ErrorCode::Unavailable, failed.first().at(1).toString().toStdString());
        }
        job = submitted.first().at(1).toString();
    }
    const auto ended = [&] {
        return jobs.state(job) == JobState::Succeeded || jobs.state(job) == JobState::Failed ||
               jobs.state(job) == JobState::Cancelled;
    };
    if (!QTest::qWaitFor(ended, runMs)) {
        return fail(ErrorCode::Unavailable, "job " + job.toStdString() + " did not end in time");
    }
    if (jobs.state(job) != JobState::Succeeded) {
        return fail(ErrorCode::Internal, "job " + job.toStdString() + " ended " +
                                             jobStateName(jobs.state(job)).toStdString());
    }
    return job;
}

/// The texts of `scaler`'s decisions, oldest first.
inline QStringList decisionTexts(const Autoscaler& scaler) {
    QStringList out;
    for (const AutoscaleDecision& d : scaler.decisions()) {
        out << d.text;
    }
    return out;
}

} // namespace tessera::test
