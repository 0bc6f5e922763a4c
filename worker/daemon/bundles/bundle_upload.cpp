// PutBundle reactor (see bundle_upload.h).
#include "worker/daemon/bundles/bundle_upload.h"

#include "worker/common/tsan_handoff.h"
#include "worker/daemon/service/grpc_status.h"

#include <openssl/evp.h>
#include <spdlog/spdlog.h>

#include <thread>

namespace tessera::daemon {

namespace {

std::string hex(const unsigned char* bytes, unsigned n) {
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    for (unsigned i = 0; i < n; ++i) {
        out += kHex[bytes[i] >> 4];
        out += kHex[bytes[i] & 0xF];
    }
    return out;
}

grpc::Status invalid(const std::string& msg) {
    return {grpc::StatusCode::INVALID_ARGUMENT, msg};
}

} // namespace

BundleUpload::BundleUpload(const BundleStore& store, v1::BundleStatus* reply, grpc::Status refusal)
    : m_store(store), m_reply(reply) {
    if (!refusal.ok()) {
        tsanHandedOver(this);
        Finish(refusal);
        return;
    }
    tsanHandedOver(this);
    StartRead(&m_chunk);
}

BundleUpload::~BundleUpload() {
    if (m_file) {
        std::fclose(m_file);
    }
    if (!m_path.empty()) {
        std::remove(m_path.c_str());
    }
    if (m_hash) {
        EVP_MD_CTX_free(m_hash);
    }
}

std::string BundleUpload::begin(const v1::BundleChunk& first) {
    m_sha = first.sha256();
    m_total = first.total_bytes();
    if (!BundleStore::isValidSha256(m_sha)) {
        return "PutBundle's first chunk must carry sha256: 64 lower-case hex digits";
    }
    if (m_total > BundleStore::kMaxBundleBytes) {
        return "bundle " + m_sha.substr(0, 12) + " is " + std::to_string(m_total) +
               " bytes, more than this worker takes (" +
               std::to_string(BundleStore::kMaxBundleBytes) + ")";
    }
    if (m_store.has(m_sha)) {
        m_drop = true;
        return {};
    }
    auto path = m_store.receiveFile(m_sha);
    if (!path) {
        return path.error().message;
    }
    m_path = *path;
    m_file = std::fopen(m_path.c_str(), "wb");
    m_hash = EVP_MD_CTX_new();
    if (!m_file || !m_hash || EVP_DigestInit_ex(m_hash, EVP_sha256(), nullptr) != 1) {
        return "cannot receive bundle " + m_sha.substr(0, 12) + " into '" + m_path + "'";
    }
    return {};
}

bool BundleUpload::take(const std::string& data) {
    m_received += data.size();
    if (m_received > m_total) {
        m_error = invalid("bundle " + m_sha.substr(0, 12) + " sent more than its total_bytes " +
                          std::to_string(m_total));
        return false;
    }
    if (m_drop || data.empty()) {
        return true;
    }
    if (std::fwrite(data.data(), 1, data.size(), m_file) != data.size() ||
        EVP_DigestUpdate(m_hash, data.data(), data.size()) != 1) {
        m_error = {grpc::StatusCode::RESOURCE_EXHAUSTED, "cannot write bundle " +
                                                             m_sha.substr(0, 12) + " to '" +
                                                             m_path + "' (disk full?)"};
        return false;
    }
    return true;
}

void BundleUpload::finishWith(const grpc::Status& status) {
    // Clean up before the client hears the answer: it may look at the cache right after.
    if (!status.ok()) {
        if (m_file) {
            std::fclose(m_file);
            m_file = nullptr;
        }
        if (!m_path.empty()) {
            std::remove(m_path.c_str());
            m_path.clear();
        }
    }
    tsanHandedOver(this);
    Finish(status);
}

void BundleUpload::OnReadDone(bool ok) {
    tsanReceived(this);
    if (ok) {
        if (!m_started) {
            m_started = true;
            if (std::string why = begin(m_chunk); !why.empty()) {
                m_error = invalid(why);
            }
        }
        if (m_error.ok() && take(m_chunk.data())) {
            m_chunk.Clear();
            tsanHandedOver(this);
            StartRead(&m_chunk);
            return;
        }
        finishWith(m_error);
        return;
    }
    complete();
}

void BundleUpload::complete() {
    if (!m_started) {
        tsanHandedOver(this);
        Finish(invalid("PutBundle carried no chunk"));
        return;
    }
    m_reply->set_bytes(m_total);
    m_reply->set_received(m_received);
    if (m_drop) {
        m_reply->set_present(true);
        tsanHandedOver(this);
        Finish(grpc::Status::OK);
        return;
    }
    if (m_received != m_total) {
        finishWith(invalid("bundle " + m_sha.substr(0, 12) + " ended after " +
                           std::to_string(m_received) + " of " + std::to_string(m_total) +
                           " bytes"));
        return;
    }
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned len = 0;
    EVP_DigestFinal_ex(m_hash, digest, &len);
    const bool sameHash = hex(digest, len) == m_sha;
    const bool closed = std::fclose(m_file) == 0;
    m_file = nullptr;
    if (!sameHash || !closed) {
        finishWith(
            invalid(closed ? "bundle " + m_sha.substr(0, 12) +
                                 " arrived with another SHA-256: damaged on the way; launch again"
                           : "cannot write bundle " + m_sha.substr(0, 12) + " (disk full?)"));
        return;
    }
    // tar may take seconds: not on a gRPC thread. Finish() is the thread's last use of `this`.
    std::string path = std::move(m_path);
    m_path.clear();
    tsanHandedOver(this);
    std::thread([this, path] {
        tsanReceived(this);
        auto r = m_store.install(m_sha, path);
        if (r) {
            m_reply->set_present(true);
            spdlog::info("bundle {} received: {} bytes", m_sha.substr(0, 12), m_total);
            (void)m_store.evict(m_sha); // the cache stays within its limit
        } else {
            spdlog::error("{}", r.error().message);
        }
        tsanHandedOver(this);
        Finish(r ? grpc::Status::OK : toGrpcStatus(r.error()));
    }).detach();
}

void BundleUpload::OnDone() {
    tsanReceived(this);
    delete this;
}

} // namespace tessera::daemon
