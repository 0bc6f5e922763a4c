// A strict JSON syntax checker that says where a text breaks (see json_syntax.h).
#include "worker/common/json_syntax.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <string>
#include <unordered_map>
#include <vector>

namespace tessera {

namespace {

constexpr int kMaxDepth = 512;
constexpr const char* kReplacement = "\xEF\xBF\xBD"; // U+FFFD

/// Length of the well-formed UTF-8 sequence at `i` (RFC 3629), 0 if the byte there starts none;
/// the code point goes to `cp`.
std::size_t utf8At(std::string_view s, std::size_t i, char32_t* cp) {
    const auto b = [&](std::size_t k) {
        return static_cast<unsigned char>(s[k]);
    };
    const unsigned char c = b(i);
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    std::size_t n = 0;
    char32_t v = 0;
    char32_t min = 0;
    if ((c & 0xE0) == 0xC0) {
        n = 2, v = c & 0x1F, min = 0x80;
    } else if ((c & 0xF0) == 0xE0) {
        n = 3, v = c & 0x0F, min = 0x800;
    } else if ((c & 0xF8) == 0xF0) {
        n = 4, v = c & 0x07, min = 0x10000;
    } else {
        return 0;
    }
    if (i + n > s.size()) {
        return 0;
    }
    for (std::size_t k = 1; k < n; ++k) {
        if ((b(i + k) & 0xC0) != 0x80) {
            return 0;
        }
        v = (v << 6) | (b(i + k) & 0x3F);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) {
        return 0;
    }
    *cp = v;
    return n;
}

/// Columns a character takes in a terminal: 2 for East Asian wide ones, else 1.
int cellWidth(char32_t c) {
    return (c >= 0x1100 && c <= 0x115F) || (c >= 0x2E80 && c <= 0xA4CF) ||
                   (c >= 0xAC00 && c <= 0xD7A3) || (c >= 0xF900 && c <= 0xFAFF) ||
                   (c >= 0xFE30 && c <= 0xFE4F) || (c >= 0xFF00 && c <= 0xFF60) ||
                   (c >= 0xFFE0 && c <= 0xFFE6) || (c >= 0x1F300 && c <= 0x1F64F) ||
                   (c >= 0x20000 && c <= 0x3FFFD)
               ? 2
               : 1;
}

/// The character at `i` quoted for a message: 'x', or U+00E9 / byte 0xFF when not plain ASCII.
std::string quoted(std::string_view s, std::size_t i) {
    char buf[32];
    char32_t cp = 0;
    const std::size_t n = utf8At(s, i, &cp);
    if (n == 0) {
        std::snprintf(buf, sizeof buf, "the byte 0x%02X (not UTF-8)",
                      static_cast<unsigned char>(s[i]));
    } else if (cp >= 0x21 && cp < 0x7F) {
        std::snprintf(buf, sizeof buf, "'%c'", char(cp));
    } else {
        std::snprintf(buf, sizeof buf, "U+%04X", unsigned(cp));
    }
    return buf;
}

class Checker {
public:
    explicit Checker(std::string_view text) : m_s(text) {}

    std::optional<JsonSyntaxError> run() {
        if (m_s.substr(0, 3) == "\xEF\xBB\xBF") {
            m_i = 3; // a byte order mark, as some editors write
        }
        skipSpace();
        if (m_i >= m_s.size()) {
            return at(0, "the file holds no JSON (it is empty or only white space)");
        }
        if (!value(0)) {
            return m_error;
        }
        skipSpace();
        if (m_i < m_s.size()) {
            return at(m_i, "unexpected " + quoted(m_s, m_i) +
                               " after the end of the JSON value: remove it, or wrap the values "
                               "in one object");
        }
        return std::nullopt;
    }

private:
    bool value(int depth) {
        if (depth > kMaxDepth) {
            return fail(m_i, "nested more than 512 levels deep");
        }
        skipSpace();
        if (m_i >= m_s.size()) {
            return fail(endOfContent(), "the file ends where a value is expected");
        }
        const char c = m_s[m_i];
        if (c == '{' || c == '[') {
            return container(depth);
        }
        if (c == '"') {
            return string();
        }
        if (c == '-' || (c >= '0' && c <= '9')) {
            return number();
        }
        for (std::string_view word : {"true", "false", "null"}) {
            if (m_s.substr(m_i, word.size()) == word) {
                m_i += word.size();
                return true;
            }
        }
        if (c == '\'') {
            return fail(m_i, "a single quote: JSON strings and field names use double quotes");
        }
        return fail(m_i, "unexpected " + quoted(m_s, m_i) +
                             ": expected a value (a string in double quotes, a number, true, "
                             "false, null, an object or an array)");
    }

