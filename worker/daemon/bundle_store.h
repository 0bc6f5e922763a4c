// This worker's cache of code bundles (a user program's packed model.workdir): one folder per
// SHA-256 under <work-dir>/bundles, created whole by rename() so a folder that exists is complete.
#pragma once

#include "worker/common/error.h"

#include <cstdint>
#include <string>

namespace tessera::daemon {

/// The bundle cache. Thread-safe: concurrent installs of one bundle leave one copy.
class BundleStore {
public:
    /// A bundle's tar may not be larger than this (bytes).
    static constexpr uint64_t kMaxBundleBytes = 4ull << 30;

    /// Bundles live in `workDir`/bundles (created on first use).
    explicit BundleStore(std::string workDir);

    /// True for 64 lower-case hex digits.
    static bool isValidSha256(const std::string& sha);
    /// The folder of bundle `sha` (whether or not it exists).
    std::string dir(const std::string& sha) const;
    /// True when bundle `sha` is unpacked here.
    bool has(const std::string& sha) const;

    /// A new empty file in the cache for receiving bundle `sha`. Errors: Io naming it.
    Result<std::string> receiveFile(const std::string& sha) const;
    /// Unpacks the received tar `tarPath` (SHA-256 already checked) as bundle `sha` and removes
    /// the tar. Blocks while tar runs. Members outside the folder (absolute, with "..") are
    /// refused by GNU tar's defaults. Errors: Io with tar's message.
    Result<void> install(const std::string& sha, const std::string& tarPath) const;

private:
    std::string m_root;
};

} // namespace tessera::daemon
