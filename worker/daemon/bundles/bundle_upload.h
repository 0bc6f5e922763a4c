// One PutBundle call: chunks appended to a file in the bundle cache while their SHA-256 is
// computed, then checked and unpacked off the gRPC threads.
#pragma once

#include "tessera/v1/worker.pb.h"
#include "worker/daemon/bundles/bundle_store.h"

#include <grpcpp/support/server_callback.h>

#include <cstdio>
#include <memory>
#include <string>

struct evp_md_ctx_st;

namespace tessera::daemon {

/// Client-streaming reactor of WorkerService.PutBundle. Deletes itself in OnDone.
class BundleUpload : public grpc::ServerReadReactor<v1::BundleChunk> {
public:
    /// `refusal` non-OK finishes at once (e.g. UNAUTHENTICATED). `reply` is the call's response.
    BundleUpload(const BundleStore& store, v1::BundleStatus* reply, grpc::Status refusal);
    ~BundleUpload() override;

    void OnReadDone(bool ok) override;
    void OnDone() override;

private:
    /// Checks the first chunk's sha256/total_bytes; empty string when fine, else the refusal.
    std::string begin(const v1::BundleChunk& first);
    /// Writes one chunk; false (with m_error set) when it does not fit or cannot be written.
    bool take(const std::string& data);
    /// The stream ended: verifies and installs on a thread of its own, then finishes.
    void complete();
    /// Finish(status), after removing the received file when status is an error.
    void finishWith(const grpc::Status& status);

    const BundleStore& m_store;
    v1::BundleStatus* m_reply;
    v1::BundleChunk m_chunk;
    bool m_started = false;
    bool m_drop = false; ///< the bundle is already here: read and drop the bytes
    std::string m_sha;
    uint64_t m_total = 0;
    uint64_t m_received = 0;
    std::string m_path;
    std::FILE* m_file = nullptr;
    evp_md_ctx_st* m_hash = nullptr;
    grpc::Status m_error;
};

} // namespace tessera::daemon
