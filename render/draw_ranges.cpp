#include "render/draw_ranges.hpp"

#include <algorithm>
#include <cmath>

namespace nbody::render {

std::vector<ComponentRun> component_runs(const float* component, std::size_t n) {
  std::vector<ComponentRun> runs;
  for (std::size_t i = 0; i < n; ++i) {
    const int c = std::clamp(static_cast<int>(std::lround(component[i])), 0, 5);
    if (!runs.empty() && runs.back().component == c) {
      ++runs.back().count;
      continue;
    }
    if (runs.size() == kMaxComponentRuns) return {};
    runs.push_back({i, 1, c});
  }
  return runs;
}

DrawRanges shown_ranges(const std::vector<ComponentRun>& runs, const float gain[6]) {
  DrawRanges d;
  if (runs.empty()) return d;
  const bool every = std::all_of(runs.begin(), runs.end(),
                                 [&](const ComponentRun& r) { return gain[r.component] > 0; });
  if (every) return d;
  d.all = false;
  for (const ComponentRun& r : runs) {
    if (!(gain[r.component] > 0)) continue;
    const int first = static_cast<int>(r.first), count = static_cast<int>(r.count);
    if (!d.first.empty() && d.first.back() + d.count.back() == first)
      d.count.back() += count;
    else
      d.first.push_back(first), d.count.push_back(count);
  }
  return d;
}

}  // namespace nbody::render
