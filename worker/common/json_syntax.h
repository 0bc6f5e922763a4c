// Where a JSON text is broken, by line and column, with an excerpt a person can read: protobuf's
// JSON parser says only what went wrong. Strict RFC 8259 (no comments, no trailing commas).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace tessera {

/// The first syntax error of a JSON text.
struct JsonSyntaxError {
    std::size_t offset = 0; ///< byte offset of the problem in the text
    int line = 1;           ///< 1-based
    int column = 1;         ///< 1-based, in characters (code points; an invalid byte counts one)
    std::string problem;    ///< what is wrong and what to do, e.g. "a comma before '}': remove it"
};

/// The first syntax error of `text` (any bytes), or nothing when it is one well-formed JSON value
/// with valid UTF-8 strings (a leading UTF-8 byte order mark is allowed). A field name that
/// appears twice in one object (as written, escapes not decoded) is an error too, naming the
/// field and the line of its first appearance: RFC 8259 §4 says names SHOULD be unique, and
/// protobuf's parser would silently keep the last value. Linear time; nesting deeper than 512
/// levels is an error, never a stack overflow.
std::optional<JsonSyntaxError> findJsonSyntaxError(std::string_view text);

/// The problem as three lines, valid UTF-8 whatever `text` holds:
///     ORIGIN:LINE:COLUMN: not valid JSON: PROBLEM
///       <the line, at most ~80 characters around the column, tabs and controls as spaces>
///       <spaces>^
/// The caret sits under the column in a monospaced font (East Asian wide characters count two).
std::string describeJsonSyntaxError(std::string_view text, const JsonSyntaxError& error,
                                    const std::string& origin);

/// `bytes` as valid UTF-8 for a message: invalid bytes become U+FFFD, control characters a space;
/// at most `maxChars` characters, then "…".
std::string printableUtf8(std::string_view bytes, std::size_t maxChars);

} // namespace tessera
