// Fuzz target: the worker's reader of TensorBoard event files (TFRecord frames, Event messages,
// scalars), which a user's program writes at will and the worker reads while it is written.
// The input is fed in pieces (sizes from its first byte), as a file grows between two polls.
#include "tests/fuzz/fuzz_input.h"
#include "worker/daemon/tensorboard/event_stream.h"

#include <cmath>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) {
        return 0;
    }
    const std::size_t piece = 1 + data[0] % 64;
    const std::string text = tessera::fuzz::inputText(data + 1, size - 1);
    tessera::daemon::EventStream stream;
    std::uint64_t offset = 0;
    for (std::size_t at = 0; at < text.size(); at += piece) {
        tessera::daemon::EventStream::Output out;
        stream.feed(std::string_view(text).substr(at, piece), out);
        for (const tessera::daemon::EventScalar& s : out.scalars) {
            if (!std::isfinite(s.value) || s.step < 0 || s.tag.empty()) {
                __builtin_trap(); // the stream promises finite values, steps ≥ 0, named tags
            }
        }
        if (stream.readOffset() < offset ||
            stream.pendingBytes() > tessera::daemon::EventStream::kMaxRecordBytes + 16 ||
            out.problems.size() > tessera::daemon::EventStream::kMaxProblems + 1) {
            __builtin_trap(); // reading never goes back; what is held and said is bounded
        }
        offset = stream.readOffset();
    }
    (void)stream.unfinished();
    return 0;
}
