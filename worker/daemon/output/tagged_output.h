// Whole lines per rank out of mpirun's --tag-output stream. Open MPI forwards a rank's output in
// pieces as it reads them from the rank's pty, so a line of one rank can be cut by another rank's
// piece ("…\"pad\":\"xx[1,1]<stdout>:@tessera {…}\n…"): read as plain lines, ~2 % of the lines
// of 4 ranks printing 700-byte records were garbled that way. With --tag-output every piece, and
// every line in it, starts with "[job,rank]<stdout>:" (or <stderr>), so the pieces can be put
// back together per rank.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <string>
#include <string_view>

namespace tessera::daemon {

/// Splits one of mpirun's output streams (stdout or stderr) into lines per rank. Not
/// thread-safe: feed it from the one reader of that stream.
class TaggedOutput {
public:
    /// Receives each complete line without its newline; `rank` is the rank that printed it, or
    /// -1 for text without a tag (mpirun's own messages).
    using LineSink = std::function<void(int rank, const std::string& line)>;

    /// `stream` is "stdout" or "stderr" (the word in the tag); lines longer than `maxLineBytes`
    /// are passed on in pieces of that size.
    TaggedOutput(std::string stream, std::size_t maxLineBytes, LineSink sink);

    /// The next bytes of the stream, cut anywhere (also inside a tag).
    void feed(std::string_view chunk);
    /// The stream ended: passes on every unfinished line.
    void finish();

private:
    void setRank(int rank);
    void content(char c);
    void flushPending();
    /// How much of m_pending is a prefix of a tag: 0 not a tag, 1 still a prefix, 2 a whole tag.
    int matchTag() const;

    std::string m_tagWord; ///< "<stdout>:" or "<stderr>:"
    std::size_t m_maxLine;
    LineSink m_sink;
    int m_rank = -1;                      ///< whose bytes come now
    std::string* m_line = nullptr;        ///< m_partial[m_rank], once looked up
    std::string m_pending;                ///< bytes that may still be a tag
    std::map<int, std::string> m_partial; ///< unfinished line per rank
};

} // namespace tessera::daemon