    // An object or array; the opening bracket is at m_i.
    bool container(int depth) {
        const bool object = m_s[m_i] == '{';
        const char close = object ? '}' : ']';
        const std::size_t open = m_i++;
        const std::string what = object ? "object" : "array";
        // Field names as written (between the quotes) and where each first came: protobuf's
        // parser keeps the last of two, so a second "command" would silently win.
        std::unordered_map<std::string_view, std::size_t> names;
        skipSpace();
        if (m_i < m_s.size() && m_s[m_i] == close) {
            ++m_i;
            return true;
        }
        for (;;) {
            if (object) {
                skipSpace();
                if (m_i >= m_s.size()) {
                    return unclosed(open, what, close);
                }
                if (m_s[m_i] == '\'') {
                    return fail(m_i, "a single quote: field names are in double quotes");
                }
                if (m_s[m_i] != '"') {
                    return fail(m_i, "unexpected " + quoted(m_s, m_i) +
                                         ": expected a field name in double quotes");
                }
                const std::size_t nameAt = m_i;
                if (!string()) {
                    return false;
                }
                if (!firstTime(names, nameAt)) {
                    return false;
                }
                skipSpace();
                if (m_i >= m_s.size()) {
                    return unclosed(open, what, close);
                }
                if (m_s[m_i] != ':') {
                    return fail(m_i, "unexpected " + quoted(m_s, m_i) +
                                         ": expected ':' after the field name");
                }
                ++m_i;
            }
            if (!value(depth + 1)) {
                return false;
            }
            skipSpace();
            if (m_i >= m_s.size()) {
                return unclosed(open, what, close);
            }
            if (m_s[m_i] == close) {
                ++m_i;
                return true;
            }
            if (m_s[m_i] != ',') {
                return fail(m_i, std::string("unexpected ") + quoted(m_s, m_i) +
                                     ": expected ',' or '" + close + "' after " +
                                     (object ? "a field's value" : "an array element") +
                                     " (a comma is missing?)");
            }
            const std::size_t comma = m_i++;
            skipSpace();
            if (m_i < m_s.size() && m_s[m_i] == close) {
                return fail(comma, std::string("a comma before '") + close +
                                       "': JSON allows no trailing comma, remove it");
            }
        }
    }

    /// Records the field name whose opening quote is at `nameAt` (the string ends at m_i);
    /// false, with the error set, when the object already has it.
    bool firstTime(std::unordered_map<std::string_view, std::size_t>& names, std::size_t nameAt) {
        const std::string_view name = m_s.substr(nameAt + 1, m_i - nameAt - 2);
        const auto [it, inserted] = names.emplace(name, nameAt);
        if (inserted) {
            return true;
        }
        const int firstLine =
            1 + int(std::count(m_s.begin(), m_s.begin() + std::ptrdiff_t(it->second), '\n'));
        return fail(nameAt, "the field \"" + printableUtf8(name, 60) +
                                "\" appears twice in one object (first on line " +
                                std::to_string(firstLine) +
                                "): JSON names each field once, remove one of them");
    }

    bool string() {
        const std::size_t open = m_i++;
        while (m_i < m_s.size()) {
            const auto c = static_cast<unsigned char>(m_s[m_i]);
            if (c == '"') {
                ++m_i;
                return true;
            }
            if (c == '\\') {
                if (!escape()) {
                    return false;
                }
                continue;
            }
            if (c < 0x20) {
                return fail(m_i, c == '\n' ? "the string has no closing double quote on its line"
                                 : c == '\t'
                                     ? "a tab inside a string: write it as \\t"
                                     : "a control character inside a string: escape it (\\u00XX)");
            }
            char32_t cp = 0;
            const std::size_t n = utf8At(m_s, m_i, &cp);
            if (n == 0) {
                char byte[8];
                std::snprintf(byte, sizeof byte, "0x%02X", c);
                return fail(m_i, std::string("the byte ") + byte +
                                     " in a string is not UTF-8: save the file as UTF-8");
            }
            m_i += n;
        }
        return unclosed(open, "string", '"');
    }

    bool escape() {
        const std::size_t at = m_i++;
        if (m_i >= m_s.size()) {
            return fail(at, "the file ends inside an escape sequence");
        }
        const char e = m_s[m_i++];
        if (e == 'u') {
            for (int k = 0; k < 4; ++k, ++m_i) {
                if (m_i >= m_s.size() || !std::isxdigit(static_cast<unsigned char>(m_s[m_i]))) {
                    return fail(at, "\\u needs four hex digits (\\u00e9)");
                }
            }
            return true;
        }
        if (std::string_view("\"\\/bfnrt").find(e) == std::string_view::npos) {
            return fail(at, "unknown escape \\" + std::string(1, e) +
                                " (JSON has \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX; a Windows "
                                "path needs \\\\ or /)");
        }
        return true;
    }

