// mpirun --tag-output → whole lines per rank (see tagged_output.h).
#include "worker/daemon/output/tagged_output.h"

#include <cctype>
#include <utility>

namespace tessera::daemon {

namespace {
constexpr std::size_t kMaxDigits = 9; // job and rank numbers of a tag: up to 999,999,999
} // namespace

TaggedOutput::TaggedOutput(std::string stream, std::size_t maxLineBytes, LineSink sink)
    : m_tagWord("<" + std::move(stream) + ">:"), m_maxLine(maxLineBytes ? maxLineBytes : 1),
      m_sink(std::move(sink)) {}

int TaggedOutput::matchTag() const {
    // "[" digits "," digits "]" m_tagWord
    std::size_t i = 1;
    for (int field = 0; field < 2; ++field) {
        const std::size_t start = i;
        while (i < m_pending.size() && std::isdigit(static_cast<unsigned char>(m_pending[i]))) {
            ++i;
        }
        if (i - start > kMaxDigits) {
            return 0;
        }
        if (i == m_pending.size()) {
            return 1;
        }
        if (i == start || m_pending[i] != (field == 0 ? ',' : ']')) {
            return 0;
        }
        ++i;
    }
    for (std::size_t k = 0; i < m_pending.size(); ++i, ++k) {
        if (k >= m_tagWord.size() || m_pending[i] != m_tagWord[k]) {
            return 0;
        }
        if (k + 1 == m_tagWord.size()) {
            return i + 1 == m_pending.size() ? 2 : 0;
        }
    }
    return 1;
}

void TaggedOutput::setRank(int rank) {
    m_rank = rank;
    m_line = nullptr;
}

void TaggedOutput::content(char c) {
    if (!m_line) {
        m_line = &m_partial[m_rank];
    }
    std::string& line = *m_line;
    if (c == '\n') {
        std::string done = std::move(line);
        m_partial.erase(m_rank);
        const int rank = m_rank;
        setRank(-1); // the next line of any rank starts with its tag
        m_sink(rank, done);
        return;
    }
    line.push_back(c);
    if (line.size() >= m_maxLine) {
        std::string piece = std::move(line);
        line.clear();
        m_sink(m_rank, piece);
    }
}

void TaggedOutput::flushPending() {
    // Not a tag: its '[' is text; the rest may hold the start of a real tag.
    const std::string rest = m_pending.substr(1);
    m_pending.clear();
    content('[');
    feed(rest);
}

void TaggedOutput::feed(std::string_view chunk) {
    for (std::size_t i = 0; i < chunk.size(); ++i) {
        const char c = chunk[i];
        if (m_pending.empty() && c != '[') {
            content(c);
            continue;
        }
        m_pending.push_back(c);
        const int match = matchTag();
        if (match == 2) {
            const std::size_t comma = m_pending.find(',');
            setRank(std::stoi(m_pending.substr(comma + 1)));
            m_pending.clear();
        } else if (match == 0) {
            flushPending();
        }
    }
}

void TaggedOutput::finish() {
    if (!m_pending.empty()) {
        const std::string text = std::move(m_pending);
        m_pending.clear();
        for (char c : text) {
            content(c);
        }
    }
    auto partial = std::move(m_partial);
    m_partial.clear();
    setRank(-1);
    for (auto& [rank, line] : partial) {
        if (!line.empty()) {
            m_sink(rank, line);
        }
    }
}

} // namespace tessera::daemon
