// One TensorBoard event file's bytes, fed as they are appended, turned into scalars: TFRecord
// frames (worker/common/tfrecord.h), Event messages (tessera/tb/event.proto), and the scalar
// values of their summaries — PyTorch's `simple_value` and TF2's rank-0 "scalars" tensors.
// Pure: no file access (EventFileTail reads the file), so it can be fuzzed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::daemon {

/// One scalar value of an event file.
struct EventScalar {
    std::int64_t step = 0; ///< the Event's step, 0..2^53
    double wallTime = 0;   ///< the Event's wall_time: seconds since the Unix epoch (may be 0)
    std::string tag;       ///< as written, valid UTF-8, non-empty
    double value = 0;      ///< finite
};

/// The scalars of one file, record by record, as its bytes arrive. Not thread-safe.
class EventStream {
public:
    /// Longest record data read (16 MiB); a longer record is skipped unread (its length's CRC
    /// must match), never allocated. Scalars take a few dozen bytes; images can take megabytes.
    static constexpr std::uint64_t kMaxRecordBytes = std::uint64_t(16) << 20;
    /// Problems reported per file; after them one line says further ones are not.
    static constexpr std::size_t kMaxProblems = 8;
    /// Tags whose plugin is remembered per file (TF2 writes it with a tag's first value only).
    static constexpr std::size_t kMaxTags = 4096;

    /// What a feed() gave: scalars in file order, and problems for a person (without the file's
    /// name: "corrupt record at byte 1234 (its CRC does not match): skipped").
    struct Output {
        std::vector<EventScalar> scalars;
        std::vector<std::string> problems;
    };

    /// The file offset (bytes) where the next bytes to feed start: after the whole records read
    /// and the incomplete one held, or past a skipped over-long record.
    std::uint64_t readOffset() const;
    /// Takes the file's bytes from readOffset() on and appends to `out` the scalars of every
    /// record they complete. A record cut at the end is kept (its bytes held, at most
    /// kMaxRecordBytes + 16) and read when the rest comes. A record whose data CRC does not
    /// match, or that is not an Event, or whose step is outside 0..2^53, is skipped with a
    /// problem; after a header whose length CRC does not match the rest of the file cannot be
    /// framed: one problem says so and later bytes are ignored (stopped()). Values that are not
    /// scalars (images, histograms, text, tensors of another plugin or shape) are left out
    /// silently, as are non-finite ones and values whose tag is empty or not UTF-8.
    void feed(std::string_view bytes, Output& out);
    /// True after a header that cannot be trusted: nothing more is read from this file.
    bool stopped() const { return m_stopped; }
    /// Bytes held of a record the file does not hold whole yet.
    std::size_t pendingBytes() const { return m_buffer.size(); }
    /// At the file's end (the job ended): the problem to report when it ends inside a record
    /// ("ends inside the record at byte N (M bytes of it written): not read"), else nullopt.
    std::optional<std::string> unfinished() const;

private:
    void problem(Output& out, std::string text);
    void decode(std::string_view data, std::uint64_t at, Output& out);

    std::uint64_t m_start = 0;  ///< file offset of m_buffer[0]
    std::uint64_t m_skipTo = 0; ///< past an over-long record: the offset reading goes on at
    std::string m_buffer;       ///< bytes of the record not read whole yet
    bool m_stopped = false;
    std::size_t m_problems = 0;
    std::map<std::string, std::string, std::less<>> m_plugins; ///< tag → plugin name
};

} // namespace tessera::daemon
