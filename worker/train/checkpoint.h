// Checkpoints: one binary shard per rank plus a manifest per step folder, written atomically
// (temp file in the same folder, fsync, rename, fsync the folder) and verified on read.
//
// Layout on disk:  <dir>/step-<N>/rank-<r>.bin   (every rank, its own shard)
//                  <dir>/step-<N>/manifest.json  (rank 0, after every shard is written)
// A step folder without manifest.json is an interrupted write and is never loaded.
#pragma once

#include "worker/common/error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tessera::train {

/// Where the data loader stands: the next step starts at batch `batchInEpoch` of `epoch`
/// (0-based), i.e. at sample position `nextSample` of that epoch's shuffled order.
struct DataPosition {
    std::int64_t epoch = 0;
    std::int64_t batchInEpoch = 0;
    std::int64_t nextSample = 0;
    bool operator==(const DataPosition&) const = default;
};

/// A named float array of a shard ("params", "exp_avg", "exp_avg_sq", "momentum", ...).
struct CheckpointSection {
    std::string name;
    std::vector<float> data;
};

/// One rank's shard. `layout` is a fingerprint of everything that must match on resume
/// (model, layout, this rank's stage/TP/ZeRO slice), e.g. describeLayout()'s text.
struct RankCheckpoint {
    int rank = 0;
    std::string layout;
    std::int64_t step = 0; ///< optimizer steps completed
    DataPosition position;
    std::string rngState; ///< the data RNG as text (operator<< of std::mt19937_64)
    std::vector<CheckpointSection> sections;

    /// The section called `name`, or nullptr.
    const CheckpointSection* find(const std::string& name) const;
};

/// What rank 0 writes once every shard of a step is on disk.
struct CheckpointManifest {
    std::string layout; ///< job-wide layout fingerprint (same text on every rank)
    int worldSize = 1;
    std::int64_t step = 0;
    DataPosition position;
};

/// "<dir>/step-<step>".
std::string checkpointStepDir(const std::string& dir, std::int64_t step);

/// Writes `<dir>/step-<ckpt.step>/rank-<ckpt.rank>.bin` atomically, creating the folders.
/// File format (little-endian): magic "TSRCKPT1" (8 bytes), u32 version (1), u32 rank,
/// i64 step, i64 epoch, i64 batchInEpoch, i64 nextSample, string layout, string rngState,
/// u32 section count, per section: string name, u64 float count, floats; then u32 CRC-32 (zlib)
/// of every byte before it. Strings are u32 length + bytes.
/// Errors: Io naming the file and the OS error.
Result<void> writeRankCheckpoint(const std::string& dir, const RankCheckpoint& ckpt);

/// Reads and verifies `<stepDir>/rank-<rank>.bin`: magic, version, sizes, CRC, rank.
/// When `expectedLayout` is not empty, a different layout fingerprint is InvalidArgument naming
/// both. Errors: NotFound (missing file), InvalidArgument "corrupt or partial checkpoint <file>:
/// ..." (bad magic/version/CRC/truncation).
Result<RankCheckpoint> readRankCheckpoint(const std::string& stepDir, int rank,
                                          const std::string& expectedLayout = {});

/// Writes `<dir>/step-<m.step>/manifest.json` atomically (call after every rank's shard is
/// written: the trainer barriers first). Errors: Io naming the file.
Result<void> writeCheckpointManifest(const std::string& dir, const CheckpointManifest& m);

/// Reads `<stepDir>/manifest.json`. Errors: NotFound (missing), InvalidArgument (unparsable or
/// missing keys, naming the file).
Result<CheckpointManifest> readCheckpointManifest(const std::string& stepDir);

/// The step folder with the highest N under `dir` whose manifest reads back; folders without a
/// (valid) manifest and leftover temp files are skipped. nullopt when there is none (or `dir`
/// does not exist). Errors: Io when `dir` exists but cannot be listed.
Result<std::optional<std::string>> latestCheckpoint(const std::string& dir);

/// CheckpointPolicy.resume_from: a step folder (it has manifest.json) or a checkpoint dir
/// (its latestCheckpoint()). Errors: NotFound naming `path` when it holds no complete checkpoint.
Result<std::string> resolveCheckpoint(const std::string& path);

/// InvalidArgument "checkpoint <what> was written for layout '<found>', this job has
/// '<expected>'" unless they are equal.
Result<void> checkLayoutMatches(const std::string& what, const std::string& found,
                                const std::string& expected);

} // namespace tessera::train
