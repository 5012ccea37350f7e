#pragma once
// The GPU Barnes-Hut kernel's octree as plain host arrays (no CUDA header), for tests and tools
// that check the tree: node ranges, links, levels, key prefixes and moments, in breadth-first
// order, over the bodies in the sorted order the backend holds them in.

#include <cstdint>
#include <vector>

#include "sim/core/backend.hpp"

namespace nbody::cuda {

/// The tree of the last force evaluation of a `barnes-hut` backend.
struct BarnesHutTree {
  std::vector<std::uint32_t> begin, count;              ///< sorted bodies [begin, begin + count)
  std::vector<std::uint32_t> first_child, child_count;  ///< children (child_count = 0: leaf)
  std::vector<std::uint32_t> level;                     ///< 0 = root .. 21
  std::vector<std::uint64_t> prefix;                    ///< Morton key prefix of the node
  std::vector<std::uint32_t> level_start;  ///< first node of each level, then the node count
  std::vector<double> mass, comx, comy, comz, rcrit2;  ///< moments (in the kernel's precision)
  /// Morton keys of the bodies: the digits of levels 1..sorted_levels (sorted), 0 below them
  std::vector<std::uint64_t> keys;
  int sorted_levels = 21;            ///< the deepest level (its leaves may hold more than a leaf)
  std::vector<std::uint32_t> order;  ///< stored body k is the user's body order[k]
  std::vector<std::uint32_t> group_begin, group_count;  ///< the traversal's groups of bodies
  /// each group's interactions (its bodies x its cells and bodies; one GPU)
  std::vector<std::uint64_t> group_work;
  double x0 = 0, y0 = 0, z0 = 0, side = 0;  ///< the bounding cube
};

/// Downloads the tree of the last force evaluation of `b`; false when `b` is not a `barnes-hut`
/// backend or has not evaluated forces yet.
bool download_barnes_hut_tree(const ForceBackend& b, BarnesHutTree& out);

}  // namespace nbody::cuda
