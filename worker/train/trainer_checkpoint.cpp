// Trainer checkpoints (see trainer.h and checkpoint.h): every rank writes its shard (its stage's
// parameters and its ZeRO slice of the optimizer state), all ranks meet, rank 0 writes the
// manifest; resume reads them back and checks the layout fingerprint.
#include "worker/train/trainer.h"

#include <spdlog/spdlog.h>

#include <climits>
#include <cstdlib>

namespace tessera::train {

namespace {

// Every rank of `comm` arrives before any leaves (an all-reduce of one int).
Result<void> barrier(Communicator& comm) {
    int x = 0;
    return comm.allReduceMin(&x, 1);
}

// The data-parallel degree a layout fingerprint names (" dp=N "), 0 when it names none.
int fingerprintDp(const std::string& f) {
    const std::size_t at = f.find(" dp=");
    return at == std::string::npos ? 0 : std::atoi(f.c_str() + at + 4);
}

// `f` with its data-parallel degree set to `dp`.
std::string withDp(std::string f, int dp) {
    const std::size_t at = f.find(" dp=");
    if (at == std::string::npos) {
        return f;
    }
    const std::size_t end = f.find(' ', at + 1);
    return f.replace(at, (end == std::string::npos ? f.size() : end) - at,
                     " dp=" + std::to_string(dp));
}

} // namespace

Result<void> Trainer::saveCheckpoint(std::int64_t step, const DataPosition& position) {
    RankCheckpoint ck;
    ck.rank = m_groups.worldRank;
    ck.layout = layoutFingerprint(true);
    ck.step = step;
    ck.position = position;
    ck.rngState = std::to_string(m_config.seed); // data order = f(seed, epoch): no RNG stream
    CheckpointSection params{"params", std::vector<float>(m_stage->paramCount())};
    m_ops.download(params.data.data(), m_stage->params(), params.data.size());
    ck.sections.push_back(std::move(params));
    for (const OptimizerState& s : m_optimizer->state()) {
        CheckpointSection sec{s.name, std::vector<float>(s.count)};
        m_ops.download(sec.data.data(), s.data, s.count);
        ck.sections.push_back(std::move(sec));
    }
    Result<void> written = writeRankCheckpoint(m_config.checkpointDir, ck);
    // Agree before the manifest: it may only exist once every shard is on disk.
    int failing = written ? INT_MAX : m_groups.worldRank;
    if (auto r = m_world.allReduceMin(&failing, 1); !r) {
        return r;
    }
    if (!written) {
        return written;
    }
    if (failing != INT_MAX) {
        return fail(ErrorCode::Io, "rank " + std::to_string(failing) +
                                       " could not write its checkpoint shard of step " +
                                       std::to_string(step));
    }
    if (m_groups.worldRank == 0) {
        CheckpointManifest m;
        m.layout = layoutFingerprint(false);
        m.worldSize = m_world.worldSize();
        m.step = step;
        m.position = position;
        if (auto r = writeCheckpointManifest(m_config.checkpointDir, m); !r) {
            return r;
        }
        spdlog::info("checkpoint of step {} written to {}", step,
                     checkpointStepDir(m_config.checkpointDir, step));
    }
    return barrier(m_world);
}

Result<DataPosition> Trainer::restoreCheckpoint(std::int64_t* step) {
    auto dir = resolveCheckpoint(m_config.resumeFrom);
    if (!dir) {
        return relay(dir);
    }
    auto manifest = readCheckpointManifest(*dir);
    if (!manifest) {
        return relay(manifest);
    }
    const std::string mine = layoutFingerprint(false);
    const int oldDp = fingerprintDp(manifest->layout);
    if (manifest->layout != mine && oldDp > 0 && oldDp != m_config.grid.dp &&
        withDp(mine, oldDp) == manifest->layout) {
        return restoreResharded(*dir, *manifest, oldDp, step); // the same job on fewer replicas
    }
    if (auto r = checkLayoutMatches(*dir, manifest->layout, mine); !r) {
        return relay(r);
    }
    auto ck = readRankCheckpoint(*dir, m_groups.worldRank, layoutFingerprint(true));
    if (!ck) {
        return relay(ck);
    }
    auto load = [&](const std::string& name, float* dst, std::size_t n) -> Result<void> {
        const CheckpointSection* s = ck->find(name);
        if (s == nullptr || s->data.size() != n) {
            return fail(ErrorCode::InvalidArgument,
                        "checkpoint " + *dir + " rank " + std::to_string(m_groups.worldRank) +
                            ": section '" + name + "' is missing or has " +
                            std::to_string(s ? s->data.size() : 0) + " floats instead of " +
                            std::to_string(n));
        }
        m_ops.upload(dst, s->data.data(), n);
        return {};
    };
    if (auto r = load("params", m_stage->params(), m_stage->paramCount()); !r) {
        return relay(r);
    }
    for (const OptimizerState& s : m_optimizer->state()) {
        if (auto r = load(s.name, s.data, s.count); !r) {
            return relay(r);
        }
    }
    m_optimizer->setStepCount(ck->step);
    *step = ck->step;
    spdlog::info("resumed from {} at step {} (epoch {}, batch {})", *dir, ck->step,
                 ck->position.epoch, ck->position.batchInEpoch);
    return ck->position;
}

Result<DataPosition> Trainer::restoreResharded(const std::string& dir,
                                               const CheckpointManifest& manifest, int oldDp,
                                               std::int64_t* step) {
    // The shards of this rank's (stage, tp) place in the old grid, in old DP order: replica 0
    // holds the parameters every replica had; with ZeRO-1 each holds its slice of the state.
    const GridShape& now = m_config.grid;
    std::vector<RankCheckpoint> old;
    for (int d = 0; d < oldDp; ++d) {
        const int rank = (d * now.pp + m_groups.stage) * now.tp + m_groups.tpRank;
        auto ck = readRankCheckpoint(dir, rank);
        if (!ck) {
            return relay(ck);
        }
        old.push_back(std::move(*ck));
        if (m_config.zeroStage == 0) {
            break; // every replica's state is the same: the first one's is enough
        }
    }
    const std::size_t n = m_stage->paramCount();
    // The full n floats of `name`: replica 0's, or the old ZeRO-1 slices put back together.
    auto full = [&](const std::string& name) -> Result<std::vector<float>> {
        std::vector<float> out;
        for (std::size_t d = 0; d < old.size(); ++d) {
            const CheckpointSection* sec = old[d].find(name);
            const auto [b, e] = m_config.zeroStage == 0 || name == "params"
                                    ? std::pair<std::size_t, std::size_t>{0, n}
                                    : Optimizer::shardRange(n, int(d), oldDp);
            if (sec == nullptr || sec->data.size() != e - b) {
                return fail(ErrorCode::InvalidArgument,
                            "checkpoint " + dir + " (data parallel " + std::to_string(oldDp) +
                                "): section '" + name + "' of replica " + std::to_string(d) +
                                " is missing or has " + std::to_string(sec ? sec->data.size() : 0) +
                                " floats instead of " + std::to_string(e - b));
            }
            out.insert(out.end(), sec->data.begin(), sec->data.end());
            if (name == "params") {
                break;
            }
        }
        return out;
    };
    auto params = full("params");
    if (!params) {
        return relay(params);
    }
    m_ops.upload(m_stage->params(), params->data(), n);
    for (const OptimizerState& s : m_optimizer->state()) {
        auto state = full(s.name);
        if (!state) {
            return relay(state);
        }
        m_ops.upload(s.data, state->data() + m_optimizer->begin(), s.count);
    }
    m_optimizer->setStepCount(manifest.step);
    *step = manifest.step;
    spdlog::info("resumed from {} at step {} (epoch {}, batch {}), resharded from data parallel "
                 "{} to {}",
                 dir, manifest.step, manifest.position.epoch, manifest.position.batchInEpoch, oldDp,
                 now.dp);
    return manifest.position;
}

} // namespace tessera::train
