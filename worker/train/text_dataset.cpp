// Character-level text dataset: UTF-8 validation, code-point vocabulary, context windows
// (see text_dataset.h).
#include "worker/train/text_dataset.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>

namespace tessera::train {

namespace {

Failure badUtf8(const std::string& source, std::size_t offset) {
    return fail(ErrorCode::InvalidArgument, source + ": invalid UTF-8 at byte offset " +
                                                std::to_string(offset) +
                                                " (the text dataset needs a UTF-8 text file)");
}

std::string hexCodePoint(char32_t cp) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "U+%04X", unsigned(cp));
    return buf;
}

} // namespace

Result<std::vector<char32_t>> decodeUtf8(std::string_view utf8, const std::string& sourceName) {
    std::vector<char32_t> out;
    out.reserve(utf8.size());
    const auto* s = reinterpret_cast<const unsigned char*>(utf8.data());
    const std::size_t n = utf8.size();
    std::size_t i = 0;
    while (i < n) {
        const unsigned char b = s[i];
        if (b < 0x80) {
            out.push_back(b);
            ++i;
            continue;
        }
        int len = 0;
        char32_t cp = 0;
        char32_t minimum = 0;
        if ((b & 0xE0) == 0xC0) {
            len = 2, cp = b & 0x1F, minimum = 0x80;
        } else if ((b & 0xF0) == 0xE0) {
            len = 3, cp = b & 0x0F, minimum = 0x800;
        } else if ((b & 0xF8) == 0xF0) {
            len = 4, cp = b & 0x07, minimum = 0x10000;
        } else {
            return badUtf8(sourceName, i); // stray continuation byte or 0xF8..0xFF
        }
        if (i + std::size_t(len) > n) {
            return badUtf8(sourceName, i); // truncated sequence at the end
        }
        for (int k = 1; k < len; ++k) {
            const unsigned char c = s[i + std::size_t(k)];
            if ((c & 0xC0) != 0x80) {
                return badUtf8(sourceName, i);
            }
            cp = (cp << 6) | (c & 0x3F);
        }
        // RFC 3629: no overlong forms, no UTF-16 surrogates, nothing above U+10FFFF.
        if (cp < minimum || (cp >= 0xD800 && cp <= 0xDFFF) || cp > 0x10FFFF) {
            return badUtf8(sourceName, i);
        }
        out.push_back(cp);
        i += std::size_t(len);
    }
    return out;
}

void appendUtf8(std::string& out, char32_t cp) {
    if (cp < 0x80) {
        out += char(cp);
    } else if (cp < 0x800) {
        out += char(0xC0 | (cp >> 6));
        out += char(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        out += char(0xE0 | (cp >> 12));
        out += char(0x80 | ((cp >> 6) & 0x3F));
        out += char(0x80 | (cp & 0x3F));
    } else {
        out += char(0xF0 | (cp >> 18));
        out += char(0x80 | ((cp >> 12) & 0x3F));
        out += char(0x80 | ((cp >> 6) & 0x3F));
        out += char(0x80 | (cp & 0x3F));
    }
}

Result<std::unique_ptr<TextDataset>> TextDataset::load(const std::string& path, int context) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) {
        return fail(ErrorCode::NotFound,
                    "text dataset file " + path +
                        " does not exist or is not a file: set dataset.path to a UTF-8 text file");
    }
    const auto bytes = std::filesystem::file_size(path, ec);
    if (ec) {
        return fail(ErrorCode::Io, "cannot read the size of " + path + ": " + ec.message());
    }
    if (std::int64_t(bytes) > kMaxBytes) {
        return fail(ErrorCode::InvalidArgument,
                    "text dataset file " + path + " has " + std::to_string(bytes) +
                        " bytes, more than the limit of " + std::to_string(kMaxBytes) +
                        ": use a shorter text (cut it with head -c)");
    }
    std::ifstream in(path, std::ios::binary);
    std::string text;
    if (in) {
        text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    }
    if (!in && !in.eof()) {
        return fail(ErrorCode::Io, "cannot read text dataset file " + path);
    }
    return fromText(text, context, path);
}

