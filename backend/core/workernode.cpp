// Names and display texts of worker node states (see workernode.h).
#include "backend/core/workernode.h"

#include "backend/core/statetext.h"

#include <QCoreApplication>

#include <array>
#include <cstddef>

namespace tessera {

namespace {

constexpr std::array<StateWord, 4> kNodeStates = {{
    QT_TRANSLATE_NOOP3("tessera::StateText", "connecting", "worker state"),
    QT_TRANSLATE_NOOP3("tessera::StateText", "ready", "worker state"),
    QT_TRANSLATE_NOOP3("tessera::StateText", "unreachable", "worker state"),
    QT_TRANSLATE_NOOP3("tessera::StateText", "stopped", "worker state"),
}};

} // namespace

QString nodeStateName(NodeState state) {
    return QString::fromLatin1(stateWord(kNodeStates, std::size_t(state)).source);
}

QString nodeStateText(NodeState state) {
    return stateText(stateWord(kNodeStates, std::size_t(state)));
}

} // namespace tessera