    bool number() {
        const std::size_t start = m_i;
        const auto digit = [&] {
            return m_i < m_s.size() && m_s[m_i] >= '0' && m_s[m_i] <= '9';
        };
        const auto digits = [&] {
            const std::size_t from = m_i;
            while (digit()) {
                ++m_i;
            }
            return m_i > from;
        };
        if (m_s[m_i] == '-') {
            ++m_i;
        }
        if (m_i < m_s.size() && m_s[m_i] == '0') {
            ++m_i;
        } else if (!digits()) {
            return fail(start, "a '-' that starts no number");
        }
        if (m_i < m_s.size() && m_s[m_i] == '.') {
            ++m_i;
            if (!digits()) {
                return fail(start, "a number needs digits after its '.' (0.5, not 0. or .5)");
            }
        }
        if (m_i < m_s.size() && (m_s[m_i] == 'e' || m_s[m_i] == 'E')) {
            ++m_i;
            if (m_i < m_s.size() && (m_s[m_i] == '+' || m_s[m_i] == '-')) {
                ++m_i;
            }
            if (!digits()) {
                return fail(start, "a number's exponent needs digits (1e-3)");
            }
        }
        if (digit()) {
            return fail(start, "a number cannot start with 0 (write 7, not 07)");
        }
        return true;
    }

    bool unclosed(std::size_t open, const std::string& what, char close) {
        const JsonSyntaxError o = *at(open, "");
        return fail(
            endOfContent(),
            "the file ends inside the " + what + " opened at line " + std::to_string(o.line) +
                ", column " + std::to_string(o.column) + ": a " +
                (close == '"' ? std::string("closing \"") : std::string("'") + close + "'") +
                " is missing (is the file cut short?)");
    }

    void skipSpace() {
        while (m_i < m_s.size() &&
               (m_s[m_i] == ' ' || m_s[m_i] == '\t' || m_s[m_i] == '\n' || m_s[m_i] == '\r')) {
            ++m_i;
        }
    }

    // Just after the last character that is not white space: where a cut-short file ends.
    std::size_t endOfContent() const {
        std::size_t e = m_s.size();
        while (e > 0 && (m_s[e - 1] == ' ' || m_s[e - 1] == '\t' || m_s[e - 1] == '\n' ||
                         m_s[e - 1] == '\r')) {
            --e;
        }
        return e;
    }

    std::optional<JsonSyntaxError> at(std::size_t offset, std::string problem) const {
        JsonSyntaxError e;
        e.offset = offset;
        e.problem = std::move(problem);
        std::size_t lineStart = 0;
        for (std::size_t k = 0; k < offset && k < m_s.size(); ++k) {
            if (m_s[k] == '\n') {
                ++e.line;
                lineStart = k + 1;
            }
        }
        for (std::size_t k = lineStart; k < offset && k < m_s.size();) {
            char32_t cp = 0;
            const std::size_t n = utf8At(m_s, k, &cp);
            k += n == 0 ? 1 : n;
            ++e.column;
        }
        return e;
    }

    bool fail(std::size_t offset, std::string problem) {
        m_error = at(offset, std::move(problem));
        return false;
    }

    std::string_view m_s;
    std::size_t m_i = 0;
    std::optional<JsonSyntaxError> m_error;
};

struct Cell {
    std::string text; // valid UTF-8
    int width;
};

// The characters of one line as shown: invalid bytes as U+FFFD, tabs and controls as a space.
std::vector<Cell> cells(std::string_view line) {
    std::vector<Cell> out;
    for (std::size_t k = 0; k < line.size();) {
        char32_t cp = 0;
        const std::size_t n = utf8At(line, k, &cp);
        if (n == 0) {
            out.push_back({kReplacement, 1});
            ++k;
            continue;
        }
        if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp < 0xA0)) {
            out.push_back({" ", 1});
        } else {
            out.push_back({std::string(line.substr(k, n)), cellWidth(cp)});
        }
        k += n;
    }
    return out;
}

} // namespace

std::optional<JsonSyntaxError> findJsonSyntaxError(std::string_view text) {
    return Checker(text).run();
}

std::string describeJsonSyntaxError(std::string_view text, const JsonSyntaxError& error,
                                    const std::string& origin) {
    std::string out = origin + ":" + std::to_string(error.line) + ":" +
                      std::to_string(error.column) + ": not valid JSON: " + error.problem;
    // The line of the error.
    std::size_t start = std::min(error.offset, text.size());
    while (start > 0 && text[start - 1] != '\n') {
        --start;
    }
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) {
        end = text.size();
    }
    const std::vector<Cell> line = cells(text.substr(start, end - start));
    const std::size_t col = std::min<std::size_t>(std::size_t(error.column - 1), line.size());
    constexpr std::size_t kBefore = 50, kShown = 80;
    const std::size_t from = col > kBefore ? col - kBefore : 0;
    const std::size_t to = std::min(line.size(), from + kShown);
    std::string excerpt = from > 0 ? "…" : "";
    std::string caret(from > 0 ? 1 : 0, ' ');
    for (std::size_t k = from; k < to; ++k) {
        excerpt += line[k].text;
        if (k < col) {
            caret.append(std::size_t(line[k].width), ' ');
        }
    }
    if (to < line.size()) {
        excerpt += "…";
    }
    out += "\n  " + excerpt + "\n  " + caret + "^";
    return out;
}

std::string printableUtf8(std::string_view bytes, std::size_t maxChars) {
    std::string out;
    std::size_t chars = 0;
    for (const Cell& c : cells(bytes)) {
        if (chars++ == maxChars) {
            out += "…";
            break;
        }
        out += c.text;
    }
    return out;
}

} // namespace tessera
