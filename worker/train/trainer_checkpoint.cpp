// Trainer checkpoints (see trainer.h and checkpoint.h): every rank writes its shard (its stage's
// parameters and its ZeRO slice of the optimizer state), all ranks meet, rank 0 writes the
// manifest; resume reads them back and checks the layout fingerprint.
#include "worker/train/trainer.h"

#include <spdlog/spdlog.h>

#include <climits>

namespace tessera::train {

namespace {

// Every rank of `comm` arrives before any leaves (an all-reduce of one int).
Result<void> barrier(Communicator& comm) {
    int x = 0;
    return comm.allReduceMin(&x, 1);
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
    if (auto r = checkLayoutMatches(*dir, manifest->layout, layoutFingerprint(false)); !r) {
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

} // namespace tessera::train
