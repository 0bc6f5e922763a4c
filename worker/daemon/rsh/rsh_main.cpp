// tessera-rsh: Open MPI's plm_rsh_agent. `tessera-rsh HOST WORDS...` runs WORDS (split like a
// shell would, without one) on the worker named HOST through its Exec RPC, relaying stdio.
#include "tessera/v1/worker.grpc.pb.h"
#include "worker/common/bearer_token.h"
#include "worker/daemon/jobs/program_paths.h"
#include "worker/daemon/rsh/rsh_command.h"
#include "worker/daemon/security/tls_files.h"

#include <grpcpp/client_context.h>
#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <pthread.h>
#include <thread>
#include <unistd.h>

using namespace tessera;

namespace {

int die(const std::string& msg) {
    std::fprintf(stderr, "tessera-rsh: error: %s\n", msg.c_str());
    return 255; // what ssh returns when it cannot run the remote command
}

bool writeAll(int fd, const std::string& data) {
    size_t done = 0;
    while (done < data.size()) {
        const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return false;
        }
        done += static_cast<size_t>(n);
    }
    return true;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        return die("usage: tessera-rsh HOST COMMAND [ARGS...] (run by mpirun as its "
                   "plm_rsh_agent, with TESSERA_RSH_PEERS naming the job's peers file)");
    }
    const char* peersPath = std::getenv("TESSERA_RSH_PEERS");
    if (!peersPath || !*peersPath) {
        return die("TESSERA_RSH_PEERS is not set; tessera-rsh runs under a tessera-worker job");
    }
    auto peer = daemon::findPeer(peersPath, argv[1]);
    if (!peer) {
        return die(peer.error().message);
    }
    auto cmd = daemon::parseRemoteCommand(std::vector<std::string>(argv + 2, argv + argc));
    if (!cmd) {
        return die(cmd.error().message);
    }

    const pid_t parent = ::getppid();
    // Stop signals are handled by one thread that cancels the call (the worker then kills the
    // program); block them before any other thread starts.
    sigset_t stopSignals;
    sigemptyset(&stopSignals);
    for (int s : {SIGTERM, SIGINT, SIGHUP}) {
        sigaddset(&stopSignals, s);
    }
    pthread_sigmask(SIG_BLOCK, &stopSignals, nullptr);
    std::signal(SIGPIPE, SIG_IGN);

    if (!isValidBearerToken(peer->token())) {
        return die("the token for host '" + peer->name() +
                   "' in the peers file is not one word of visible ASCII characters");
    }
    // The worker that runs this job hands its own TLS identity down when it serves mutual TLS;
    // its peers then demand a certificate from the same CA (tls_files.h).
    std::shared_ptr<grpc::ChannelCredentials> credentials = grpc::InsecureChannelCredentials();
    const char* certPath = std::getenv(daemon::kTlsCertEnv);
    if (certPath && *certPath) {
        const char* keyPath = std::getenv(daemon::kTlsKeyEnv);
        const char* caPath = std::getenv(daemon::kTlsCaEnv);
        auto tls = daemon::TlsFiles::load(certPath, keyPath ? keyPath : "", caPath ? caPath : "");
        if (!tls) {
            return die("the worker's TLS identity for peer '" + peer->name() +
                       "': " + tls.error().message);
        }
        grpc::SslCredentialsOptions options;
        options.pem_root_certs = tls->caPem;
        options.pem_private_key = tls->keyPem;
        options.pem_cert_chain = tls->certPem;
        credentials = grpc::SslCredentials(options);
    }
    auto channel = grpc::CreateChannel(peer->address(), credentials);
    auto stub = v1::WorkerService::NewStub(channel);
    grpc::ClientContext ctx;
    ctx.AddMetadata("authorization", "Bearer " + peer->token());
    auto stream = stub->Exec(&ctx);

    std::thread([&ctx, stopSignals] {
        int sig = 0;
        sigwait(&stopSignals, &sig);
        ctx.TryCancel();
    }).detach();
    // mpirun gone (crashed while aborting, or its worker killed): nothing may keep the remote
    // orted, and with it the ranks, alive. Polled rather than PR_SET_PDEATHSIG, which fires when
    // the *thread* that forked us ends.
    std::thread([&ctx, parent] {
        while (::getppid() == parent) {
            std::this_thread::sleep_for(std::chrono::milliseconds(200));
        }
        ctx.TryCancel();
    }).detach();

    v1::ExecInput start;
    for (const auto& a : cmd->argv) {
        start.mutable_start()->add_argv(a);
    }
    for (const auto& [k, v] : cmd->env) {
        (*start.mutable_start()->mutable_env())[k] = v;
    }
    std::mutex writeMutex;
    bool callOver = false; // guarded by writeMutex: no Write after Finish
    if (!stream->Write(start)) {
        // The stream broke at once; Finish below reports why.
    } else {
        // Pump our stdin to the call; EOF → close_stdin. Detached: it may sit in read().
        std::thread([&stream, &writeMutex, &callOver] {
            char buf[65536];
            while (true) {
                const ssize_t n = ::read(0, buf, sizeof buf);
                if (n < 0 && errno == EINTR) {
                    continue;
                }
                v1::ExecInput in;
                if (n <= 0) {
                    in.set_close_stdin(true);
                } else {
                    in.set_stdin(std::string(buf, static_cast<size_t>(n)));
                }
                std::lock_guard lock(writeMutex);
                if (callOver) {
                    return;
                }
                if (!stream->Write(in) || n <= 0) {
                    if (n <= 0) {
                        stream->WritesDone();
                    }
                    return;
                }
            }
        }).detach();
    }

    v1::ExecOutput out;
    int code = -1;
    while (stream->Read(&out)) {
        switch (out.kind_case()) {
        case v1::ExecOutput::kStdout:
            writeAll(1, out.stdout());
            break;
        case v1::ExecOutput::kStderr:
            writeAll(2, out.stderr());
            break;
        case v1::ExecOutput::kExit:
            code = out.exit().code();
            break;
        default:
            break;
        }
    }
    grpc::Status st;
    {
        std::lock_guard lock(writeMutex);
        callOver = true;
        st = stream->Finish();
    }
    if (code >= 0) {
        std::_Exit(code); // detached threads may still sit in read(); do not join them
    }
    std::fprintf(stderr, "tessera-rsh: error: Exec of '%s' on %s (%s) failed: %s (%d)\n",
                 cmd->argv[0].c_str(), argv[1], peer->address().c_str(), st.error_message().c_str(),
                 static_cast<int>(st.error_code()));
    std::fflush(stderr);
    std::_Exit(255);
}
