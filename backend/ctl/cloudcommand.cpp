// tessera-ctl offers / rent / leases / release / cost / cloud-key (see cloudcommand.h).
#include "backend/ctl/cloudcommand.h"

#include "backend/history/metricstore.h"
#include "backend/provision/cloud/cloudapi.h"
#include "backend/provision/cloud/cloudkeyring.h"
#include "backend/provision/cloud/cloudprovider.h"
#include "backend/provision/cloud/cloudsettings.h"
#include "backend/provision/rentbudget.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>
#include <QTimer>

#include <cstdio>

namespace tessera::ctl {

namespace {

QJsonObject leaseJson(const Lease& l, const QDateTime& now) {
    const CloudLeaseDetail d = CloudLeaseDetail::fromJson(l.detail);
    QJsonObject o{{QStringLiteral("id"), l.id},
                  {QStringLiteral("provider"), l.provider},
                  {QStringLiteral("offer"), l.offerId},
                  {QStringLiteral("state"), leaseStateName(l.state)},
                  {QStringLiteral("reason"), l.reason},
                  {QStringLiteral("nodes"), QJsonArray::fromStringList(l.nodes)},
                  {QStringLiteral("pricePerHour"), l.pricePerHour},
                  {QStringLiteral("cost"), l.cost(now)},
                  {QStringLiteral("created"), l.created.toString(Qt::ISODate)}};
    if (l.ready.isValid()) {
        o.insert(QStringLiteral("ready"), l.ready.toString(Qt::ISODate));
    }
    if (l.ended.isValid()) {
        o.insert(QStringLiteral("ended"), l.ended.toString(Qt::ISODate));
    }
    if (!d.instanceId.isEmpty()) {
        o.insert(QStringLiteral("instance"), d.instanceId);
        o.insert(QStringLiteral("region"), d.region);
        o.insert(QStringLiteral("ip"), d.ip);
    }
    return o;
}

QString leaseLine(const Lease& l, const QDateTime& now) {
    const CloudLeaseDetail d = CloudLeaseDetail::fromJson(l.detail);
    return QStringLiteral("%1  %2  %3  %4  $%5/h  $%6  %7%8")
        .arg(l.id, -26)
        .arg(l.provider, -7)
        .arg(l.offerId, -20)
        .arg(leaseStateName(l.state), -11)
        .arg(l.pricePerHour, 0, 'f', 2)
        .arg(l.cost(now), 0, 'f', 4)
        .arg(d.instanceId.isEmpty() ? l.nodes.join(QLatin1Char(',')) : d.instanceId,
             l.reason.isEmpty() ? QString() : QStringLiteral("  (") + l.reason + QLatin1Char(')'));
}

QJsonObject instanceJson(const CloudInstance& i) {
    return {{QStringLiteral("instance"), i.id},
            {QStringLiteral("status"), i.statusText},
            {QStringLiteral("type"), i.typeName},
            {QStringLiteral("region"), i.region},
            {QStringLiteral("ip"), i.ip},
            {QStringLiteral("pricePerHour"), i.pricePerHour},
            {QStringLiteral("lease"), instanceOwner(i).lease}};
}

/// The exit code for a cloud's failure: the key or the request is wrong (2), the cloud does not
/// answer as it should (3).
int exitFor(CloudErrorKind kind) {
    switch (kind) {
    case CloudErrorKind::Transient:
    case CloudErrorKind::RateLimited:
    case CloudErrorKind::BadReply:
        return kExitUnreachable;
    default:
        return kExitBadInput;
    }
}

} // namespace

CloudCommand::CloudCommand(const CtlOptions& options, QObject* parent)
    : QObject(parent), m_options(options) {
    m_registry.setProbeInterval(1000);
}

CloudCommand::~CloudCommand() = default;

void CloudCommand::print(const QString& text) {
    std::printf("%s\n", qPrintable(text));
    std::fflush(stdout);
}

void CloudCommand::done(int code, const QString& error) {
    if (m_finished) {
        return;
    }
    m_finished = true;
    if (!error.isEmpty()) {
        std::fprintf(stderr, "tessera-ctl: %s\n", qPrintable(error));
    }
    Q_EMIT finished(code);
}

bool CloudCommand::open() {
    if (Result<void> opened = m_store.open(MetricStore::defaultPath()); !opened) {
        done(kExitBadInput, QString::fromStdString(opened.error().message));
        return false;
    }
    QString problem;
    m_cloud = makeLambdaProvider(&m_registry, &m_store, &problem);
    if (!problem.isEmpty()) {
        done(kExitBadInput, problem);
        return false;
    }
    // The app's budget (Cluster → Auto-provision…) over every stored lease bounds this rent too.
    m_budget =
        std::make_unique<RentBudget>(RentBudget::fromSettings, [this] { return m_store.all(); });
    m_cloud->setBudget(m_budget.get());
    return true;
}

void CloudCommand::start() {
    const QString& c = m_options.command;
    if (c == QLatin1String("cloud-key")) {
        storeKey();
        return;
    }
    if (!open()) {
        return;
    }
    if (c == QLatin1String("cost")) {
        cost(); // the store alone
        return;
    }
    loadCloudApiKey(m_cloud.get(), [this](const QString& problem) {
        if (!problem.isEmpty()) {
            done(kExitBadInput, problem);
        } else {
            run();
        }
    });
}

void CloudCommand::run() {
    const QString& c = m_options.command;
    if (c == QLatin1String("offers")) {
        offers();
    } else if (c == QLatin1String("rent")) {
        rent();
    } else if (c == QLatin1String("leases")) {
        leases();
    } else {
        release();
    }
}

void CloudCommand::storeKey() {
    // One line: more is refused rather than cut (a pasted key with a stray line, a wrong file).
    QFile in;
    (void)in.open(stdin, QIODevice::ReadOnly);
    const QByteArray bytes = in.read(64 * 1024);
    QStringList lines = QString::fromUtf8(bytes).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    for (QString& l : lines) {
        l = l.trimmed();
    }
    lines.removeAll(QString());
    if (lines.size() > 1) {
        done(kExitBadInput, QStringLiteral("cloud-key reads one line (the key), not %1: pipe in a "
                                           "file that holds only the key")
                                .arg(lines.size()));
        return;
    }
    const QString key = lines.value(0);
    storeCloudApiKey(this, m_options.provider, key, [this](const Result<KeyPlace>& stored) {
        if (!stored) {
            done(kExitBadInput,
                 QString::fromStdString(stored.error().message) +
                     QStringLiteral(" (pipe the key in: tessera-ctl cloud-key < FILE)"));
            return;
        }
        print(QStringLiteral("stored the %1 API key in %2")
                  .arg(m_options.provider, keyPlaceText(*stored, m_options.provider)));
        done(kExitOk);
    });
}

void CloudCommand::interrupt() {
    if (++m_interrupts > 1 || m_renting.isEmpty() || !m_cloud ||
        !m_cloud->lease(m_renting).live()) {
        if (!m_renting.isEmpty() && m_cloud && m_cloud->lease(m_renting).live()) {
            std::fprintf(stderr,
                         "tessera-ctl: stopped; lease %s may still hold an instance: "
                         "tessera-ctl leases, then release\n",
                         qPrintable(m_renting));
        }
        done(kExitJobFailed, QStringLiteral("interrupted"));
        return;
    }
    std::fprintf(stderr,
                 "\ntessera-ctl: interrupted; releasing lease %s (its instance is "
                 "terminated; interrupt again to leave at once)\n",
                 qPrintable(m_renting));
    (void)m_cloud->release(m_renting); // leaseChanged ends the command once it is released
}

void CloudCommand::offers() {
    connect(m_cloud.get(), &Provider::offersChanged, this, [this] {
        if (!m_cloud->offersError().isEmpty()) {
            done(exitFor(m_cloud->offersErrorKind()), m_cloud->offersError());
            return;
        }
        QJsonArray list;
        if (!m_options.json) {
            print(QStringLiteral("%1 %2 %3 %4 %5 %6  %7")
                      .arg(QStringLiteral("TYPE"), -24)
                      .arg(QStringLiteral("GPUS"), 4)
                      .arg(QStringLiteral("GPU MEM"), 8)
                      .arg(QStringLiteral("VCPUS"), 5)
                      .arg(QStringLiteral("RAM GiB"), 7)
                      .arg(QStringLiteral("$/HOUR"), 7)
                      .arg(QStringLiteral("REGIONS WITH CAPACITY")));
        }
        for (const CloudInstanceType& t : m_cloud->instanceTypes()) {
            list.append(
                QJsonObject{{QStringLiteral("type"), t.name},
                            {QStringLiteral("description"), t.description},
                            {QStringLiteral("gpus"), t.gpus},
                            {QStringLiteral("gpuMemoryBytes"), t.gpuMemoryBytes},
                            {QStringLiteral("vcpus"), t.vcpus},
                            {QStringLiteral("memoryGiB"), t.memoryGiB},
                            {QStringLiteral("pricePerHour"), t.pricePerHour},
                            {QStringLiteral("regions"), QJsonArray::fromStringList(t.regions)}});
            if (!m_options.json) {
                print(QStringLiteral("%1 %2 %3 %4 %5 %6  %7")
                          .arg(t.name, -24)
                          .arg(t.gpus, 4)
                          .arg(QStringLiteral("%1 GB").arg(t.gpuMemoryBytes / 1e9, 0, 'f', 0), 8)
                          .arg(t.vcpus, 5)
                          .arg(t.memoryGiB, 7, 'f', 0)
                          .arg(t.pricePerHour, 7, 'f', 2)
                          .arg(t.regions.isEmpty() ? QStringLiteral("none now")
                                                   : t.regions.join(QStringLiteral(", "))));
            }
        }
        if (m_options.json) {
            print(QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("offers"), list}})
                                        .toJson(QJsonDocument::Indented)));
        }
        done(kExitOk);
    });
    m_cloud->refreshOffers();
}