Result<std::unique_ptr<TextDataset>> TextDataset::fromText(std::string_view utf8, int context,
                                                           const std::string& sourceName) {
    if (context < 1) {
        return fail(ErrorCode::InvalidArgument,
                    "the text dataset needs a context of at least 1 character (got " +
                        std::to_string(context) + ")");
    }
    if (utf8.empty()) {
        return fail(ErrorCode::InvalidArgument,
                    "text dataset file " + sourceName + " is empty: point dataset.path at a text");
    }
    auto cps = decodeUtf8(utf8, sourceName);
    if (!cps) {
        return relay(cps);
    }
    const std::int64_t chars = std::int64_t(cps->size());
    const std::int64_t needed = 10 * (std::int64_t(context) + 1);
    if (chars < needed) {
        return fail(ErrorCode::InvalidArgument,
                    "text dataset file " + sourceName + " has " + std::to_string(chars) +
                        " characters; a context of " + std::to_string(context) +
                        " needs at least " + std::to_string(needed) +
                        " (one window of context + 1 characters in the last 10%, the test "
                        "split): use a longer text or a smaller model.context");
    }
    std::unique_ptr<TextDataset> d(new TextDataset());
    d->m_source = sourceName;
    d->m_context = context;
    d->m_vocab = *cps;
    std::sort(d->m_vocab.begin(), d->m_vocab.end());
    d->m_vocab.erase(std::unique(d->m_vocab.begin(), d->m_vocab.end()), d->m_vocab.end());
    d->m_ids.resize(cps->size());
    for (std::size_t i = 0; i < cps->size(); ++i) {
        d->m_ids[i] = int(std::lower_bound(d->m_vocab.begin(), d->m_vocab.end(), (*cps)[i]) -
                          d->m_vocab.begin());
    }
    d->m_trainChars = chars * 9 / 10;
    return d;
}

std::int64_t TextDataset::size(Split split) const {
    const std::int64_t chars =
        split == Split::Train ? m_trainChars : std::int64_t(m_ids.size()) - m_trainChars;
    return chars > m_context ? (chars - 1) / m_context : 0;
}

void TextDataset::fill(Split split, const int* indices, int n, float* hostInputs,
                       float* hostLabels) const {
    const std::size_t origin = split == Split::Train ? 0 : std::size_t(m_trainChars);
    const std::size_t T = std::size_t(m_context);
    for (int i = 0; i < n; ++i) {
        const int* w = m_ids.data() + origin + std::size_t(indices[i]) * T;
        float* x = hostInputs + std::size_t(i) * T;
        float* y = hostLabels + std::size_t(i) * T;
        for (std::size_t t = 0; t < T; ++t) {
            x[t] = float(w[t]);
            y[t] = float(w[t + 1]);
        }
    }
}

std::string TextDataset::decode(std::span<const int> ids) const {
    std::string out;
    out.reserve(ids.size());
    for (int id : ids) {
        appendUtf8(out, id >= 0 && std::size_t(id) < m_vocab.size() ? m_vocab[std::size_t(id)]
                                                                    : char32_t(0xFFFD));
    }
    return out;
}

Result<std::vector<int>> TextDataset::encode(std::string_view utf8) const {
    auto cps = decodeUtf8(utf8, "text to encode");
    if (!cps) {
        return relay(cps);
    }
    std::vector<int> ids;
    ids.reserve(cps->size());
    for (char32_t cp : *cps) {
        const auto it = std::lower_bound(m_vocab.begin(), m_vocab.end(), cp);
        if (it == m_vocab.end() || *it != cp) {
            return fail(ErrorCode::InvalidArgument, "character " + hexCodePoint(cp) +
                                                        " is not in the vocabulary of " + m_source);
        }
        ids.push_back(int(it - m_vocab.begin()));
    }
    return ids;
}

} // namespace tessera::train
