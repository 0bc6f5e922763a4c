// Autoscaler: shortfall → cheapest offers within budget → submit when ready → release idle
// (see autoscaler.h).
#include "backend/autoscale/autoscaler.h"

#include "backend/cluster/clusterregistry.h"
#include "backend/jobs/jobcontroller.h"
#include "backend/provision/offer.h"
#include "backend/provision/provider.h"
#include "worker/common/spec_io.h"

#include <QHostAddress>
#include <QLoggingCategory>

#include <algorithm>
#include <utility>

namespace tessera {

Q_LOGGING_CATEGORY(lcScale, "tessera.autoscaler")

namespace {

QString money(double dollars) {
    return QStringLiteral("$%1").arg(dollars, 0, 'f', 2);
}

QString jobName(const v1::JobSpec& spec) {
    return spec.name().empty() ? QStringLiteral("unnamed job")
                               : QStringLiteral("'%1'").arg(QString::fromStdString(spec.name()));
}

} // namespace

Autoscaler::Autoscaler(ClusterRegistry* registry, JobController* jobs,
                       const QList<Provider*>& providers, QObject* parent)
    : QObject(parent), m_registry(registry), m_jobs(jobs), m_providers(providers) {
    qRegisterMetaType<tessera::AutoscaleDecision>();
    qRegisterMetaType<tessera::BudgetVerdict::Level>();
    for (Provider* p : providers) {
        connect(p, &Provider::leaseChanged, this, &Autoscaler::onLeaseChanged);
        for (const Lease& l : p->leases()) {
            adopt(l);
        }
    }
    m_check.setInterval(1000);
    connect(&m_check, &QTimer::timeout, this, &Autoscaler::check);
    m_check.start();
    jobs->setReplacementRenter([this](const QString& jobId, const v1::JobSpec& spec, int ranks) {
        return rentReplacement(jobId, spec, ranks);
    });
}

Autoscaler::~Autoscaler() {
    m_jobs->setReplacementRenter({});
}

void Autoscaler::setPolicy(const AutoscalePolicy& policy) {
    m_policy = policy;
    check();
}

void Autoscaler::adopt(const Lease& lease) {
    if (!lease.live() || lease.owner != QLatin1String(kAutoscalerOwner) ||
        m_held.contains(lease.id)) {
        return;
    }
    m_held.insert(lease.id);
    say(tr("adopted %1 (%2, %3): rented by the autoscaler before this start; released when idle "
           "past the idle timeout")
            .arg(lease.id, lease.provider,
                 lease.nodes.isEmpty() ? leaseStateName(lease.state)
                                       : lease.nodes.join(QStringLiteral(", "))));
}

QStringList Autoscaler::heldLeases() const {
    QStringList out(m_held.cbegin(), m_held.cend());
    out.sort();
    return out;
}

void Autoscaler::say(const QString& text) {
    const AutoscaleDecision d{QDateTime::currentDateTimeUtc(), text};
    qCInfo(lcScale).noquote() << text;
    m_log.append(d);
    Q_EMIT decided(d);
}

Provider* Autoscaler::providerOf(const QString& id) const {
    for (Provider* p : m_providers) {
        if (p->id() == id) {
            return p;
        }
    }
    return nullptr;
}

QStringList Autoscaler::idleReadyNodes(const DeviceNeed& need) const {
    QStringList unavailable = m_jobs->busyWorkers();
    for (const Ticket& t : m_waiting) {
        unavailable += t.nodes;
    }
    QStringList idle;
    for (const WorkerNode& n : m_registry->readyNodes()) {
        if (!unavailable.contains(n.name) && fittingSlots(n, need) > 0) {
            idle << n.name;
        }
    }
    return idle;
}

int Autoscaler::slotsOf(const QStringList& nodes, const DeviceNeed& need) const {
    int slots = 0;
    for (const QString& name : nodes) {
        if (const auto n = m_registry->node(name)) {
            slots += fittingSlots(*n, need);
        }
    }
    return slots;
}

Autoscaler::Reach Autoscaler::reachOf(const QStringList& workers) const {
    int here = 0, there = 0;
    for (const WorkerNode& n : m_registry->nodes()) {
        if (workers.contains(n.name)) {
            const QString host = n.address.section(QLatin1Char(':'), 0, -2)
                                     .remove(QLatin1Char('['))
                                     .remove(QLatin1Char(']'));
            const bool loopback =
                host == QLatin1String("localhost") || QHostAddress(host).isLoopback();
            ++(loopback ? here : there);
        }
    }
    return there > 0 ? Reach::OtherMachines : here > 0 ? Reach::ThisMachine : Reach::Any;
}

Result<Autoscaler::Pick> Autoscaler::pickOffers(int shortfall, const DeviceNeed& need,
                                                const QString& job, Reach reach) const {
    QList<Offer> offers;
    QStringList unfit;
    for (Provider* p : m_providers) {
        for (const Offer& o : p->offers()) {
            if (const QString why = whyNotFitting(o, need); !why.isEmpty()) {
                unfit << why;
                continue;
            }
            const bool local = o.provider == QLatin1String("local");
            if (reach == Reach::OtherMachines && local) {
                unfit << QStringLiteral("%1: a worker on this machine (loopback), and the job's "
                                        "other workers are on other machines")
                             .arg(o.id);
                continue;
            }
            if (reach == Reach::ThisMachine && !local) {
                unfit << QStringLiteral("%1: on another machine, and the job's other workers "
                                        "are on this one (loopback)")
                             .arg(o.id);
                continue;
            }
            if (o.available <= 0) {
                // Fits, but nothing of it can start now (a cloud type without capacity in any
                // region, a host already rented): the refusal names it.
                unfit << QStringLiteral("%1: none to rent now (%2)").arg(o.id, o.where);
            }
            for (int i = 0; i < o.available; ++i) {
                offers << o;
            }
        }
    }
    // Greedy cover: each next rent is the one that costs least per slot still missing (a node's
    // slots beyond the shortfall are worth nothing to this job), so one missing rank rents the
    // cheapest single node, not the cheapest-per-GPU 8-GPU node; of equal cost, the smaller node.
    Pick pick;
    while (pick.slots < shortfall && !offers.isEmpty()) {
        const int missing = shortfall - pick.slots;
        auto cost = [&](const Offer& o) {
            const int nodes = std::max(1, o.nodesPerRent);
            return o.pricePerHour * nodes / std::min(fittingSlots(o, need) * nodes, missing);
        };
        qsizetype best = 0;
        for (qsizetype i = 1; i < offers.size(); ++i) {
            const double ci = cost(offers[i]), cb = cost(offers[best]);
            if (ci < cb ||
                (ci == cb && fittingSlots(offers[i], need) < fittingSlots(offers[best], need))) {
                best = i;
            }
        }
        const Offer o = offers.takeAt(best);
        const int nodes = std::max(1, o.nodesPerRent);
        pick.offers << o;
        pick.slots += fittingSlots(o, need) * nodes;
        pick.perHour += o.pricePerHour * nodes;
        pick.nodes += nodes;
    }
    if (pick.slots < shortfall) {
        QString text = QStringLiteral("cannot run %1: it needs %2 more %3 and the offers that fit "
                                      "have %4: add SSH hosts, partitions or a cloud API key, "
                                      "or shrink the layout")
                           .arg(job)
                           .arg(shortfall)
                           .arg(need.describe())
                           .arg(pick.slots);
        if (!unfit.isEmpty()) {
            text += QStringLiteral(" (not fitting or not available: %1)")
                        .arg(unfit.join(QStringLiteral("; ")));
        }
        return fail(ErrorCode::Unavailable, text.toStdString());
    }
    if (Result<void> ok = withinPolicy(pick, job); !ok) {
        return relay(ok);
    }
    return pick;
}

Result<void> Autoscaler::withinPolicy(const Pick& pick, const QString& job) const {
    QList<Lease> leases;
    int heldNodes = 0;
    for (Provider* p : m_providers) {
        for (const Lease& l : p->leases()) {
            leases << l;
            if (m_held.contains(l.id)) {
                heldNodes += int(std::max<qsizetype>(1, l.nodes.size()));
            }
        }
    }
    auto refuse = [&](const QString& why) {
        return fail(ErrorCode::Unavailable,
                    QStringLiteral("cannot run %1: %2").arg(job, why).toStdString());
    };
    const int nodes = pick.nodes;
    if (heldNodes + nodes > m_policy.maxNodes) {
        return refuse(QStringLiteral("it needs %1 more node(s), the autoscaler holds %2 and the "
                                     "cap is %3: %4 node(s) missing")
                          .arg(nodes)
                          .arg(heldNodes)
                          .arg(m_policy.maxNodes)
                          .arg(heldNodes + nodes - m_policy.maxNodes));
    }
    const double running = burnRate(leases);
    if (m_policy.maxPerHour > 0 && running + pick.perHour > m_policy.maxPerHour + 1e-9) {
        return refuse(QStringLiteral("the %1 node(s) it needs cost %2/h, %3/h already bills and "
                                     "the budget is %4/h: %5/h missing")
                          .arg(nodes)
                          .arg(money(pick.perHour), money(running), money(m_policy.maxPerHour),
                               money(running + pick.perHour - m_policy.maxPerHour)));
    }
    // The total budget must still cover the first hour of the new nodes.
    const double spent = totalCost(leases, QDateTime::currentDateTimeUtc());
    if (m_policy.maxTotal > 0 && spent + pick.perHour > m_policy.maxTotal + 1e-9) {
        return refuse(
            QStringLiteral("the total budget is %1, %2 is spent and the first hour of "
                           "the %3 node(s) it needs costs %4: %5 missing")
                .arg(money(m_policy.maxTotal), money(spent))
                .arg(nodes)
                .arg(money(pick.perHour), money(spent + pick.perHour - m_policy.maxTotal)));
    }
    return {};
}

Result<QString> Autoscaler::submit(v1::JobSpec spec) {
    if (Result<void> ok = validateJobSpec(spec); !ok) {
        return relay(ok);
    }
    const int world = worldSize(spec.layout());
    const QString name = jobName(spec);
    const DeviceNeed need = deviceNeedOf(spec);
    QStringList idle = idleReadyNodes(need);
    if (slotsOf(idle, need) >= world) {
        QStringList use;
        for (const QString& n : idle) {
            if (slotsOf(use, need) < world) {
                use << n;
            }
        }
        Result<QString> id = m_jobs->submit(spec, use);
        if (id && m_policy.enabled) {
            say(tr("%1 needs %2 rank(s) on %3: submitted as %4 on idle ready node(s) %5")
                    .arg(name)
                    .arg(world)
                    .arg(need.describe(), *id, use.join(QStringLiteral(", "))));
        }
        return id;
    }
    if (!m_policy.enabled) {
        return m_jobs->submit(spec);
    }
    const int shortfall = world - slotsOf(idle, need);
    Result<Pick> pick = pickOffers(shortfall, need, name);
    if (!pick) {
        say(tr("refused: %1").arg(QString::fromStdString(pick.error().message)));
        return relay(pick);
    }
    Ticket t;
    t.id = QStringLiteral("wait-%1").arg(m_nextTicket++);
    t.spec = spec;
    t.nodes = idle;
    return rentFor(t, *pick, world, shortfall, need);
}

QStringList Autoscaler::rentPicked(const Pick& pick, const QString& name, QStringList* leases,
                                   int* nodes) {
    QStringList names;
    for (const Offer& o : pick.offers) {
        Provider* p = providerOf(o.provider);
        m_inRent = true; // its first leaseChanged is no lease to adopt
        Result<QString> lease = p ? p->rentAs(o.id, QLatin1String(kAutoscalerOwner))
                                  : fail(ErrorCode::NotFound, "no provider");
        m_inRent = false;
        if (!lease) {
            say(tr("renting %1 for %2 failed: %3")
                    .arg(o.name, name, QString::fromStdString(lease.error().message)));
            continue; // what was rented stays held and is released when idle
        }
        m_held.insert(*lease);
        *leases << *lease;
        *nodes += std::max(1, o.nodesPerRent);
        names << (o.nodesPerRent > 1 ? QStringLiteral("%1 × %2 (%3, %4/h each)")
                                           .arg(o.nodesPerRent)
                                           .arg(o.name, o.provider, money(o.pricePerHour))
                                     : QStringLiteral("%1 (%2, %3/h)")
                                           .arg(o.name, o.provider, money(o.pricePerHour)));
    }
    return names;
}

Result<void> Autoscaler::rentReplacement(const QString& jobId, const v1::JobSpec& spec, int ranks) {
    if (!m_policy.enabled) {
        return fail(ErrorCode::Unavailable,
                    tr("auto-provision is off (Cluster → Auto-provision… rents replacements)")
                        .toStdString());
    }
    const QString name = QStringLiteral("%1 (%2)").arg(jobName(spec), jobId);
    const DeviceNeed need = deviceNeedOf(spec);
    QStringList placed;
    for (const auto& slot : spec.placement().slots()) {
        placed << QString::fromStdString(slot.worker());
    }
    Result<Pick> pick = pickOffers(ranks, need, name, reachOf(placed));
    if (!pick) {
        say(tr("refused: %1").arg(QString::fromStdString(pick.error().message)));
        return relay(pick);
    }
    QStringList leases;
    int nodes = 0;
    const QStringList names = rentPicked(*pick, name, &leases, &nodes);
    if (leases.isEmpty()) {
        return fail(ErrorCode::Unavailable,
                    QStringLiteral("no rent could start for %1").arg(name).toStdString());
    }
    say(tr("%1 lost a worker: renting %2 node(s) for its %3 rank(s) on %4: %5")
            .arg(name, QString::number(nodes), QString::number(ranks), need.describe(),
                 names.join(QStringLiteral(", "))));
    return {};
}

Result<QString> Autoscaler::rentFor(Ticket t, const Pick& pick, int world, int shortfall,
                                    const DeviceNeed& need) {
    const QString name = jobName(t.spec);
    int rentedNodes = 0;
    const QStringList names = rentPicked(pick, name, &t.leases, &rentedNodes);
    if (t.leases.isEmpty()) {
        return fail(ErrorCode::Unavailable,
                    QStringLiteral("cannot run %1: no rent could start").arg(name).toStdString());
    }
    const QString memoryNote = need.memoryNote.isEmpty()
                                   ? QString()
                                   : tr(" (memory not checked: %1)").arg(need.memoryNote);
    say(tr("%1 needs %2 rank(s) on %3%4, idle ready nodes have %5 such slot(s): renting %6 "
           "node(s) for the missing %7: %8")
            .arg(name)
            .arg(world)
            .arg(need.describe(), memoryNote)
            .arg(world - shortfall)
            .arg(rentedNodes)
            .arg(shortfall)
            .arg(names.join(QStringLiteral(", "))));
    const QString ticket = t.id;
    m_waiting.append(t);
    return ticket;
}

void Autoscaler::onLeaseChanged(const Lease& lease) {
    if (!lease.live()) {
        m_held.remove(lease.id);
        m_idleSince.remove(lease.id);
        m_releasing.remove(lease.id);
    } else if (!m_inRent) {
        adopt(lease); // one a provider restored after this was built (a cloud's, once keyed)
    }
    for (qsizetype i = 0; i < m_waiting.size(); ++i) {
        Ticket& t = m_waiting[i];
        if (!t.leases.contains(lease.id)) {
            continue;
        }
        if (lease.state == LeaseState::Ready) {
            t.leases.removeAll(lease.id);
            t.nodes += lease.nodes;
            say(tr("%1 is ready: %2 (%3 more to wait for)")
                    .arg(lease.id, lease.nodes.join(QStringLiteral(", ")))
                    .arg(t.leases.size()));
            if (t.leases.isEmpty()) {
                submitTicket(m_waiting.takeAt(i));
            }
        } else if (lease.state == LeaseState::Failed) {
            const Ticket dead = m_waiting.takeAt(i);
            const QString why =
                tr("%1 for %2 failed: %3").arg(lease.id, jobName(dead.spec), lease.reason);
            say(why);
            Q_EMIT ticketFailed(dead.id, why);
        }
        return;
    }
}

void Autoscaler::submitTicket(Ticket t) {
    Result<QString> id = m_jobs->submit(t.spec, t.nodes);
    if (!id) {
        const QString why = QString::fromStdString(id.error().message);
        say(tr("%1 could not be submitted: %2").arg(jobName(t.spec), why));
        Q_EMIT ticketFailed(t.id, why);
        return;
    }
    say(tr("every node is ready: %1 submitted as %2 on %3")
            .arg(jobName(t.spec), *id, t.nodes.join(QStringLiteral(", "))));
    Q_EMIT jobSubmitted(t.id, *id);
}

QStringList Autoscaler::busyNodes() const {
    QStringList inUse = m_jobs->busyWorkers();
    for (const Ticket& t : m_waiting) {
        inUse += t.nodes;
    }
    return inUse;
}

void Autoscaler::check() {
    watchBudget();
    releaseIdle();
}

void Autoscaler::releaseNow(const QString& leaseId, const QString& why) {
    m_held.remove(leaseId);
    m_idleSince.remove(leaseId);
    m_releasing.insert(leaseId);
    for (Provider* p : m_providers) {
        if (p->lease(leaseId).id.isEmpty()) {
            continue;
        }
        say(tr("releasing %1 (%2): %3")
                .arg(leaseId, p->lease(leaseId).nodes.join(QStringLiteral(", ")), why));
        if (Result<void> r = p->release(leaseId); !r) {
            say(tr("release of %1 failed: %2")
                    .arg(leaseId, QString::fromStdString(r.error().message)));
        }
        return;
    }
}

void Autoscaler::watchBudget() {
    QList<Lease> leases;
    for (Provider* p : m_providers) {
        leases += p->leases();
    }
    const BudgetLimits limits{m_policy.maxPerHour, m_policy.maxTotal, QString()};
    const BudgetVerdict v =
        m_budget.check(limits, leases, busyNodes(), QDateTime::currentDateTimeUtc());
    m_budgetLevel = v.level;
    if (!v.alert.isEmpty()) {
        m_budgetAlertText = v.alert;
        say(tr("budget: %1").arg(v.alert));
        Q_EMIT budgetAlert(v.level, v.alert);
    }
    if (v.level != BudgetVerdict::Level::Reached) {
        return;
    }
    // No more rents: jobs still waiting for theirs give them back (their ready nodes go idle).
    const QList<Ticket> waiting = std::exchange(m_waiting, {});
    for (const Ticket& t : waiting) {
        const QString why = tr("%1 stopped waiting: the budget is reached").arg(jobName(t.spec));
        say(why);
        for (const QString& id : t.leases) {
            releaseNow(id, tr("its job stopped waiting (budget reached)"));
        }
        Q_EMIT ticketFailed(t.id, why);
    }
    for (const QString& id : v.release) {
        if (!m_releasing.contains(id)) {
            releaseNow(id, tr("idle while the budget is reached"));
        }
    }
}

void Autoscaler::releaseIdle() {
    const QStringList inUse = busyNodes();
    const QDateTime now = QDateTime::currentDateTimeUtc();
    for (const QString& id : heldLeases()) {
        for (Provider* p : m_providers) {
            const Lease l = p->lease(id);
            if (l.id.isEmpty() || l.state != LeaseState::Ready) {
                continue;
            }
            const bool busy = std::any_of(l.nodes.cbegin(), l.nodes.cend(),
                                          [&](const QString& n) { return inUse.contains(n); });
            if (busy) {
                m_idleSince.remove(id);
                continue;
            }
            const QDateTime since = m_idleSince.value(id, now);
            m_idleSince.insert(id, since);
            const qint64 idleSec = since.secsTo(now);
            if (idleSec < m_policy.idleTimeoutSec) {
                continue;
            }
            releaseNow(id,
                       tr("idle for %1 s, timeout %2 s").arg(idleSec).arg(m_policy.idleTimeoutSec));
        }
    }
}

} // namespace tessera