void CloudCommand::rent() {
    connect(m_cloud.get(), &Provider::offersChanged, this, [this] {
        if (m_finished || m_rentAsked) {
            return; // offersChanged also follows the rent's own changes
        }
        m_rentAsked = true;
        if (!m_cloud->offersError().isEmpty()) {
            done(exitFor(m_cloud->offersErrorKind()), m_cloud->offersError());
            return;
        }
        const Result<QString> id = m_cloud->rent(m_options.offerId);
        if (!id) {
            done(id.error().code == ErrorCode::Io ? kExitUnreachable : kExitBadInput,
                 QString::fromStdString(id.error().message));
            return;
        }
        std::fprintf(stderr, "tessera-ctl: renting %s as lease %s\n", qPrintable(m_options.offerId),
                     qPrintable(*id));
        m_renting = *id;
    });
    connect(m_cloud.get(), &Provider::leaseChanged, this, [this](const Lease& l) {
        const QString said = leaseStateName(l.state) + l.reason;
        if (said == m_lastSaid) {
            return;
        }
        m_lastSaid = said;
        std::fprintf(stderr, "  %s: %s%s\n", qPrintable(l.id), qPrintable(leaseStateName(l.state)),
                     qPrintable(l.reason.isEmpty() ? QString() : QStringLiteral(" — ") + l.reason));
        if (l.state != LeaseState::Ready && l.live()) {
            return;
        }
        const QDateTime now = QDateTime::currentDateTimeUtc();
        print(m_options.json ? QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("lease"),
                                                                            leaseJson(l, now)}})
                                                     .toJson(QJsonDocument::Indented))
                             : leaseLine(l, now));
        done(l.state == LeaseState::Ready ? kExitOk : kExitJobFailed);
    });
    m_cloud->refreshOffers();
}

