// Test-set evaluation through the pipeline (forwards only) and GPT text sampling (see
// trainer.h).
#include "worker/train/trainer.h"

#include "worker/train/random_util.h"
#include "worker/train/text_dataset.h"

#include <algorithm>
#include <cmath>

namespace tessera::train {

namespace {

// p2p tag of evaluation activations into model chunk c: kEvalTag + c (ordered per peer pair).
constexpr int kEvalTag = kMaxPipelineTag;

} // namespace

Result<void> Trainer::evaluatePiece(const int* indices, int n, int slot, int chunk,
                                    double sums[2]) {
    const bool first = firstVirtual(chunk), last = lastVirtual(chunk);
    if (auto r = waitSend(m_actSends, chunk * m_stage->slots() + slot); !r) {
        return r;
    }
    if (first || last) {
        loadMicroBatch(Split::Test, indices, n, slot, first, last);
    }
    if (!first) {
        if (auto r = m_world.recv(m_stage->input(slot, chunk),
                                  std::size_t(n) * std::size_t(m_stage->inputSize(chunk)),
                                  prevVirtualRank(), kEvalTag + chunk);
            !r) {
            return r;
        }
    }
    if (auto r = m_stage->forward(slot, n, chunk); !r) {
        return r;
    }
    if (!last) { // the next virtual stage's chunk (on the next rank) takes tag kEvalTag + its chunk
        const int nextChunk = m_groups.lastStage() ? chunk + 1 : chunk;
        auto id = m_world.iSend(m_stage->output(slot, chunk),
                                std::size_t(n) * std::size_t(m_stage->outputSize(chunk)),
                                nextVirtualRank(), kEvalTag + nextChunk);
        if (!id) {
            return relay(id);
        }
        m_actSends[std::size_t(chunk * m_stage->slots() + slot)] = *id;
    } else if (m_groups.tpRank == 0) {
        const int rows = n * m_rows;
        float* logits = m_stage->output(slot, chunk);
        m_ops.crossEntropyForward(m_losses, m_probs, logits, m_labels[std::size_t(slot)], rows,
                                  m_classes);
        sums[0] += m_ops.sum(m_losses, std::size_t(rows));
        if (m_rows == 1) {
            sums[1] +=
                double(m_ops.countCorrect(logits, m_labels[std::size_t(slot)], rows, m_classes));
        }
    }
    return {};
}

Result<Trainer::Evaluation> Trainer::evaluate() {
    const std::int64_t total = m_data.testSize();
    const int D = m_config.grid.dp;
    const int V = m_config.virtualStages;
    // This replica's contiguous shard of the test set, in pieces of one micro-batch; each piece
    // goes through the model chunks in model order (chunk v of every pipeline rank, then v + 1).
    const std::int64_t lo = total * m_groups.dpRank / D;
    const std::int64_t hi = total * (m_groups.dpRank + 1) / D;
    const int slots = m_stage->slots();
    std::vector<int> indices(static_cast<std::size_t>(m_microBatch));
    double sums[2] = {0.0, 0.0}; // loss sum, correct predictions
    int piece = 0;
    for (std::int64_t start = lo; start < hi; start += m_microBatch, ++piece) {
        const int n = int(std::min<std::int64_t>(m_microBatch, hi - start));
        const int slot = piece % slots;
        for (int i = 0; i < n; ++i) {
            indices[std::size_t(i)] = int(start + i);
        }
        for (int chunk = 0; chunk < V; ++chunk) {
            if (auto r = evaluatePiece(indices.data(), n, slot, chunk, sums); !r) {
                return relay(r);
            }
        }
    }
    for (std::size_t s = 0; s < m_actSends.size(); ++s) {
        if (auto r = waitSend(m_actSends, int(s)); !r) {
            return relay(r);
        }
    }
    if (auto r = m_world.allReduceSum(sums, 2); !r) {
        return relay(r);
    }
    Evaluation ev;
    ev.loss = sums[0] / (double(total) * m_rows);
    if (m_rows == 1) {
        ev.accuracy = sums[1] / double(total);
    }
    return ev;
}

Result<std::string> Trainer::generateSample() {
    const auto* text = dynamic_cast<const TextDataset*>(&m_data);
    if (text == nullptr || m_data.testSize() < 1) {
        return std::string();
    }
    const int T = text->context();
    const int V = m_classes;
    constexpr double kTemperature = 0.8;
    // Prompt: the first T characters of the test split (its sample 0's inputs).
    const int zero = 0;
    m_data.fill(Split::Test, &zero, 1, m_hostInputs.data(), m_hostLabels.data());
    std::vector<int> window(m_hostInputs.begin(), m_hostInputs.begin() + T);
    std::vector<int> generated;
    std::vector<float> hostWindow(static_cast<std::size_t>(T));
    std::vector<float> logits(static_cast<std::size_t>(V));
    std::vector<double> p(static_cast<std::size_t>(V));
    std::mt19937_64 rng(m_config.seed ^ 0x5A3F1E2D4C6B7A89ull);
    for (int k = 0; k < m_config.sampleChars; ++k) {
        std::copy(window.begin(), window.end(), hostWindow.begin());
        m_ops.upload(m_stage->input(0), hostWindow.data(), std::size_t(T));
        if (auto r = m_stage->forward(0, 1); !r) {
            return relay(r);
        }
        // Logits of the last position predict the next character: (1, T·V) → row T − 1.
        m_ops.download(logits.data(), m_stage->output(0) + std::size_t(T - 1) * V, std::size_t(V));
        const double top = *std::max_element(logits.begin(), logits.end());
        double z = 0.0;
        for (int v = 0; v < V; ++v) {
            p[std::size_t(v)] = std::exp((logits[std::size_t(v)] - top) / kTemperature);
            z += p[std::size_t(v)];
        }
        double u = uniformIn(rng, 0.0, z);
        int next = V - 1;
        for (int v = 0; v < V; ++v) {
            u -= p[std::size_t(v)];
            if (u < 0.0) {
                next = v;
                break;
            }
        }
        generated.push_back(next);
        window.erase(window.begin());
        window.push_back(next);
    }
    std::vector<int> prompt(m_hostInputs.begin(), m_hostInputs.begin() + T);
    std::string out = text->decode(prompt) + text->decode(generated);
    std::string escaped;
    for (char ch : out) {
        if (ch == '\n') {
            escaped += "\u23CE"; // ⏎ keeps the sample on one stdout line
        } else {
            escaped += ch;
        }
    }
    return escaped;
}

} // namespace tessera::train
