#pragma once
// The host octree of `cpu-barnes-hut`: the tree design of tree_math.hpp (Morton keys, sorted
// bodies, level-by-level build, upward pass, group traversal) on the CPU with OpenMP.
//
// One force evaluation is four calls, in order:
//   sort(x, y, z)            keys of the current bodies and the permutation that sorts them;
//                            the caller gathers its arrays by permutation()
//   build(leaf_size)         the octree of the sorted keys
//   moments(x, y, z, m)      mass, centre of mass, quadrupole and opening radius of every node
//                            (alpha > 0: and its relative opening size)
//   accelerations(...)       group traversal and the sums, for the sorted bodies (alpha > 0:
//                            after a first monopole walk that gives each group its |a|min)
// Every result is bitwise the same whatever the thread count. Buffers are kept between calls,
// so a warm tree does not allocate.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/tree/tree_math.hpp"

namespace nbody::tree {

/// The nodes of an octree in breadth-first order, as a structure of arrays. The children of a
/// node are stored contiguously in octant order; a leaf has no children.
struct Nodes {
  std::vector<std::uint32_t> begin;        ///< first body (index into the sorted bodies)
  std::vector<std::uint32_t> count;        ///< number of bodies
  std::vector<std::uint32_t> first_child;  ///< index of the first child (0 for a leaf)
  std::vector<std::uint8_t> child_count;   ///< number of children (0 for a leaf)
  std::vector<std::uint8_t> level;         ///< 0 for the root, at most kMaxLevel
  std::vector<std::uint64_t> prefix;       ///< the smallest key of the node's cell

  std::size_t size() const { return begin.size(); }
  bool is_leaf(std::size_t i) const { return child_count[i] == 0; }
};

/// Work of one traversal.
struct TraversalWork {
  double interactions = 0;  ///< sum over groups of group bodies * (cells + list bodies)
  double cells = 0;         ///< body-cell interactions
  double bodies = 0;        ///< body-body interactions
  double pre = 0;           ///< alpha > 0: interactions (monopole cells + bodies) of the first walk
};

/// Host Barnes-Hut octree for bodies in precision T (float or double).
template <typename T>
class Octree {
 public:
  /// Computes the bounding cube and the Morton keys of the n bodies and sorts (key, index)
  /// pairs; afterwards permutation()[k] is the index of the body that goes to place k (ties by
  /// index, so a sorted input gives the identity).
  void sort(const T* x, const T* y, const T* z, std::size_t n, int threads);
  /// Builds the octree from the sorted keys: nodes with more than leaf_size bodies below level
  /// kMaxLevel split into their non-empty octants.
  void build(int leaf_size, int threads);
  /// The upward pass over the sorted bodies: multipoles (moments in double, stored in T) and
  /// squared opening radii (l / theta + delta)^2 of every node; `bmax`: at most
  /// bmax_opening_radius2's (the bodies' extent). `alpha` > 0 (with theta > 0): the relative
  /// opening too, for which every node gets relative_opening_size(mass, extent) and which
  /// accelerations() then applies (alpha = 0: no trace of it, results as without).
  void moments(const T* x, const T* y, const T* z, const T* m, double theta, int threads,
               bool bmax = false, double alpha = 0);
  /// Accelerations of the sorted bodies (times G), one traversal per group of group_size
  /// consecutive bodies; `quadrupole` adds the cells' quadrupole terms. With the relative
  /// opening (moments()'s alpha) each group first walks the tree with monopoles only and every
  /// node's radius times relative_pre_scale(theta), which gives |a|min of its bodies; its walk
  /// then accepts a cell only where also d^2 > s * relative_group_factor(alpha, |a|min) or
  /// beyond its radius times relative_strict_scale(theta) (the bound on what the test asks).
  TraversalWork accelerations(const T* x, const T* y, const T* z, const T* m, T G, T eps2,
                              int group_size, bool quadrupole, T* ax, T* ay, T* az, int threads);

  /// Number of bodies of the last sort().
  std::size_t body_count() const { return keys_.size(); }
  /// The cube of the last sort().
  const Cube& cube() const { return cube_; }
  /// The permutation of the last sort().
  const std::vector<std::uint32_t>& permutation() const { return perm_; }
  /// Whether the last sort() found the bodies already in order.
  bool identity() const { return identity_; }
  /// The sorted keys.
  const std::vector<std::uint64_t>& keys() const { return keys_; }
  /// The nodes of the last build().
  const Nodes& nodes() const { return nodes_; }
  /// Multipole of node i after moments() (double, as computed).
  const Multipole<double>& multipole(std::size_t i) const { return mp_[i]; }
  /// Squared opening radius of node i after moments().
  T opening_radius2(std::size_t i) const { return r2_[i]; }
  /// Whether the last moments() set up the relative opening (alpha > 0 and theta > 0).
  bool relative() const { return relative_; }
  /// The relative opening size s of node i after moments() with the relative opening.
  T relative_size(std::size_t i) const { return rel_[i]; }

 private:
  struct KeyIndex {
    std::uint64_t key;
    std::uint32_t index;
  };
  // per-thread traversal buffers: the node stack, the cell list (SoA) and the body list (SoA)
  struct Scratch {
    std::vector<std::uint32_t> stack, cells, leaves;
    std::vector<T> cx, cy, cz, cm, qxx, qyy, qzz, qxy, qxz, qyz;
    std::vector<T> bx, by, bz, bm;
  };
  // the bounding box of a group of bodies [g0, g1)
  struct GroupBox {
    std::uint32_t g0, g1;
    T lox, loy, loz, hix, hiy, hiz;
  };
  // one walk for group box g into s.cells and s.leaves: a node is accepted where d^2 > its
  // opening radius^2 * scale and, when `relative`, d^2 > its relative size * factor
  void walk(const GroupBox& g, T scale, bool relative, T factor, Scratch& s) const;
  // copies the lists of the last walk() into s's arrays, padded to whole lanes with massless
  // entries (the quadrupoles only when `quadrupole`); returns the bodies listed (those with mass)
  std::size_t gather(const T* x, const T* y, const T* z, const T* m, bool quadrupole,
                     Scratch& s) const;

  Cube cube_;
  bool identity_ = true;
  std::vector<KeyIndex> pairs_, merge_buf_;
  std::vector<std::uint64_t> keys_;
  std::vector<std::uint32_t> perm_;
  Nodes nodes_;
  std::vector<std::size_t> level_begin_;  // nodes of level l are [level_begin_[l], [l + 1])
  std::vector<std::uint32_t> split_;      // 9 octant bounds per node of the level being split
  std::vector<Multipole<double>> mp_;
  std::vector<double>
      extent_;  // a bound of the distance of each node's bodies from its centre of mass
  // traversal copies of the multipoles in T (structure of arrays) and the opening radii
  std::vector<T> cx_, cy_, cz_, cm_, qxx_, qyy_, qzz_, qxy_, qxz_, qyz_, r2_;
  // the relative opening (moments()'s alpha > 0): its settings and each node's size s
  bool relative_ = false;
  double alpha_ = 0;
  T pre_scale_ = T(1), strict_scale_ = T(1);
  std::vector<T> rel_;
  std::vector<Scratch> scratch_;
};

extern template class Octree<float>;
extern template class Octree<double>;

}  // namespace nbody::tree
