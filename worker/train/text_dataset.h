// Character-level language-modelling dataset over a UTF-8 text file: vocabulary = the distinct
// Unicode code points of the file, samples = windows of context + 1 characters.
#pragma once

#include "worker/train/dataset.h"

#include <span>
#include <string_view>
#include <vector>

namespace tessera::train {

/// The whole text held as token ids. Vocabulary: the file's distinct code points sorted by
/// value (deterministic: the same file gives the same ids on every rank and run). The first
/// floor(0.9 · N) characters are the training split, the rest the test split.
/// A sample of a split is the window of context + 1 characters starting at i · context
/// (non-overlapping windows, consecutive windows share one character, so an epoch covers the
/// split once): inputs = the first `context` ids, labels = the next-character id of each
/// position (the window's last `context` ids). size(split) = (chars of split − 1) / context.
class TextDataset final : public Dataset {
public:
    /// At most this many bytes are read (larger files: InvalidArgument naming the limit).
    static constexpr std::int64_t kMaxBytes = 64ll << 20;

    /// Loads and validates `path`. Errors: NotFound (missing file, naming it and the
    /// spec field dataset.path), Io (unreadable), InvalidArgument for a file larger than
    /// kMaxBytes, a bad UTF-8 sequence ("<file>: invalid UTF-8 at byte offset <k>"), an empty file
    /// or one too short for one training and one test window of `context` + 1 characters (the
    /// message says how many characters are needed and to use a longer text or smaller context),
    /// context < 1.
    static Result<std::unique_ptr<TextDataset>> load(const std::string& path, int context);
    /// The same from text in memory; `sourceName` names it in messages.
    static Result<std::unique_ptr<TextDataset>> fromText(std::string_view utf8, int context,
                                                         const std::string& sourceName);

    std::string name() const override { return "text:" + m_source; }
    std::int64_t size(Split split) const override;
    std::int64_t inputSize() const override { return m_context; }
    std::int64_t rowsPerSample() const override { return m_context; }
    std::int64_t classes() const override { return std::int64_t(m_vocab.size()); }
    void fill(Split split, const int* indices, int n, float* hostInputs,
              float* hostLabels) const override;

    int context() const { return m_context; }
    /// Code points of the vocabulary, id order.
    const std::vector<char32_t>& vocabulary() const { return m_vocab; }
    /// Characters in the whole text / the training split.
    std::int64_t characters() const { return std::int64_t(m_ids.size()); }
    std::int64_t trainCharacters() const { return m_trainChars; }

    /// UTF-8 text of token ids (ids outside the vocabulary become U+FFFD).
    std::string decode(std::span<const int> ids) const;
    /// Token ids of UTF-8 text. Errors: InvalidArgument for bad UTF-8 or a character that is not
    /// in the vocabulary (naming it).
    Result<std::vector<int>> encode(std::string_view utf8) const;

private:
    TextDataset() = default;

    std::string m_source;
    int m_context = 0;
    std::vector<char32_t> m_vocab;
    std::vector<int> m_ids;
    std::int64_t m_trainChars = 0;
};

/// Decodes UTF-8 into code points (RFC 3629: no overlongs, no surrogates, <= U+10FFFF).
/// Errors: InvalidArgument "<sourceName>: invalid UTF-8 at byte offset <k>".
Result<std::vector<char32_t>> decodeUtf8(std::string_view utf8, const std::string& sourceName);
/// Appends the UTF-8 encoding of `cp` to `out`.
void appendUtf8(std::string& out, char32_t cp);

} // namespace tessera::train
