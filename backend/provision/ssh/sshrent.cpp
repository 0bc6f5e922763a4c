// One SSH rent as a chain of asynchronous ssh calls (see sshrent.h).
#include "backend/provision/ssh/sshrent.h"

#include "backend/cluster/clusterregistry.h"
#include "backend/core/logging.h"
#include "backend/core/paths.h"
#include "backend/provision/asyncprocess.h"
#include "backend/provision/bundlecheck.h"
#include "backend/provision/bundlehash.h"
#include "backend/provision/provider.h"
#include "backend/provision/ssh/sshconnection.h"
#include "backend/provision/ssh/sshtunnels.h"
#include "backend/provision/token.h"
#include "backend/tls/clusterca.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTimer>

namespace tessera {

QString SshWorkerDetail::toJson() const {
    return QString::fromUtf8(
        QJsonDocument(QJsonObject{{QStringLiteral("host"), sshHostToJson(host)},
                                  {QStringLiteral("address"), address},
                                  {QStringLiteral("token"), token},
                                  {QStringLiteral("pid"), pid},
                                  {QStringLiteral("leaseDir"), leaseDir},
                                  {QStringLiteral("tls"), tls},
                                  {QStringLiteral("tunnel"), tunnel}})
            .toJson(QJsonDocument::Compact));
}

SshWorkerDetail SshWorkerDetail::fromJson(const QString& json) {
    const QJsonObject o = QJsonDocument::fromJson(json.toUtf8()).object();
    SshWorkerDetail d;
    d.host = sshHostFromJson(o.value(QStringLiteral("host")).toObject());
    d.address = o.value(QStringLiteral("address")).toString();
    d.token = o.value(QStringLiteral("token")).toString();
    d.pid = o.value(QStringLiteral("pid")).toInteger();
    d.leaseDir = o.value(QStringLiteral("leaseDir")).toString();
    d.tls = o.value(QStringLiteral("tls")).toBool();
    d.tunnel = o.value(QStringLiteral("tunnel")).toBool();
    return d;
}

int SshWorkerDetail::port() const {
    return address.section(QLatin1Char(':'), -1).toInt();
}

WorkerNode rejoinedNode(const SshWorkerDetail& d, const QString& name, const QString& provider,
                        ClusterRegistry* registry) {
    WorkerNode node;
    node.name = name;
    node.address = d.address;
    node.token = d.token;
    node.provider = provider;
    if (d.tls) {
        node.tls = restoredTlsIdentity(node.name);
    }
    if (d.tunnel) {
        node.dialAddress = SshTunnels::shared()->open(registry, name, d.host, d.port());
    }
    return node;
}

SshRent::SshRent(const SshHost& host, const QString& leaseId, ClusterRegistry* registry,
                 BundleHashCache* bundleHashes, QObject* parent)
    : LeaseRent(parent), m_host(host), m_leaseId(leaseId), m_registry(registry),
      m_bundleHashes(bundleHashes) {
    m_detail.host = host;
    m_detail.leaseDir = host.baseDir() + QStringLiteral("/leases/") + leaseId;
}

void SshRent::ssh(const QString& what, const QString& script, const QByteArray& input,
                  int timeoutMs, std::function<void(const QString&)> next, QProcess* stdoutOf) {
    m_running = runAsync(
        this, QStringLiteral("ssh"),
        sshArguments(m_host, QStringLiteral("cd && sh -c ") + shellQuote(script)), input, timeoutMs,
        [this, what, next](const ProcessResult& r) {
            m_running = nullptr;
            if (m_done) {
                return;
            }
            if (!r.startError.isEmpty()) {
                fail(QStringLiteral("cannot run ssh (%1): install the Debian package "
                                    "openssh-client")
                         .arg(r.startError));
            } else if (!r.ok()) {
                if (r.timedOut || r.exitCode == 255) {
                    dropSshMaster(m_host); // the rollback must not wait on a stuck connection
                }
                fail(explainSshFailure(m_host, what, r.exitCode, r.timedOut,
                                       QString::fromUtf8(r.err + r.out)));
            } else {
                next(QString::fromUtf8(r.out));
            }
        },
        stdoutOf);
}

void SshRent::start() {
    check();
}

void SshRent::check() {
    Q_EMIT step(LeaseState::Booting,
                QStringLiteral("connecting to %1 and checking the machine").arg(m_host.offerId()));
    ssh(QStringLiteral("checking the machine"), sshCheckScript(), {}, 30000,
        [this](const QString& out) {
            const SshMachine machine = parseSshCheck(out);
            if (machine.os != QLatin1String("Linux")) {
                fail(QStringLiteral("%1 runs %2, not Linux: the Tessera worker needs Linux")
                         .arg(m_host.offerId(), machine.os));
            } else if (machine.arch != QLatin1String("x86_64")) {
                fail(QStringLiteral("%1 is a %2 machine: Tessera's worker bundle is built for "
                                    "x86_64 only")
                         .arg(m_host.offerId(),
                              machine.arch.isEmpty() ? QStringLiteral("unknown") : machine.arch));
            } else if (const QString old =
                           cudaDriverTooOld(machine, bundleCudaVersion(), m_host.offerId());
                       !old.isEmpty()) {
                fail(old);
            } else {
                Q_EMIT checked(machine);
                m_gpus = machine.gpus;
                hashBundle();
            }
        });
}

void SshRent::hashBundle() {
    hashWorkerBundle(this, m_bundleHashes, [this](const Result<QString>& hash) {
        if (m_done) {
            return;
        }
        if (!hash) {
            fail(QString::fromStdString(hash.error().message));
            return;
        }
        m_bundle = m_host.baseDir() + QStringLiteral("/worker-") + *hash;
        m_cudaId = m_gpus > 0 ? bundleCudaId() : QString();
        install(false);
    });
}

void SshRent::install(bool upload) {
    Q_EMIT step(
        LeaseState::Installing,
        upload ? QStringLiteral("copying the worker to %1").arg(m_host.offerId())
               : QStringLiteral("looking for this build's worker on %1").arg(m_host.offerId()));
    const QString vars =
        QStringLiteral("B=%1; W=%2; ").arg(shellQuote(m_host.baseDir()), shellQuote(m_bundle));
    QString script;
    QProcess* tar = nullptr;
    if (upload) {
        // Unpack next to the target, point the programs at the bundle's own loader at the
        // folder's final (absolute) place, and rename: hosts sharing a home folder never see half
        // a bundle, and a second rent that lost the race keeps the first one's.
        script =
            vars +
            QStringLiteral("set -e; mkdir -p \"$B\"; case $W in /*) A=$W;; *) A=$PWD/$W;; esac; "
                           "T=$(mktemp -d \"$B/upload.XXXXXX\"); tar -C \"$T\" -xzf -; "
                           "chmod 755 \"$T\"; if ! sh \"$T/relocate\" \"$A\" > \"$T/relocate.log\" "
                           "2>&1; then echo \"cannot-run: relocate: $(tail -n 2 "
                           "\"$T/relocate.log\" | tr '\\n' ' ')\"; rm -rf \"$T\"; exit 0; fi; "
                           "mv -T \"$T\" \"$W\" 2>/dev/null || rm -rf \"$T\"; set +e; ") +
            bundleVerifyScript(false);
        tar = bundleTar(workerBundleDir() + QStringLiteral("/worker"));
    } else {
        // A bundle that no longer runs (damaged, or its loader path moved) is copied again.
        script =
            vars +
            QStringLiteral("if [ -e \"$W/programs\" ] && [ -x \"$W/tessera-worker\" ]; then "
                           "v=$(") +
            bundleVerifyScript(false) +
            QStringLiteral("); if [ -z \"$v\" ]; then echo present; else "
                           "echo \"$v\" | sed 's/^cannot-run:/broken:/'; rm -rf \"$W\"; fi; fi");
    }
    ssh(
        upload ? QStringLiteral("copying the worker") : QStringLiteral("looking for the worker"),
        script, {}, upload ? 600000 : 30000,
        [this, upload](const QString& out) {
            if (!upload && !out.contains(QLatin1String("present"))) {
                if (out.contains(QLatin1String("broken:"))) {
                    qCWarning(lcLease).noquote()
                        << QStringLiteral("the worker on %1 no longer runs; copying it again: %2")
                               .arg(m_host.offerId(), out.trimmed().left(400));
                }
                install(true);
            } else if (const QString why = bundleCannotRun(out); !why.isEmpty()) {
                fail(QStringLiteral("the worker cannot run on %1: %2").arg(m_host.offerId(), why));
            } else if (!m_cudaId.isEmpty()) {
                installCuda(false);
            } else {
                startWorker();
            }
        },
        tar);
}

void SshRent::installCuda(bool upload) {
    Q_EMIT step(
        LeaseState::Installing,
        upload
            ? QStringLiteral("copying the CUDA runtime libraries to %1 (%2 MB)")
                  .arg(m_host.offerId())
                  .arg(bundleCudaBytes() >> 20)
            : QStringLiteral("looking for the CUDA runtime libraries on %1").arg(m_host.offerId()));
    // Beside the worker's folder, named by its content: shared by every later bundle (they change
    // with each build, the CUDA libraries only with the toolkit).
    const QString vars = QStringLiteral("B=%1; W=%2; C=\"$B\"/cuda-%3; ")
                             .arg(shellQuote(m_host.baseDir()), shellQuote(m_bundle), m_cudaId);
    QString script;
    QProcess* tar = nullptr;
    if (upload) {
        script = vars +
                 QStringLiteral("set -e; T=$(mktemp -d \"$B/upload.XXXXXX\"); "
                                "tar -C \"$T\" -xzf -; chmod 755 \"$T\"; : > \"$T/.complete\"; "
                                "mv -T \"$T\" \"$C\" 2>/dev/null || rm -rf \"$T\"; set +e; ") +
                 bundleVerifyScript(true);
        tar = bundleTar(workerBundleDir() + QStringLiteral("/cuda"));
    } else {
        script = vars + QStringLiteral("if [ -e \"$C/.complete\" ]; then echo present; ") +
                 bundleVerifyScript(true) + QStringLiteral("; fi");
    }
    ssh(
        upload ? QStringLiteral("copying the CUDA libraries")
               : QStringLiteral("looking for the CUDA libraries"),
        script, {}, upload ? 3600000 : 30000,
        [this, upload](const QString& out) {
            if (!upload && !out.contains(QLatin1String("present"))) {
                installCuda(true);
            } else if (const QString why = bundleCannotRun(out); !why.isEmpty()) {
                fail(QStringLiteral("the GPU rank program cannot run on %1: %2")
                         .arg(m_host.offerId(), why));
            } else {
                startWorker();
            }
        },
        tar);
}

QProcess* SshRent::bundleTar(const QString& dir) {
    // Links followed (the CUDA part links to the toolkit's files); gzip -1: a third of the
    // bytes at a tenth of the default level's time.
    auto* tar = new QProcess(this);
    tar->setProgram(QStringLiteral("tar"));
    tar->setArguments({QStringLiteral("-C"), dir, QStringLiteral("-I"), QStringLiteral("gzip -1"),
                       QStringLiteral("-chf"), QStringLiteral("-"), QStringLiteral(".")});
    return tar;
}

void SshRent::startWorker() {
    Q_EMIT step(LeaseState::Registering,
                QStringLiteral("starting the worker on %1").arg(m_host.offerId()));
    m_detail.token = randomToken();
    QByteArray secrets = m_detail.token.toLatin1() + '\n';
    if (m_tls) {
        // A certificate of its own for every rent (so a re-rent renews it), for the address the
        // backend and the job's other workers reach it at.
        auto ca = ClusterCa::shared();
        auto cert = ca ? (*ca)->issueWorker(m_host.nodeName(), {m_host.host})
                       : Result<tls::KeyAndCert>(relay(ca));
        if (!cert) {
            fail(QStringLiteral("cannot issue the worker's certificate for %1: %2")
                     .arg(m_host.offerId(), QString::fromStdString(cert.error().message)));
            return;
        }
        m_identity = (*ca)->backendIdentity();
        secrets += QByteArray::fromStdString(cert->keyPem + cert->certPem + (*ca)->caCertPem());
    }
    m_detail.tls = m_tls;
    const QString transport = m_tls ? QStringLiteral("--tls-cert \"$L/worker.crt\" --tls-key "
                                                     "\"$L/worker.key\" --tls-ca \"$L/ca.crt\"")
                                    : QStringLiteral("--insecure");
    const QString slots = m_host.slots > 0 ? QString::number(m_host.slots) : QStringLiteral("0");
    // Token, key and certificates arrive on stdin (never on a command line) and land in 0600
    // files: the token on the first line, then the key, the worker's certificate and the CA's,
    // one PEM block each. setsid (+ nohup where the node has it: a BusyBox system may not): the
    // worker outlives this ssh session (and the app);
    // the loop waits for its "listening on" line. A root login is the person's choice in the
    // hosts file: the worker is told so (--allow-root).
    const QString script =
        QStringLiteral(
            "umask 077; L=%1; W=%2; mkdir -p \"$L/work\"; "
            "awk -v d=\"$L\" 'NR==1{print > (d \"/token\"); next} /-----BEGIN/{n++} "
            "n==1{print > (d \"/worker.key\")} n==2{print > (d \"/worker.crt\")} "
            "n==3{print > (d \"/ca.crt\")}'; "
            "R=; [ \"$(id -u)\" = 0 ] && R=--allow-root; "
            "N=; command -v nohup >/dev/null 2>&1 && N=nohup; "
            "setsid $N \"$W/tessera-worker\" --listen 0.0.0.0:0 --token-file \"$L/token\" "
            "%5 $R "
            "--work-dir \"$L/work\" --slots %3 --name %4 > \"$L/worker.out\" 2> \"$L/worker.log\" "
            "< /dev/null & echo pid=$!; i=0; while [ $i -lt 150 ]; do "
            "if grep -q 'listening on' \"$L/worker.out\"; then cat \"$L/worker.out\"; exit 0; fi; "
            "if ! kill -0 $! 2>/dev/null; then echo 'the worker exited:'; tail -n 3 "
            "\"$L/worker.log\"; "
            "exit 3; fi; sleep 0.1; i=$((i+1)); done; echo 'no listening line in 15 s'; exit 4")
            .arg(shellQuote(m_detail.leaseDir), shellQuote(m_bundle), slots,
                 shellQuote(m_host.nodeName()), transport);
    ssh(QStringLiteral("starting the worker"), script, secrets, 40000, [this](const QString& out) {
        m_detail.pid = keyValue(out, QStringLiteral("pid")).toLongLong();
        const auto m =
            QRegularExpression(QStringLiteral("listening on [^\\s:]+:(\\d+)")).match(out);
        if (!m.hasMatch()) {
            fail(QStringLiteral("the worker on %1 printed no address: %2")
                     .arg(m_host.offerId(), out.trimmed()));
            return;
        }
        const QString host = m_host.host.contains(QLatin1Char(':'))
                                 ? QLatin1Char('[') + m_host.host + QLatin1Char(']')
                                 : m_host.host;
        m_detail.address = host + QLatin1Char(':') + m.captured(1);
        registerNode();
    });
}

void SshRent::registerNode() {
    Q_EMIT step(LeaseState::Registering,
                QStringLiteral("waiting for the worker at %1 to answer").arg(m_detail.address));
    connect(m_registry, &ClusterRegistry::nodeChanged, this, &SshRent::onNodeChanged);
    m_registerTimer = new QTimer(this);
    m_registerTimer->setSingleShot(true);
    connect(m_registerTimer, &QTimer::timeout, this, [this] {
        const auto n = m_registry->node(m_host.nodeName());
        fail((m_host.tunnel ? QStringLiteral("the worker on %1 did not answer at %2 through its "
                                             "SSH tunnel within %3 s (%4)")
                            : QStringLiteral("the worker on %1 did not answer at %2 within %3 s "
                                             "(%4); check that the port is reachable from here "
                                             "(firewall), or set \"tunnel\": true for the host"))
                 .arg(m_host.offerId(), m_detail.address)
                 .arg(m_registerTimeoutMs / 1000)
                 .arg(n && !n->lastError.isEmpty() ? n->lastError : QStringLiteral("no answer")));
    });
    m_registerTimer->start(m_registerTimeoutMs);
    WorkerNode node;
    node.name = m_host.nodeName();
    node.address = m_detail.address;
    node.token = m_detail.token;
    node.tls = m_identity;
    node.provider = QStringLiteral("ssh");
    m_detail.tunnel = m_host.tunnel;
    if (!m_host.tunnel) {
        addNode(node);
        return;
    }
    // Added once the tunnel listens: a channel that tried before stalls (sshtunnels.h).
    auto tunnelled = std::make_shared<WorkerNode>(node);
    // The tunnels outlive a rent; a rent deleted before its tunnel is ready is left alone.
    tunnelled->dialAddress =
        SshTunnels::shared()->open(m_registry, node.name, m_host, m_detail.port(),
                                   [self = QPointer<SshRent>(this), tunnelled] {
                                       if (self && !self->m_done) {
                                           self->addNode(*tunnelled);
                                       }
                                   });
    if (tunnelled->dialAddress.isEmpty()) {
        fail(QStringLiteral("cannot reach the worker on %1 through SSH: Tessera has no private "
                            "folder for the tunnel's socket (see the log)")
                 .arg(m_host.offerId()));
    }
}

void SshRent::addNode(const WorkerNode& node) {
    m_nodeAdded = true;
    m_registry->addNode(node);
}

void SshRent::onNodeChanged(const QString& name) {
    if (m_done || name != m_host.nodeName()) {
        return;
    }
    const auto n = m_registry->node(name);
    if (!n) {
        return;
    }
    if (n->state == NodeState::Ready) {
        m_done = true;
        m_registerTimer->stop();
        Q_EMIT ready({name}, m_detail.toJson());
    } else if (n->tokenRefused) {
        fail(QStringLiteral("the worker at %1 refused its own token: another worker answers on "
                            "that address")
                 .arg(m_detail.address));
    }
}

void SshRent::abort(const QString& why) {
    fail(why);
}

void SshRent::fail(const QString& reason) {
    if (m_done) {
        return;
    }
    m_done = true;
    if (m_registerTimer) {
        m_registerTimer->stop();
    }
    if (m_running) {
        m_running->kill();
    }
    if (m_nodeAdded) {
        m_registry->removeNode(m_host.nodeName()); // no half-registered node, even for a moment
    }
    if (m_host.tunnel) {
        SshTunnels::shared()->close(m_host.nodeName());
    }
    if (m_detail.pid <= 0) {
        closeSshMaster(m_host);
        Q_EMIT failed(reason);
        return;
    }
    stopWorker(this, m_detail, [this, reason](const QString& stopError) {
        Q_EMIT failed(stopError.isEmpty() ? reason : reason + QStringLiteral("; and ") + stopError);
    });
}

void SshRent::stopWorker(QObject* owner, const SshWorkerDetail& detail,
                         std::function<void(QString)> done, int timeoutMs) {
    const SshHost& host = detail.host;
    const QString script =
        QStringLiteral("kill %1 2>/dev/null; i=0; while kill -0 %1 2>/dev/null && [ $i -lt 50 ]; "
                       "do sleep 0.1; i=$((i+1)); done; kill -9 %1 2>/dev/null; true")
            .arg(detail.pid);
    runAsync(owner, QStringLiteral("ssh"),
             sshArguments(host, QStringLiteral("cd && sh -c ") + shellQuote(script)), {}, timeoutMs,
             [host, detail, done](const ProcessResult& r) {
                 if (r.timedOut || r.exitCode == 255) {
                     dropSshMaster(host);
                 } else {
                     closeSshMaster(host);
                 }
                 done(r.ok() ? QString()
                             : QStringLiteral("the worker (pid %1) may still run there: %2")
                                   .arg(detail.pid)
                                   .arg(explainSshFailure(
                                       host, QStringLiteral("stopping the worker"), r.exitCode,
                                       r.timedOut, QString::fromUtf8(r.err))));
             });
}

} // namespace tessera
