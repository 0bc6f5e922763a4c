// One cloud rent as a chain of asynchronous API calls and the SSH bootstrap (see cloudrent.h).
#include "backend/provision/cloud/cloudrent.h"

#include "backend/core/logging.h"
#include "backend/provision/asyncprocess.h"
#include "backend/provision/cloud/cloudapi.h"
#include "backend/provision/cloud/cloudkeys.h"
#include "backend/provision/cloud/cloudpeerfirewall.h"
#include "backend/provision/ssh/sshconnection.h"

#include <QCoreApplication>
#include <QDir>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLoggingCategory>
#include <QRegularExpression>
#include <QTimer>

#include <algorithm>

namespace tessera {

QString CloudLeaseDetail::toJson() const {
    return QString::fromUtf8(QJsonDocument(QJsonObject{{QStringLiteral("instanceId"), instanceId},
                                                       {QStringLiteral("type"), typeName},
                                                       {QStringLiteral("region"), region},
                                                       {QStringLiteral("ip"), ip},
                                                       {QStringLiteral("keyFolder"), keyFolder},
                                                       {QStringLiteral("ssh"), ssh.toJson()},
                                                       {QStringLiteral("releasing"), releasing},
                                                       {QStringLiteral("ownerPid"), ownerPid}})
                                 .toJson(QJsonDocument::Compact));
}

CloudLeaseDetail CloudLeaseDetail::fromJson(const QString& json) {
    const QJsonObject o = QJsonDocument::fromJson(json.toUtf8()).object();
    CloudLeaseDetail d;
    d.instanceId = o.value(QStringLiteral("instanceId")).toString();
    d.typeName = o.value(QStringLiteral("type")).toString();
    d.region = o.value(QStringLiteral("region")).toString();
    d.ip = o.value(QStringLiteral("ip")).toString();
    d.keyFolder = o.value(QStringLiteral("keyFolder")).toString();
    d.ssh = SshWorkerDetail::fromJson(o.value(QStringLiteral("ssh")).toString());
    d.releasing = o.value(QStringLiteral("releasing")).toBool();
    d.ownerPid = o.value(QStringLiteral("ownerPid")).toInteger();
    return d;
}

CloudRent::CloudRent(CloudApi* api, ClusterRegistry* registry, BundleHashCache* bundleHashes,
                     const QString& leaseId, const QString& nodeName, const CloudInstanceType& type,
                     const QStringList& regions, QObject* parent)
    : LeaseRent(parent), m_api(api), m_registry(registry), m_bundleHashes(bundleHashes),
      m_leaseId(leaseId), m_nodeName(nodeName), m_type(type), m_regions(regions) {
    m_detail.typeName = type.name;
    m_detail.ownerPid = QCoreApplication::applicationPid();
    m_detail.keyFolder = QDir(cloudDir()).filePath(QStringLiteral("leases/") + leaseId);
}

void CloudRent::start() {
    prepareKeys();
}

void CloudRent::prepareKeys() {
    Q_EMIT step(LeaseState::Requested, QStringLiteral("making the instance's SSH keys"));
    ensureCloudClientKey(this, [this](const Result<QString>& publicKey) {
        if (m_done) {
            return;
        }
        if (!publicKey) {
            fail(QString::fromStdString(publicKey.error().message));
            return;
        }
        makeHostKey(this, m_detail.keyFolder, QStringLiteral("tessera-") + m_leaseId,
                    [this, pub = *publicKey](const Result<HostKey>& hostKey) {
                        if (m_done) {
                            return;
                        }
                        if (!hostKey) {
                            fail(QString::fromStdString(hostKey.error().message));
                            return;
                        }
                        m_hostKey = hostKey->publicKey;
                        registerKey(pub, hostKeyUserData(*hostKey));
                    });
    });
}

void CloudRent::registerKey(const QString& publicKey, const QString& userData) {
    Q_EMIT step(LeaseState::Requested,
                QStringLiteral("registering Tessera's SSH key with %1").arg(m_api->displayName()));
    m_api->ensureSshKey(this, QStringLiteral("tessera-") + installationId(), publicKey,
                        [this, userData](CloudResult<QString> name) {
                            if (m_done) {
                                return;
                            }
                            if (!name) {
                                fail(name.error().message);
                                return;
                            }
                            launchIn(0, *name, userData);
                        });
}

void CloudRent::launchIn(int regionIndex, const QString& keyName, const QString& userData) {
    if (regionIndex >= m_regions.size()) {
        fail(QStringLiteral(
                 "no region has capacity for %1 now (tried %2): choose another instance type, "
                 "or try later")
                 .arg(m_type.name, m_regions.isEmpty() ? QStringLiteral("none listed")
                                                       : m_regions.join(QStringLiteral(", "))));
        return;
    }
    m_detail.region = m_regions.at(regionIndex);
    if (!m_firewall || !m_api->hasFirewallRulesets()) {
        launchWith(regionIndex, keyName, userData, {});
        return;
    }
    Q_EMIT step(LeaseState::Requested,
                QStringLiteral("finding Tessera's firewall ruleset in %1").arg(m_detail.region));
    m_firewall->rulesetFor(
        this, m_detail.region, [this, regionIndex, keyName, userData](CloudResult<QString> id) {
            if (m_done) {
                return;
            }
            if (!id) {
                qCWarning(lcLease).noquote()
                    << QStringLiteral("launching without Tessera's firewall "
                                      "ruleset (%1): ranks on other instances "
                                      "may not reach this one")
                           .arg(id.error().message);
            }
            launchWith(regionIndex, keyName, userData, id ? QStringList{*id} : QStringList{});
        });
}

void CloudRent::launchWith(int regionIndex, const QString& keyName, const QString& userData,
                           const QStringList& rulesets) {
    Q_EMIT step(LeaseState::Requested,
                QStringLiteral("launching %1 in %2").arg(m_type.name, m_detail.region));
    CloudLaunch l;
    l.typeName = m_type.name;
    l.region = m_detail.region;
    l.name = cloudInstanceName(installationId(), m_leaseId);
    l.sshKeyName = keyName;
    l.userData = userData;
    l.tags = {{QString::fromLatin1(kLeaseTag), m_leaseId},
              {QString::fromLatin1(kOwnerTag), installationId()}};
    l.firewallRulesets = rulesets;
    m_launching = true;
    m_api->launch(
        this, l, [this, regionIndex, keyName, userData, rulesets](CloudResult<QString> id) {
            m_launching = false;
            if (!m_abortedWith.isEmpty()) { // released while launching: what it started goes too
                if (id) {
                    m_detail.instanceId = *id;
                    Q_EMIT detailChanged(m_detail.toJson());
                    terminateThenFail(m_abortedWith);
                } else {
                    findLostLaunch(CloudError{CloudErrorKind::Other, m_abortedWith});
                }
                return;
            }
            if (m_done) {
                return;
            }
            if (id) {
                onLaunched(*id);
            } else if (id.error().kind == CloudErrorKind::NotFound && !rulesets.isEmpty() &&
                       !m_rulesetRetried) {
                // The ruleset Tessera knew was deleted (the console): look for it, or make it,
                // again.
                m_rulesetRetried = true;
                m_firewall->forget(m_detail.region);
                launchIn(regionIndex, keyName, userData);
            } else if (id.error().kind == CloudErrorKind::Capacity) {
                qCInfo(lcLease).noquote() << id.error().message << "; trying the next region";
                launchIn(regionIndex + 1, keyName, userData);
            } else if (id.error().kind == CloudErrorKind::Transient ||
                       id.error().kind == CloudErrorKind::BadReply) {
                findLostLaunch(id.error());
            } else {
                fail(id.error().message);
            }
        });
}

void CloudRent::findLostLaunch(const CloudError& why) {
    // The launch may have happened although its reply was lost: its tag (or, where the listing
    // leaves tags out, its name) finds it.
    m_api->instances(this, [this, why](CloudResult<QList<CloudInstance>> list) {
        if (m_done) {
            return;
        }
        if (list) {
            for (const CloudInstance& i : *list) {
                if (instanceOwner(i).lease == m_leaseId) {
                    if (!m_abortedWith.isEmpty()) {
                        m_detail.instanceId = i.id;
                        Q_EMIT detailChanged(m_detail.toJson());
                        terminateThenFail(m_abortedWith);
                    } else {
                        onLaunched(i.id);
                    }
                    return;
                }
            }
            fail(why.message + QStringLiteral("; no instance of this lease was started"));
            return;
        }
        fail(why.message +
             QStringLiteral("; Tessera could not check whether an instance was started (%1): "
                            "it will look again at its next start")
                 .arg(list.error().message));
    });
}

void CloudRent::onLaunched(const QString& instanceId) {
    m_detail.instanceId = instanceId;
    Q_EMIT detailChanged(m_detail.toJson());
    dropDuplicates(instanceId);
    m_clock.start();
    m_pollDelayMs = m_timing.pollFirstMs;
    Q_EMIT step(LeaseState::Booting,
                QStringLiteral("instance %1 is booting in %2").arg(instanceId, m_detail.region));
    QTimer::singleShot(m_pollDelayMs, this, &CloudRent::poll);
}

void CloudRent::dropDuplicates(const QString& kept) {
    m_api->instances(this, [this, kept](CloudResult<QList<CloudInstance>> list) {
        if (!list) {
            return; // the next start's reconciliation finds any such instance as lost
        }
        for (const CloudInstance& i : *list) {
            if (i.id != kept && instanceOwner(i).lease == m_leaseId &&
                i.status != CloudStatus::Terminated && i.status != CloudStatus::Terminating) {
                qCWarning(lcLease).noquote()
                    << "lease" << m_leaseId << "has a second instance" << i.id
                    << "(a launch request sent twice); terminating it";
                m_api->terminate(this, i.id, [id = i.id](CloudResult<void> r) {
                    if (!r) {
                        qCWarning(lcLease).noquote() << "cannot terminate duplicate instance" << id
                                                     << ":" << r.error().message;
                    }
                });
            }
        }
    });
}

void CloudRent::poll() {
    if (m_done) {
        return;
    }
    m_api->instance(this, m_detail.instanceId, [this](CloudResult<CloudInstance> i) {
        if (m_done) {
            return;
        }
        if (!i && i.error().kind != CloudErrorKind::Transient &&
            i.error().kind != CloudErrorKind::RateLimited) {
            terminateThenFail(
                i.error().kind == CloudErrorKind::NotFound
                    ? QStringLiteral("instance %1 vanished while booting").arg(m_detail.instanceId)
                    : i.error().message);
            return;
        }
        if (i && i->status == CloudStatus::Active && !i->ip.isEmpty()) {
            m_detail.ip = i->ip;
            m_activeAtMs = m_clock.elapsed();
            openToPeers();
            return;
        }
        if (i && i->status != CloudStatus::Booting && i->status != CloudStatus::Active) {
            terminateThenFail(QStringLiteral("instance %1 turned %2 while booting")
                                  .arg(m_detail.instanceId, i->statusText));
            return;
        }
        if (m_clock.elapsed() > m_timing.bootTimeoutMs) {
            terminateThenFail(QStringLiteral("instance %1 was not active after %2 min")
                                  .arg(m_detail.instanceId)
                                  .arg(m_timing.bootTimeoutMs / 60000.0, 0, 'f', 1));
            return;
        }
        Q_EMIT step(LeaseState::Booting, QStringLiteral("instance %1 is booting in %2 (%3 s)")
                                             .arg(m_detail.instanceId, m_detail.region)
                                             .arg(m_clock.elapsed() / 1000));
        m_pollDelayMs = std::min(m_timing.pollMaxMs, m_pollDelayMs * 2);
        QTimer::singleShot(m_pollDelayMs, this, &CloudRent::poll);
    });
}

void CloudRent::openToPeers() {
    if (!m_firewall || !m_api->hasFirewallRulesets()) {
        waitForSsh();
        return;
    }
    Q_EMIT step(LeaseState::Booting,
                QStringLiteral("opening the job ports between %1 and Tessera's other instances")
                    .arg(m_detail.ip));
    m_firewall->sync(this, [this](const QString&) {
        if (!m_done) {
            waitForSsh(); // a failure is logged; the next release, rent or health check retries
        }
    });
}

SshHost CloudRent::sshHost() const {
    SshHost h;
    h.name = m_nodeName;
    h.host = m_detail.ip;
    h.user = m_api->sshUser();
    h.identityFile = cloudClientKeyPath();
    h.knownHostsFile = QDir(m_detail.keyFolder).filePath(QStringLiteral("known_hosts"));
    h.pricePerHour = m_type.pricePerHour;
    h.slots = std::max(1, m_type.gpus);
    h.remoteDir = QStringLiteral(".cache/tessera");
    // The cloud's firewall lets in SSH only (Lambda's default): the backend reaches the worker
    // through SSH; the job's other instances reach it directly (CloudPeerFirewall).
    h.tunnel = true;
    return h;
}

void CloudRent::waitForSsh() {
    const SshHost host = sshHost();
    if (Result<void> w = writeKnownHosts(host.knownHostsFile, m_detail.ip, m_hostKey); !w) {
        terminateThenFail(QString::fromStdString(w.error().message));
        return;
    }
    Q_EMIT step(LeaseState::Booting, QStringLiteral("waiting for SSH on %1").arg(m_detail.ip));
    runAsync(this, QStringLiteral("ssh"), sshArguments(host, QStringLiteral("true")), {}, 20000,
             [this, host](const ProcessResult& r) {
                 if (m_done) {
                     return;
                 }
                 if (r.ok()) {
                     closeSshMaster(host);
                     bootstrap();
                     return;
                 }
                 dropSshMaster(host);
                 const QString err = QString::fromUtf8(r.err);
                 if (err.contains(QLatin1String("Host key verification failed")) ||
                     err.contains(QLatin1String("IDENTIFICATION HAS CHANGED"))) {
                     waitForHostKey(err);
                 } else if (m_clock.elapsed() - m_activeAtMs > m_timing.sshTimeoutMs) {
                     terminateThenFail(explainSshFailure(host, QStringLiteral("waiting for SSH"),
                                                         r.exitCode, r.timedOut, err));
                 } else {
                     QTimer::singleShot(std::min(2000, m_timing.pollMaxMs), this,
                                        &CloudRent::waitForSsh);
                 }
             });
}

void CloudRent::waitForHostKey(const QString& sshError) {
    static const QRegularExpression fingerprint(QStringLiteral("SHA256:[A-Za-z0-9+/=]+"));
    const QString seen = fingerprint.match(sshError).captured(0);
    if (m_otherKeyAtMs < 0) {
        m_otherKeyAtMs = m_clock.elapsed();
        qCInfo(lcLease).noquote()
            << QStringLiteral("instance %1 answers SSH with host key %2, not yet the one Tessera "
                              "gave it at launch (cloud-init applies it): waiting up to %3 s")
                   .arg(m_detail.instanceId, seen.isEmpty() ? QStringLiteral("?") : seen)
                   .arg(m_timing.hostKeyWaitMs / 1000);
    }
    if (!seen.isEmpty()) {
        m_otherKeySeen = seen;
    }
    const qint64 waited = m_clock.elapsed() - m_otherKeyAtMs;
    if (waited < m_timing.hostKeyWaitMs) {
        Q_EMIT step(LeaseState::Booting,
                    QStringLiteral("waiting for %1 to take its SSH host key from cloud-init (%2 s)")
                        .arg(m_detail.ip)
                        .arg(waited / 1000));
        QTimer::singleShot(std::min(2000, m_timing.pollMaxMs), this, &CloudRent::waitForSsh);
        return;
    }
    terminateThenFail(
        QStringLiteral("instance %1 at %2 still answered SSH with host key %3 after %4 s, not "
                       "with %5, the one Tessera gave it at launch (cloud-init's ssh_keys): its "
                       "image may ignore cloud-init, or another machine answers at that address")
            .arg(m_detail.instanceId, m_detail.ip,
                 m_otherKeySeen.isEmpty() ? QStringLiteral("(fingerprint not shown by ssh)")
                                          : m_otherKeySeen)
            .arg(waited / 1000)
            .arg(hostKeyFingerprint(m_hostKey)));
}

void CloudRent::bootstrap() {
    auto* ssh = new SshRent(sshHost(), m_leaseId, m_registry, m_bundleHashes, this);
    ssh->setRegisterTimeout(m_timing.registerTimeoutMs);
    m_ssh = ssh;
    connect(ssh, &SshRent::step, this, [this](LeaseState s, const QString& detail) {
        // The instance is up: SSH's "checking the machine" is part of installing here.
        Q_EMIT step(s == LeaseState::Booting ? LeaseState::Installing : s, detail);
    });
    connect(ssh, &SshRent::ready, this, [this](const QStringList& nodes, const QString& sshDetail) {
        m_done = true;
        m_detail.ssh = SshWorkerDetail::fromJson(sshDetail);
        Q_EMIT ready(nodes, m_detail.toJson());
    });
    connect(ssh, &SshRent::failed, this, [this](const QString& reason) {
        m_ssh = nullptr;
        terminateThenFail(reason);
    });
    ssh->start();
}

void CloudRent::abort(const QString& why) {
    if (m_ssh) {
        m_ssh->abort(why); // its failed() terminates the instance
        return;
    }
    if (m_launching) {
        // The launch's reply (or, without one, its tag) says what to terminate; the rent ends
        // only then, so that nothing it started outlives it unnoticed.
        m_abortedWith = why;
        return;
    }
    if (m_detail.instanceId.isEmpty()) {
        fail(why);
        return;
    }
    terminateThenFail(why);
}

void CloudRent::fail(const QString& reason) {
    if (m_done) {
        return;
    }
    m_done = true;
    Q_EMIT failed(reason);
}

void CloudRent::terminateThenFail(const QString& reason) {
    const bool reported = m_done;
    m_done = true;
    const QString id = m_detail.instanceId;
    qCInfo(lcLease).noquote() << "lease" << m_leaseId << "terminates instance" << id << ":"
                              << (reason.isEmpty() ? QStringLiteral("released") : reason);
    m_api->terminate(this, id, [this, reason, id, reported](CloudResult<void> r) {
        if (reported) {
            if (!r) {
                qCWarning(lcLease).noquote()
                    << "instance" << id << "launched after its lease "
                    << "ended could not be terminated:" << r.error().message;
            }
            return;
        }
        Q_EMIT failed(
            r ? reason + QStringLiteral("; instance %1 was terminated").arg(id)
              : reason + QStringLiteral("; terminating instance %1 failed too (%2): Tessera will "
                                        "offer it for release at its next start")
                             .arg(id, r.error().message));
    });
}

} // namespace tessera
