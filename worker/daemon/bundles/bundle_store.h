// This worker's cache of code bundles (a user program's packed model.workdir): one folder per
// SHA-256 under <work-dir>/bundles, created whole by rename() so a folder that exists is complete.
#pragma once

#include "worker/common/error.h"

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace tessera::daemon {

/// The bundle cache. Thread-safe: concurrent installs of one bundle leave one copy.
class BundleStore {
public:
    /// A bundle's tar may not be larger than this (bytes).
    static constexpr uint64_t kMaxBundleBytes = 4ull << 30;

    /// How much the cache may hold. A bundle's last use is its folder's mtime (set when it is
    /// installed and by touch(), which HasBundle calls for every launch on every node).
    struct Limit {
        uint64_t maxBytes = 8ull << 30; ///< 0 = no limit
        /// Never evicted when used this recently: a job started within it may still read its
        /// code (Python imports lazily).
        std::chrono::seconds keepRecent = std::chrono::hours(24);
    };

    /// Bundles live in `workDir`/bundles (created on first use); the default Limit.
    explicit BundleStore(std::string workDir);
    BundleStore(std::string workDir, Limit limit);

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

    /// Marks bundle `sha` as used now; no-op when it is not here.
    void touch(const std::string& sha) const;
    /// Removes what uploads cut short by a dying worker left (".<sha>.tar.*" files,
    /// ".<sha>.unpack.*" folders). Call at start, before serving. Returns how many.
    int sweepPartial() const;
    /// While the bundles take more than Limit::maxBytes (their files' sizes), removes the least
    /// recently used one that was not used within Limit::keepRecent and is not `keep`. Returns
    /// the SHA-256s removed, oldest first. Errors are logged; the bundle then stays.
    std::vector<std::string> evict(const std::string& keep) const;

private:
    std::string m_root;
    Limit m_limit;
};

} // namespace tessera::daemon
