// Test helper implementation: QProcess for the daemon, sync gRPC stubs for the calls.
#include "tests/worker/daemon/worker_process.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>

#include <csignal>

using namespace tessera;

WorkerProcess::WorkerProcess(QString workDir, QString tokenFile, QString name,
                             QStringList extraArgs)
    : m_workDir(std::move(workDir)), m_tokenFile(std::move(tokenFile)), m_name(std::move(name)),
      m_extra(std::move(extraArgs)) {}

WorkerProcess::~WorkerProcess() {
    stop();
}

QString WorkerProcess::binary() {
    return QStringLiteral(TESSERA_BUILD_DIR "/bin/tessera-worker");
}

bool WorkerProcess::start(QString* error) {
    m_proc = std::make_unique<QProcess>();
    m_address.clear();
    // The daemon's log goes to a file so that it can be read without an event loop.
    m_logFile = m_workDir + ".log";
    QDir().mkpath(QFileInfo(m_logFile).absolutePath());
    m_proc->setStandardErrorFile(m_logFile, QIODevice::Append);
    QStringList args = {"--listen", m_listen, "--token-file", m_tokenFile, "--work-dir", m_workDir,
                        "--slots",  "1",      "--name",       m_name};
    args += m_extra;
    m_proc->start(binary(), args);
    if (!m_proc->waitForStarted(5000)) {
        *error = "cannot start " + binary() + ": " + m_proc->errorString();
        return false;
    }
    const QRegularExpression re("^tessera-worker listening on (\\S+:\\d+)$");
    QByteArray out;
    for (int i = 0; i < 150 && m_address.isEmpty(); ++i) {
        m_proc->waitForReadyRead(100);
        out += m_proc->readAllStandardOutput();
        for (const QByteArray& line : out.split('\n')) {
            const auto m = re.match(QString::fromUtf8(line.trimmed()));
            if (m.hasMatch()) {
                m_address = m.captured(1);
            }
        }
        if (m_proc->state() != QProcess::Running) {
            break;
        }
    }
    if (m_address.isEmpty()) {
        *error = "tessera-worker printed no 'listening on' line; stdout: " + QString(out) +
                 " stderr: " + QString(log());
        return false;
    }
    return true;
}

void WorkerProcess::stop() {
    if (m_proc && m_proc->state() != QProcess::NotRunning) {
        m_proc->terminate();
        if (!m_proc->waitForFinished(10000)) {
            m_proc->kill();
            m_proc->waitForFinished(5000);
        }
    }
}

void WorkerProcess::kill() {
    if (m_proc && m_proc->state() != QProcess::NotRunning) {
        m_proc->kill();
        m_proc->waitForFinished(5000);
    }
}

QByteArray WorkerProcess::log() {
    QFile f(m_logFile);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

std::unique_ptr<v1::WorkerService::Stub> WorkerProcess::stub() const {
    return stub(grpc::InsecureChannelCredentials());
}

std::unique_ptr<v1::WorkerService::Stub>
WorkerProcess::stub(const std::shared_ptr<grpc::ChannelCredentials>& credentials) const {
    return v1::WorkerService::NewStub(grpc::CreateChannel(m_address.toStdString(), credentials));
}

bool writeTokenFile(const QString& path, const std::string& token) {
    QFile f(path);
    // Private to its owner: the worker refuses a token file others can read (bearer_token.h).
    return f.open(QIODevice::WriteOnly) && f.setPermissions(QFile::ReadOwner | QFile::WriteOwner) &&
           f.write((token + "\n").c_str()) > 0 && f.flush();
}

void authorize(grpc::ClientContext& ctx, const std::string& token, int seconds) {
    ctx.AddMetadata("authorization", "Bearer " + token);
    ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::seconds(seconds));
}

WatchResult watchJob(v1::WorkerService::Stub& stub, const std::string& token,
                     const std::string& jobId, uint64_t fromSeq, int seconds) {
    grpc::ClientContext ctx;
    authorize(ctx, token, seconds);
    v1::WatchJobRequest req;
    req.set_job_id(jobId);
    req.set_from_seq(fromSeq);
    WatchResult r;
    auto reader = stub.WatchJob(&ctx, req);
    v1::JobEvent ev;
    while (reader->Read(&ev)) {
        r.events.push_back(ev);
    }
    r.status = reader->Finish();
    return r;
}

WatchResult launchAndWatch(v1::WorkerService::Stub& stub, const std::string& token,
                           const v1::LaunchJobRequest& request, int seconds) {
    grpc::ClientContext ctx;
    authorize(ctx, token, 30);
    v1::LaunchJobReply reply;
    const grpc::Status st = stub.LaunchJob(&ctx, request, &reply);
    if (!st.ok()) {
        return {{}, st};
    }
    return watchJob(stub, token, request.spec().job_id(), 0, seconds);
}

QString describeWatch(const WatchResult& r) {
    QString out = QString::fromStdString(r.status.error_message());
    for (const auto& ev : r.events) {
        if (ev.has_log()) {
            out += "\n" + QString::fromStdString(ev.log().text());
        } else if (ev.has_state()) {
            out += "\n[state] " + QString::fromStdString(ev.state().reason());
        }
    }
    return out;
}

ExecResult execOnce(v1::WorkerService::Stub& stub, const std::string& token,
                    const v1::ExecStart& start) {
    grpc::ClientContext ctx;
    authorize(ctx, token, 30);
    auto stream = stub.Exec(&ctx);
    v1::ExecInput first;
    *first.mutable_start() = start;
    stream->Write(first);
    v1::ExecInput close;
    close.set_close_stdin(true);
    stream->Write(close);
    stream->WritesDone();
    ExecResult r;
    v1::ExecOutput msg;
    while (stream->Read(&msg)) {
        if (msg.kind_case() == v1::ExecOutput::kStdout) {
            r.stdoutData += QByteArray::fromStdString(msg.stdout());
        }
    }
    r.status = stream->Finish();
    return r;
}

v1::LaunchJobRequest commandJob(const std::string& jobId, const std::vector<std::string>& command,
                                const std::vector<const WorkerProcess*>& workers,
                                const std::string& token) {
    v1::LaunchJobRequest req;
    req.mutable_spec()->set_job_id(jobId);
    req.mutable_spec()->set_name("test " + jobId);
    for (const auto& c : command) {
        req.mutable_spec()->mutable_model()->add_command(c);
    }
    req.mutable_spec()->mutable_layout()->set_data_parallel(static_cast<int>(workers.size()));
    for (const WorkerProcess* w : workers) {
        auto* p = req.add_peers();
        p->set_name(w->name().toStdString());
        p->set_address(w->address().toStdString());
        p->set_token(token);
        p->set_slots(1);
    }
    return req;
}

std::vector<int> pidsWithCmdline(const QByteArray& prefix, const QByteArray& part) {
    std::vector<int> pids;
    const QDir proc("/proc");
    for (const QString& entry : proc.entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
        bool ok = false;
        const int pid = entry.toInt(&ok);
        if (!ok) {
            continue;
        }
        QFile f("/proc/" + entry + "/cmdline");
        if (!f.open(QIODevice::ReadOnly)) {
            continue;
        }
        QByteArray cmd = f.readAll();
        cmd.replace('\0', ' ');
        if (cmd.startsWith(prefix) && cmd.contains(part)) {
            pids.push_back(pid);
        }
    }
    return pids;
}
