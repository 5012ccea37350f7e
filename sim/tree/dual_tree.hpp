#pragma once
// The dual-tree walk of `cpu-falcon`: mutual cell-cell interactions after W. Dehnen, "A very fast
// and momentum-conserving tree code" (ApJ 536, L39, 2000) and "A hierarchical O(N) force
// calculation algorithm" (J. Comput. Phys. 179, 27, 2002), on the octree of `cpu-barnes-hut`
// (sim/tree/octree.hpp: the same Morton sort and build).
//
// Every interaction acts on both sides at once, so the forces are equal and opposite:
//   - two cells A, B with |z_A - z_B| > (r_A + r_B) / theta (z the centre of mass, r the radius
//     about it that holds every body of the cell) interact through their multipoles: each gets
//     the Taylor coefficients, about its own centre of mass, of the other's field (monopole and
//     second moment as sources; the field to second order in the sink's offset), all terms of
//     total order <= 3 in the sizes of both cells, so the total force on A is minus the total
//     force on B;
//   - cells too close for that split (the larger radius first) down to leaves, whose bodies
//     interact pairwise (each pair once, applied to both);
//   - a cell's self-interaction is its children's self-interactions plus every pair of children.
// Then the coefficients flow down the tree (each child's expansion re-centred exactly, a
// polynomial shift) and every body reads the acceleration of its leaf's expansion.
//
// Softening: the far field is the Taylor expansion of the same softened potential the direct
// part uses (pair.hpp: -m / sqrt(r^2 + eps^2)), with the full (not traceless) second moment, so
// the expansion converges to the softened force as the cells shrink; momentum is conserved with
// softening too. So sum_i m_i a_i = 0 up to floating-point rounding, whatever theta is.
//
// One force evaluation: sort, build (as Octree), moments(), accelerations(). The walk emits
// lists of cell-cell and body-range pairs (one thread); the lists are cut into kChunks pieces of
// about equal work, each summed into its own buffers by whichever thread takes it, and the
// buffers are added in chunk order: every result is bitwise the same every run and whatever the
// thread count (at most kChunks threads share the sums).

#include <cstddef>
#include <cstdint>
#include <vector>

#include "sim/tree/octree.hpp"

namespace nbody::tree {

/// Work of one dual-tree evaluation.
struct DualWork {
  double cell_cell = 0;   ///< mutual cell-cell interactions
  double body_pairs = 0;  ///< body pairs summed directly (each once, for both bodies)
};

/// A cell as the far field sees it: mass, centre of mass, second moment about it
/// S_ab = sum m d_a d_b (xx yy zz xy xz yz) and the radius about the centre that holds its bodies.
template <typename T>
struct CellMoments {
  T m, x, y, z;
  T s[6];
  T r;
};

/// Buffers of the direct sums of one chunk: the bodies of one cell, padded to whole lanes.
template <typename T>
struct DirectScratch {
  std::vector<T> x, y, z, m, ax, ay, az;
};

/// What one chunk of the lists reads and writes.
template <typename T>
struct ChunkView {
  const T *x, *y, *z, *m;
  T eps2;
  const std::uint32_t *begin, *count;  // the nodes' body ranges
  const CellMoments<T>* cells;
  Taylor<T>* taylor;        // the chunk's coefficients of every cell
  T *ax, *ay, *az;          // the chunk's accelerations of every body
  const std::uint32_t* cc;  // ncc cell pairs (a, b, a, b, ...)
  std::size_t ncc;
  const std::uint32_t* direct;  // ndirect pairs of body ranges (a == b: a cell with itself)
  std::size_t ndirect;
};

/// Dual-tree (falcON-style) gravity for bodies in precision T (float or double).
template <typename T>
class DualTree {
 public:
  /// Chunks of the interaction lists, each with its own buffers (the most threads that share
  /// the sums).
  static constexpr int kChunks = 4;

  /// The Morton sort of the bodies (see Octree::sort); the caller gathers its arrays by
  /// permutation().
  void sort(const T* x, const T* y, const T* z, std::size_t n, int threads) {
    octree_.sort(x, y, z, n, threads);
  }
  /// The octree of the sorted keys (see Octree::build).
  void build(int leaf_size, int threads) { octree_.build(leaf_size, threads); }
  /// Mass, centre of mass, second moment and radius of every cell (in double, kept in T).
  void moments(const T* x, const T* y, const T* z, const T* m, int threads);
  /// The walk: the lists of well-separated cell pairs and of body ranges summed directly.
  void walk(double theta);
  /// Accelerations (times G) of the sorted bodies from the lists of the last walk().
  DualWork accelerations(const T* x, const T* y, const T* z, const T* m, T G, T eps2, T* ax, T* ay,
                         T* az, int threads);

  const Octree<T>& octree() const { return octree_; }
  /// The moments of cell i after moments().
  const CellMoments<T>& cell(std::size_t i) const { return cells_[i]; }

 private:
  void self(std::uint32_t a);
  void pair(std::uint32_t a, std::uint32_t b);
  void split_lists();
  double direct_cost(std::size_t i) const;  // body pairs of direct pair i
  void evaluate_chunk(int k, const T* x, const T* y, const T* z, const T* m, T eps2);
  void downward(int threads);

  Octree<T> octree_;
  std::vector<CellMoments<double>> mom_;  // as computed
  std::vector<CellMoments<T>> cells_;     // as used
  std::vector<std::uint32_t> parent_;
  std::vector<std::size_t> level_begin_;  // nodes of level l: [level_begin_[l], [l + 1])
  double theta2_ = 0;
  // node pairs (a, b, a, b, ...): well-separated cells; body ranges summed directly (a == b: a
  // cell with itself)
  std::vector<std::uint32_t> cc_, direct_;
  std::size_t cc_cut_[kChunks + 1] = {}, direct_cut_[kChunks + 1] = {};
  // per chunk: coefficients of every cell and accelerations of every body; then the totals
  std::vector<Taylor<T>> chunk_taylor_[kChunks];
  std::vector<T> chunk_acc_[kChunks];
  std::vector<Taylor<T>> taylor_;
  DirectScratch<T> scratch_[kChunks];
};

extern template class DualTree<float>;
extern template class DualTree<double>;

}  // namespace nbody::tree