void CloudCommand::leases() {
    connect(m_cloud.get(), &CloudProvider::reconciled, this, [this](bool ok, const QString& why) {
        const QDateTime now = QDateTime::currentDateTimeUtc();
        QJsonArray list, lost;
        for (const Lease& l : m_store.live()) {
            const Lease current = l.provider == m_cloud->id() ? m_cloud->lease(l.id) : l;
            if (!current.live()) {
                continue; // ended by the reconciliation just now
            }
            list.append(leaseJson(current, now));
            if (!m_options.json) {
                print(leaseLine(current, now));
            }
        }
        for (const CloudInstance& i : m_cloud->strays()) {
            lost.append(instanceJson(i));
            if (!m_options.json) {
                print(QStringLiteral("lost instance %1 (%2, %3, %4): launched by this Tessera, "
                                     "held by no lease; tessera-ctl release %1")
                          .arg(i.id, i.typeName, i.region, i.statusText));
            }
        }
        if (m_options.json) {
            print(QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("leases"), list},
                                                              {QStringLiteral("lost"), lost},
                                                              {QStringLiteral("reconciled"), ok}})
                                        .toJson(QJsonDocument::Indented)));
        } else if (list.isEmpty() && lost.isEmpty()) {
            print(QStringLiteral("no live leases"));
        }
        if (!ok) {
            // Not "nothing bills": the cloud could not be asked (exit 3, a script must not
            // conclude that no instance runs).
            done(
                kExitUnreachable,
                QStringLiteral("%1 leases not checked with the cloud: %2").arg(m_cloud->id(), why));
            return;
        }
        done(kExitOk);
    });
    m_cloud->restore();
}

