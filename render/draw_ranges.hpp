#pragma once
// Which bodies the particle renderer submits: only the runs of bodies whose component is shown.
// A hidden component (the galaxies' dark halos by default: 81 % of their bodies) made no
// fragments but still cost a vertex each, and on GPUs with few graphics units (the H100/H200
// draw ~500 M points/s) those vertices were most of an 8.4M-body frame. No GL here.

#include <cstddef>
#include <vector>

namespace nbody::render {

/// A run of consecutive bodies of one component.
struct ComponentRun {
  std::size_t first = 0, count = 0;
  int component = 0;
};

/// At most this many runs are kept; bodies whose components alternate more often are all drawn
/// (the vertex shader still hides the hidden ones).
constexpr std::size_t kMaxComponentRuns = 4096;

/// The runs of equal component (given as floats, as the renderer's buffer holds them) of n
/// bodies; empty when there are more than kMaxComponentRuns.
std::vector<ComponentRun> component_runs(const float* component, std::size_t n);

/// The bodies to draw: `all` (every body, in one call) or the ranges [first, first + count) of
/// the runs whose component's gain is above 0, adjacent ones merged (none: nothing to draw).
struct DrawRanges {
  bool all = true;
  std::vector<int> first, count;
};
DrawRanges shown_ranges(const std::vector<ComponentRun>& runs, const float gain[6]);

}  // namespace nbody::render
