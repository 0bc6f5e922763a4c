// The words of a state enum (a job's, a worker's, a lease's): each one its stable English name,
// which JSON, the CLI, logs and the history database keep, and its display text in the user's
// language. The tables stand next to their enums (jobtypes.cpp, workernode.cpp, lease.cpp).
#pragma once

#include <QString>

#include <array>
#include <cstddef>

namespace tessera {

/// One state's word as QT_TRANSLATE_NOOP3("tessera::StateText", word, comment) writes it, so that
/// lupdate collects it: `source` is the state's name ("running"), `comment` tells translators
/// which kind of state it is ("job state"; "ready" of a worker and of a lease may read
/// differently).
struct StateWord {
    const char* source;
    const char* comment;
};

/// The translation context of every state word and of providerText().
inline constexpr const char* kStateTextContext = "tessera::StateText";

/// `word` in the user's language: translated by the installed QTranslator, else `source`.
QString stateText(const StateWord& word);

/// The word at `index` of `table`; the last one for an index past its end (a value from a
/// damaged record reads as the table's last state, never out of bounds).
template <std::size_t N>
constexpr const StateWord& stateWord(const std::array<StateWord, N>& table, std::size_t index) {
    return table[index < N ? index : N - 1];
}

} // namespace tessera