void CloudCommand::release() {
    connect(m_cloud.get(), &CloudProvider::reconciled, this, [this](bool ok, const QString& why) {
        QStringList ids;
        if (m_options.all) {
            for (const Lease& l : m_cloud->leases()) {
                if (l.live()) {
                    ids << l.id;
                }
            }
            for (const CloudInstance& i : m_cloud->strays()) {
                ids << i.id;
            }
        } else {
            ids << m_options.target;
        }
        if (!ok) {
            done(kExitUnreachable, QStringLiteral("cannot reach %1 to release: %2")
                                       .arg(m_cloud->api()->displayName(), why));
            return;
        }
        releaseNext(ids);
    });
    m_cloud->restore();
}

void CloudCommand::releaseNext(QStringList ids) {
    const QDateTime now = QDateTime::currentDateTimeUtc();
    if (ids.isEmpty()) {
        if (m_options.json) {
            QJsonArray out;
            for (const QString& id : m_released) {
                const Lease l = m_cloud->lease(id);
                out.append(l.id.isEmpty() ? QJsonObject{{QStringLiteral("instance"), id}}
                                          : leaseJson(l, now));
            }
            print(QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("released"), out}})
                                        .toJson(QJsonDocument::Indented)));
        } else if (m_released.isEmpty()) {
            print(QStringLiteral("nothing to release"));
        }
        done(kExitOk);
        return;
    }
    const QString id = ids.takeFirst();
    const Lease l = m_cloud->lease(id);
    if (!l.id.isEmpty()) {
        if (Result<void> r = m_cloud->release(id); !r) {
            done(kExitBadInput, QString::fromStdString(r.error().message));
            return;
        }
        auto* wait = new QTimer(this);
        connect(wait, &QTimer::timeout, this, [this, wait, id, ids] {
            const Lease now = m_cloud->lease(id);
            if (now.live()) {
                return;
            }
            wait->deleteLater();
            m_released << id;
            if (!m_options.json) {
                print(QStringLiteral("released %1").arg(leaseLine(now, now.ended)));
            }
            releaseNext(ids);
        });
        wait->start(200);
        return;
    }
    if (Result<void> r = m_cloud->releaseStray(id); !r) {
        const bool elsewhere = m_store.find(id).has_value();
        done(kExitBadInput,
             elsewhere ? QStringLiteral("lease %1 is not a live %2 lease: release SSH and Slurm "
                                        "leases in the app")
                             .arg(id, m_cloud->id())
                       : QString::fromStdString(r.error().message) +
                             QStringLiteral(" (tessera-ctl leases lists what can be released)"));
        return;
    }
    connect(m_cloud.get(), &CloudProvider::straysChanged, this, [this, id, ids] {
        for (const CloudInstance& i : m_cloud->strays()) {
            if (i.id == id) {
                return;
            }
        }
        disconnect(m_cloud.get(), &CloudProvider::straysChanged, this, nullptr);
        m_released << id;
        if (!m_options.json) {
            print(QStringLiteral("terminated lost instance %1").arg(id));
        }
        releaseNext(ids);
    });
}

void CloudCommand::cost() {
    const QDateTime now = QDateTime::currentDateTimeUtc();
    const QList<Lease> all = m_store.all();
    QJsonArray list;
    for (const Lease& l : all) {
        list.append(leaseJson(l, now));
        if (!m_options.json) {
            print(leaseLine(l, now));
        }
    }
    const double total = totalCost(all, now), perHour = burnRate(all);
    if (m_options.json) {
        print(QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("leases"), list},
                                                          {QStringLiteral("total"), total},
                                                          {QStringLiteral("perHour"), perHour}})
                                    .toJson(QJsonDocument::Indented)));
    } else {
        print(QStringLiteral("total $%1 so far; live leases bill $%2 per hour")
                  .arg(total, 0, 'f', 4)
                  .arg(perHour, 0, 'f', 2));
    }
    done(kExitOk);
}

} // namespace tessera::ctl
