// Inside the planner: balanced contiguous stage boundaries and degree candidates for auto-plan.
#pragma once

#include <utility>
#include <vector>

namespace tessera::planner::detail {

/// Splits layers 0..cost.size()-1 into `stages` contiguous non-empty inclusive ranges whose
/// largest summed cost is as small as possible (exact dynamic programme, O(stages · n²)).
/// `stages` is clamped to 1..n.
std::vector<std::pair<int, int>> balancedStages(const std::vector<double>& cost, int stages);

/// The positive divisors of n in increasing order (empty for n < 1): the degrees that split n
/// devices, or a batch of n samples, evenly.
std::vector<int> divisors(int n);

} // namespace tessera::planner::detail
