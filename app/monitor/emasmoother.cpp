// Debiased EMA, point by point (see emasmoother.h).
#include "app/monitor/emasmoother.h"

#include <algorithm>
#include <cmath>

namespace tessera {

void EmaSmoother::setWeight(double weight) {
    m_weight = std::clamp(std::isfinite(weight) ? weight : 0.0, 0.0, 0.999);
}

double EmaSmoother::add(double y) {
    if (!std::isfinite(y)) {
        return y;
    }
    m_last = m_last * m_weight + (1.0 - m_weight) * y;
    ++m_count;
    const double debias = 1.0 - std::pow(m_weight, double(m_count));
    return debias > 0 ? m_last / debias : y;
}

void EmaSmoother::reset() {
    m_last = 0;
    m_count = 0;
}

} // namespace tessera
