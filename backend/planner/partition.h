// Inside the planner: balanced contiguous stage boundaries for auto-plan.
#pragma once

#include <utility>
#include <vector>

namespace tessera::planner::detail {

/// Splits layers 0..cost.size()-1 into `stages` contiguous non-empty inclusive ranges whose
/// largest summed cost is as small as possible (exact dynamic programme, O(stages · n²)).
/// `stages` is clamped to 1..n.
std::vector<std::pair<int, int>> balancedStages(const std::vector<double>& cost, int stages);

} // namespace tessera::planner::detail
