// The colour the designer and the monitor give a pipeline stage.
#pragma once

#include <QColor>

namespace tessera::designer {

/// Colour of pipeline stage `stage`: a qualitative palette (Okabe-Ito, colour-blind safe), light
/// enough for black text. Stages past the palette's eight repeat it.
QColor stageColor(int stage);

} // namespace tessera::designer
