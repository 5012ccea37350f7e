// barnes-hut: O(N log N) gravity on the GPU with the tree design of sim/tree/tree_math.hpp.
//
// Each force evaluation: bounding cube (two-stage min/max reduction, the first stage done by the
// store's last drift where one ran since the last evaluation) -> 63-bit Morton keys ->
// CUB radix sort of the keys on the digits of the levels the tree needs (the last build's depth +
// 2, filled up to CUB's passes; all 21 at first and whenever a build reached that depth: fewer
// passes, fatter leaves at worst), the bodies' indices carried in the bits below those digits
// (else sorted as values) -> pos/vel/order gathered in key order -> one cooperative kernel builds
// the octree level by level (a warp per node finds its octants, a grid-wide scan places the
// children), the traversal's groups and the moments from the deepest level up (mass, centre of
// mass, traceless quadrupole, r_crit^2 = (l/theta + delta)^2) with grid-wide barriers between
// levels, so no host round trip -> traversal: one warp per group of up to 64 consecutive sorted
// bodies (two a lane, the groups of more than 32 handed out first; groups of 8 or 16 give each body
// four or two lanes that share its lists) walks the tree breadth-first against the group's bounding
// box; accepted cells and the bodies of opened leaves are compacted into shared-memory lists that
// the warp evaluates 32 at a time. No float atomics: two runs agree bitwise.
//
// Several GPUs (a forest): every GPU sorts all bodies alike, builds the tree of its own slice of
// them only (the slices: the wrapper's cuts, balanced by the counted work), and the GPUs share
// their trees' nodes (GPUs of one process with peer access: each build writes every node into
// the other GPUs' arrays as soon as its moments are known; otherwise NCCL broadcasts after the
// builds); each GPU then walks its own groups through every tree, from every root.
// The sort and the integration stay on every GPU; the build splits. The forces differ from one
// GPU's within the tree's error (a node that a cut splits acts as two), and are the same on any
// run with the same GPU count.
#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <type_traits>
#include <utility>

#include <cooperative_groups.h>

#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_reduce.cuh>
#include <cub/device/device_scan.cuh>

#include "sim/core/error.hpp"
#include "sim/cuda/barnes_hut.hpp"
#include "sim/cuda/box.cuh"
#include "sim/cuda/device_store.cuh"
#include "sim/cuda/kernel_rows.hpp"
#include "sim/tree/tree_math.hpp"

namespace nbody::cuda {
namespace {

using u32 = std::uint32_t;
using u64 = std::uint64_t;
using ull = unsigned long long;

constexpr int kBlock = 256;      // threads per block of the simple per-item kernels
constexpr u32 kQueueCap = 8192;  // nodes per warp in the traversal queue (a power of two)
constexpr unsigned kFull = 0xffffffffu;
constexpr unsigned long long kFarWork = 12;  // a far cell's work, in body pulls (bh_traversal.cuh)
// with the relative opening, a far cell's expansion must pass alpha / kFarRelative: its errors
// add up coherently over a group (the cells of one side), a multipole's do not (H100, Plummer and
// galaxy collision 8.4M, theta 1, alpha 0.003: 16 doubles the median error, 64 adds 19-28 % for
// 22-28 % less time, 256 3-5 % for 9-17 %; docs/PERFORMANCE.md)
constexpr double kFarRelative = 64;

// ---------------------------------------------------------------- tree build

// the node arrays, breadth-first
struct Nodes {
  u32 *begin, *count, *first, *nchild, *level;
  u64* prefix;
};

// first index in [lo, hi) whose key is >= limit (keys sorted)
__device__ __forceinline__ u32 lower_bound(const u64* __restrict__ keys, u32 lo, u32 hi,
                                           u64 limit) {
  while (lo < hi) {
    const u32 mid = lo + (hi - lo) / 2;
    if (keys[mid] < limit)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

// walks the non-empty octants at level + 1 of the sorted keys [b, e) of a node with `prefix`:
// f(octant, begin, end) for each, in octant order; returns how many there are
template <typename F>
__device__ int for_each_octant(const u64* __restrict__ keys, u32 b, u32 e, int level, u64 prefix,
                               F&& f) {
  const int shift = tree::digit_shift(level + 1);
  int k = 0;
  u32 pos = b;
  while (pos < e) {
    const int d = tree::octant(keys[pos], level + 1);
    const u32 next =
        d == 7 ? e : lower_bound(keys, pos + 1, e, prefix | (static_cast<u64>(d + 1) << shift));
    f(d, pos, next);
    pos = next;
    ++k;
  }
  return k;
}

#include "sim/cuda/bh_build.cuh"           // NOLINT(build/include): part of this file
#include "sim/cuda/bh_moments_groups.cuh"  // NOLINT(build/include): part of this file
#include "sim/cuda/bh_traversal.cuh"       // NOLINT(build/include): part of this file

// ---------------------------------------------------------------- host side

// grows b to at least `need` elements keeping the first `used` (ordered on `stream`)
template <typename X>
void grow_keep(DeviceBuffer<X>& b, std::size_t used, std::size_t need, cudaStream_t stream) {
  if (need <= b.size()) return;
  DeviceBuffer<X> nb(std::max(need, b.size() + b.size() / 2));
  if (used)
    NBODY_CUDA_CHECK(
        cudaMemcpyAsync(nb.get(), b.get(), used * sizeof(X), cudaMemcpyDeviceToDevice, stream));
  NBODY_CUDA_CHECK(cudaStreamSynchronize(stream));
  b = std::move(nb);
}

std::size_t next_pow2(std::size_t v) {
  std::size_t p = 1;
  while (p < v)
    p <<= 1;
  return p;
}

template <typename T>
class BarnesHutBackend final : public DeviceForceKernel<T> {
 public:
  using V4 = Vec4<T>;
  using DeviceForceKernel<T>::DeviceForceKernel;

  bool download_tree(BarnesHutTree& out) const;
  bool balance_by_work() const override { return true; }
  bool writes_mirrors() const override {
    const DeviceStore<T>& st = this->store();
    return st.parts() > 1 && !st.slicing().mirrors.empty() &&
           st.slicing().mirrors.size() <= static_cast<std::size_t>(kMaxMirrors);
  }
  // new bodies: their tree's depth is unknown, the next sort takes every digit; several GPUs:
  // what follows the slice (which the work balance moves) sized for N here, not in a step where
  // the GPUs' threads are in collectives (an allocation in one can wait for a peer waiting on it)
  void bodies_changed(const Bodies&) override {
    sort_levels_ = tree::kMaxLevel;
    kept_ = false;
    if (this->store().parts() < 2) return;
    groups_.reserve(std::max<std::size_t>(this->store().size(), 1));
    block_sum_.reserve(static_cast<std::size_t>(resident_build()));
    slice_box_.reserve(6 * kMaxPushed);
  }

  bool tree_cells(int max_level, std::vector<TreeCell>& out) override {
    DeviceStore<T>& st = this->store();
    out.clear();
    read_meta();
    if (level_start_.size() < 2 || st.size() == 0 || max_level < 0) return true;
    // the nodes of levels 0..max_level are the first ones (breadth-first order; this GPU's tree
    // from node0_)
    const std::size_t last = std::min<std::size_t>(max_level + 1, level_start_.size() - 1);
    const std::size_t nn = level_start_[last];
    const cudaStream_t s = st.context().stream;
    std::vector<u64> prefix(nn);
    std::vector<u32> level(nn);
    prefix_.download_from(prefix.data(), node0_, nn, s);
    level_.download_from(level.data(), node0_, nn, s);
    tree::Cube c;
    cube_.download(&c, 1, s);
    out.resize(nn);
    for (std::size_t i = 0; i < nn; ++i) {
      double side = 0;
      TreeCell& t = out[i];
      tree::cell_geometry(prefix[i], static_cast<int>(level[i]), c, t.cx, t.cy, t.cz, side);
      t.half = 0.5 * side;
      t.level = static_cast<int>(level[i]);
    }
    return true;
  }

  // No host round trip: the build runs on the device (bh_build.cuh); the counted work and the
  // phase times wait on the device until collect(), after the store's own wait.
  void forces(const SimParams& p, T G, T eps2, StepWork& work) override {
    DeviceStore<T>& st = this->store();
    const BhConfig& cfg = config_.get(this->row(), p);
    const int group = group_size_for(cfg, st.size(), true);
    const cudaStream_t s = st.context().stream;
    if (pending_ == evs_.size()) evs_.emplace_back();
    auto& ev = evs_[pending_++].ev;
    // the last build's tree refitted (tunable rebuild), or the bodies sorted and a tree built
    const bool refit = refits(cfg, group);
    ev[0].record(s);
    if (!refit) sort_bodies();
    ev[1].record(s);
    // the relative opening: a first crude pass gives each group its weakest pull
    const bool rel = cfg.alpha > 0 && cfg.theta > 0;
    // several GPUs: the tree of this GPU's slice, then every GPU's tree on every GPU
    const bool forest = st.parts() > 1;
    build(static_cast<u32>(cfg.leaf_size), static_cast<u32>(group), cfg.theta, cfg.bmax, rel,
          forest, refit);
    if (refit) {
      ++since_build_;
    } else {
      since_build_ = 0;
      built_ = shape(cfg, group);
      kept_ = built_since_collect_ = true;
    }
    if (forest) share_trees(rel, pushed_);
    ev[2].record(s);
    evs_[pending_ - 1].first_pass = rel;
    Relative<T> r{nullptr, nullptr, T(0), T(0), T(0), T(0)};
    far2_ = 0;
    if (rel) {
      amin_.reserve(std::max<std::size_t>(st.size(), 1));
      r = {S_.get(),
           amin_.get(),
           T(tree::relative_pre_scale(cfg.theta)),
           T(cfg.alpha),
           T(tree::relative_strict_scale(cfg.theta)),
           T(cfg.alpha / kFarRelative)};
      traverse(G, eps2, group, false, cfg.block_size, r);
      r.pre = T(0);
    }
    ev[4].record(s);
    far2_ = cfg.local_theta * cfg.local_theta;
    // several GPUs: the final pass also fills this GPU's row of the work bins (the next cuts)
    bins_ = forest ? cost_row() : CostBins{nullptr, 0, 0, 0};
    traverse(G, eps2, group, cfg.quadrupole, cfg.block_size, r);
    bins_.row = nullptr;
    ev[3].record(s);
    work.interactions = 0;  // counted on the device, added by collect()
  }

  bool collect(StepWork& work) override {
    if (pending_ == 0) return false;
    const cudaStream_t s = this->store().context().stream;
    StepWork w;
    for (std::size_t e = 0; e < pending_; ++e) {
      const auto& ev = evs_[e].ev;
      StepWork one;
      one.phases.push_back({"keys+sort", ev[1].elapsed_since(ev[0])});
      one.phases.push_back({"build", ev[2].elapsed_since(ev[1])});
      if (evs_[e].first_pass) one.phases.push_back({"first pass", ev[4].elapsed_since(ev[2])});
      one.phases.push_back({"traversal", ev[3].elapsed_since(ev[4])});
      w.add(one);
    }
    pending_ = 0;
    ull total = 0;
    work_acc_.download(&total, 1, s);
    NBODY_CUDA_CHECK(cudaMemsetAsync(work_acc_.get(), 0, sizeof(ull), s));
    w.interactions = static_cast<double>(total);
    w.flops_per_interaction = work.flops_per_interaction;
    work.add(w);
    // only refits since the last collect(): the same tree, nothing new to size
    if (!built_since_collect_) return false;
    built_since_collect_ = false;
    // room for the next builds: more when a level did not fit or the tree came close (on
    // several GPUs the largest of their trees, so that every GPU sorts and grows alike)
    read_meta();
    Sizes z{meta_host_.nodes, meta_host_.levels, meta_host_.overflow};
    if (this->store().parts() > 1) z = forest_sizes();
    // the next sorts: the digits down to this tree's depth and a margin (filling CUB's passes of
    // 8 bits, and leaving room for the indices where they fit), or all where the tree reached the
    // sorted depth (it may need more)
    const int deepest = static_cast<int>(z.levels) - 1;
    sort_levels_ = deepest >= built_levels_
                       ? tree::kMaxLevel
                       : tree::sorted_levels(deepest, kLevelMargin, kRadixBits,
                                             tree::index_bits(this->store().size()));
    if (z.overflow || z.nodes + z.nodes / 4 > cap_) {
      cap_ = std::max<std::size_t>(2 * cap_, z.nodes + z.nodes / 2);
      kept_ = false;  // the node arrays grow: the next evaluation builds
    }
    return z.overflow != 0;
  }

  // the sort's bounding cube starts from the box that the store's drift left (bh_sort.cuh)
  bool wants_box() const override { return true; }

  // several GPUs: a refit keeps the slices its trees were built for (the wrapper's cuts)
  bool keeps_cuts(const SimParams& p) override {
    const BhConfig& cfg = config_.get(this->row(), p);
    return refits(cfg, group_size_for(cfg, this->store().size(), true));
  }

 private:
  // the sizes of the last build that decide the next sort and room (several GPUs: the largest
  // nodes and levels of all trees, and whether any overflowed)
  struct Sizes {
    u32 nodes = 0, levels = 0, overflow = 0;
  };
  // what the last build's structure depends on: a refit needs the same
  struct Shape {
    std::size_t n = 0;
    int parts = 0, leaf = 0, group = 0;
    bool rel = false;
    bool operator==(const Shape& o) const {
      return n == o.n && parts == o.parts && leaf == o.leaf && group == o.group && rel == o.rel;
    }
  };
  Shape shape(const BhConfig& cfg, int group) const {
    const DeviceStore<T>& st = this->store();
    return {st.size(), st.parts(), cfg.leaf_size, group, cfg.alpha > 0 && cfg.theta > 0};
  }
  // whether the next evaluation refits: a kept tree of the same shape, built fewer than
  // `rebuild` evaluations ago (the same decision on every GPU: they count alike)
  bool refits(const BhConfig& cfg, int group) const {
    return kept_ && cfg.rebuild > 1 && since_build_ + 1 < cfg.rebuild &&
           built_ == shape(cfg, group);
  }
  Shape built_;
  bool kept_ = false;                 // the last build's tree may be refitted
  bool built_since_collect_ = false;  // collect() sizes the next builds after a build only
  int since_build_ = 0;               // evaluations since the last build (refits)
  ParsedTunables<BhConfig, bh_config> config_;
  Nodes nodes() {
    return {begin_.get(), count_.get(), first_.get(), nchild_.get(), level_.get(), prefix_.get()};
  }
  void sort_bodies();
  int resident_build() {  // blocks of the build (and refit) kernel resident on this GPU at once
    if (resident_build_ == 0) {
      int per_sm = 0, refit_sm = 0;
      NBODY_CUDA_CHECK(
          cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, build_kernel<T>, kBlock, 0));
      NBODY_CUDA_CHECK(
          cudaOccupancyMaxActiveBlocksPerMultiprocessor(&refit_sm, refit_kernel<T>, kBlock, 0));
      resident_build_ =
          std::max(1, std::min(per_sm, refit_sm)) * device_properties().multiProcessorCount;
    }
    return resident_build_;
  }
  void build(u32 leaf, u32 gs, double theta, bool bmax, bool rel, bool forest, bool refit);
  void share_trees(bool rel, bool pushed);
  Sizes forest_sizes(std::vector<u32>* gathered = nullptr) const;
  void read_meta() const;
  void traverse(T G, T eps2, int group, bool quad, int block, const Relative<T>& rel);
  template <int PER, int SPLIT>
  void launch_split(T G, T eps2, bool quad, bool guard, int block, const Relative<T>& rel);
  template <int PER, int SPLIT, bool Quad, bool Guard, bool Far>
  void launch_traversal(T G, T eps2, int block, const Relative<T>& rel);
  // local_theta^2 of the main pass (0: no far cells; the relative opening's first pass has none)
  double far2_ = 0;
  CostBins cost_row();

  DeviceBuffer<Box> box_parts_;
  DeviceBuffer<tree::Cube> cube_;
  DeviceBuffer<u64> keys_in_, keys_;
  DeviceBuffer<u32> index_in_, perm_;
  DeviceBuffer<unsigned char> temp_;  // CUB temporary storage, shared by sort, scan and reduce
  DeviceBuffer<u32> begin_, count_, first_, nchild_, level_;
  DeviceBuffer<u64> prefix_;
  DeviceBuffer<u32> scan_, bnd_, group_n_, block_sum_;
  DeviceBuffer<V4> A_, M_, Q_;
  DeviceBuffer<T> S_, amin_;  // the relative opening: each node's size, each group's |a|min
  DeviceBuffer<uint2> groups_;
  DeviceBuffer<BuildMeta> meta_;
  std::size_t cap_ = 0;  // nodes a tree may use (grown by collect())
  // several GPUs: this GPU's tree starts at node node0_ (rank x cap_) of arrays of trees_ x cap_
  std::size_t node0_ = 0;
  u32 trees_ = 1;
  DeviceBuffer<u32> gathered_;  // several GPUs: every tree's nodes, levels, overflow, groups
  // several GPUs of one process with peer access: every GPU's node arrays (all-gathered when
  // they move: the same evaluation on every GPU, which all size them alike), and whether the
  // last build wrote its nodes into the others' (then nothing is broadcast after it)
  DeviceBuffer<PeerTree<T>> peers_;
  DeviceBuffer<double> slice_box_;   // every GPU's slice as a box (BuildArgs::slice_box)
  CostBins bins_{nullptr, 0, 0, 0};  // the final pass's work bins (cost_row())
  PeerTree<T> mine_{};
  std::size_t peers_nodes_ = 0;
  bool pushed_ = false;
  // levels whose key digits the next sort orders, and those the last build's sort ordered
  static constexpr int kLevelMargin = 2;
  static constexpr int kRadixBits = 8;  // CUB's onesweep digits (sm_90)
  int sort_levels_ = tree::kMaxLevel, built_levels_ = tree::kMaxLevel;
  int resident_build_ = 0;  // blocks of the build kernel that stay resident at once
  // the last build as the host last read it (read_meta())
  mutable BuildMeta meta_host_{};
  mutable u32 ngroups_ = 0;
  mutable std::vector<u32> level_start_;  // first node of each level, then the node count
  DeviceBuffer<u32> queues_, counter_;
  DeviceBuffer<ull> group_work_, work_acc_;
  // per force evaluation since the last collect(): start, sorted, built, traversed, and the
  // relative opening's first pass done (or skipped)
  struct Timing {
    std::array<Event, 5> ev;
    bool first_pass = false;
  };
  std::vector<Timing> evs_;
  std::size_t pending_ = 0;
};

// tree, groups and moments: one cooperative kernel (bh_build.cuh), nothing read back; on several
// GPUs (forest) the tree of this GPU's slice, at node rank x cap_. `refit`: the last build's
// tree, its moments computed again (refit_kernel)
template <typename T>
void BarnesHutBackend<T>::build(u32 leaf, u32 gs, double theta, bool bmax, bool rel, bool forest,
                                bool refit) {
  DeviceStore<T>& st = this->store();
  const std::size_t n = st.size();
  const std::size_t body0 = forest ? st.first() : 0, count = forest ? st.count() : n;
  const Context& ctx = st.context();
  // room for the nodes: clustered bodies need more than uniform ones (collect() adds more)
  if (cap_ == 0) cap_ = 1024 + std::max<std::size_t>(n / 2, 3 * n / std::max<u32>(leaf, 1));
  trees_ = forest ? static_cast<u32>(st.parts()) : 1u;
  node0_ = forest ? static_cast<std::size_t>(st.rank()) * cap_ : 0;
  const std::size_t all = trees_ * cap_;
  for (auto* b : {&begin_, &count_, &first_, &nchild_, &level_})
    b->reserve(all);
  scan_.reserve(cap_);
  group_n_.reserve(cap_);
  prefix_.reserve(all);
  bnd_.reserve(8 * cap_);
  A_.reserve(all);
  M_.reserve(all);
  Q_.reserve(all);
  if (rel) S_.reserve(all);
  groups_.reserve(std::max<std::size_t>(count, 1));
  meta_.reserve(1);
  // the resident blocks (a cooperative launch needs all at once); fewer for small N (barriers)
  const int blocks = static_cast<int>(
      std::clamp<std::size_t>((count + 511) / 512, 1, static_cast<std::size_t>(resident_build())));
  block_sum_.reserve(static_cast<std::size_t>(blocks));
  BuildArgs<T> a{keys_.get(),
                 nodes(),
                 static_cast<u32>(count),
                 leaf,
                 gs,
                 static_cast<u32>(body0),
                 static_cast<u32>(node0_),
                 static_cast<u32>(cap_),
                 built_levels_,
                 scan_.get(),
                 bnd_.get(),
                 group_n_.get(),
                 block_sum_.get(),
                 meta_.get(),
                 groups_.get(),
                 st.positions(),
                 cube_.get(),
                 theta,
                 bmax,
                 A_.get(),
                 M_.get(),
                 Q_.get(),
                 rel ? S_.get() : nullptr,
                 nullptr,
                 trees_,
                 static_cast<u32>(forest ? st.rank() : 0),
                 refit,
                 false,
                 {},
                 nullptr};
  // several GPUs that reach each other's memory: each writes its nodes into every GPU's arrays
  pushed_ = forest && writes_mirrors();
  if (pushed_) {
    const PeerTree<T> mine{begin_.get(), count_.get(), first_.get(), nchild_.get(),
                           A_.get(),     M_.get(),     Q_.get(),     rel ? S_.get() : nullptr};
    const auto same = [](const PeerTree<T>& x, const PeerTree<T>& y) {
      return x.begin == y.begin && x.count == y.count && x.first == y.first &&
             x.nchild == y.nchild && x.A == y.A && x.M == y.M && x.Q == y.Q && x.S == y.S;
    };
    // the arrays move only where their size (trees x cap_, the same on every GPU) grows, and S
    // comes and goes with the relative opening (the same option on every GPU): every GPU
    // gathers again in the same evaluation (a collective all must enter)
    if (peers_nodes_ != all || (mine_.S == nullptr) != (mine.S == nullptr)) {
      peers_.reserve(trees_);
      mine_ = mine;
      NBODY_CUDA_CHECK(cudaMemcpyAsync(peers_.get() + st.rank(), &mine_, sizeof(PeerTree<T>),
                                       cudaMemcpyHostToDevice, ctx.stream));
      st.slicing().all_gather(peers_.get() + st.rank(), peers_.get(), sizeof(PeerTree<T>));
      peers_nodes_ = all;
    }
    if (!same(mine, mine_))
      fail("Barnes-Hut on several GPUs: the node arrays moved without their size changing");
    a.peers = peers_.get();
    // a build with the geometric opening alone sends each GPU only what its walks can reach
    const std::vector<std::size_t>& cuts = st.slicing().cuts;
    a.essential = !refit && !rel && theta > 0 && trees_ <= kMaxPushed && cuts.size() == trees_ + 1;
    if (a.essential) {
      slice_box_.reserve(6 * kMaxPushed);  // (bodies_changed() did)
      a.slice_box = slice_box_.get();
      for (std::size_t r = 0; r <= trees_; ++r)
        a.cut[r] = static_cast<u32>(cuts[r]);
    }
  }
  void* args[] = {&a};
  void* kernel =
      refit ? reinterpret_cast<void*>(refit_kernel<T>) : reinterpret_cast<void*>(build_kernel<T>);
  NBODY_CUDA_CHECK(
      cudaLaunchCooperativeKernel(kernel, dim3(blocks), dim3(kBlock), args, 0, ctx.stream));
  NBODY_CUDA_CHECK(cudaGetLastError());
}

// several GPUs: every GPU's tree sizes to every GPU, then (unless each build wrote its nodes
// into the others' arrays itself: `pushed`) each tree's nodes from its GPU to all. Either way
// the sizes' all-gather follows every GPU's build in its stream: when it completes here, every
// build, and with it every node written into this GPU's arrays, has completed.
template <typename T>
void BarnesHutBackend<T>::share_trees(bool rel, bool pushed) {
  DeviceStore<T>& st = this->store();
  const Context& ctx = st.context();
  const Slicing& sl = st.slicing();
  const std::size_t parts = trees_, rank = static_cast<std::size_t>(st.rank());
  // BuildMeta starts with nodes, levels, overflow, ngroups
  gathered_.reserve(4 * parts);
  sl.all_gather(meta_.get(), gathered_.get(), 4 * sizeof(u32));
  // pushed: nothing to wait for on the host (collect() reads the sizes; the traversal and the
  // work bins read this build's group count on the device)
  if (pushed) return;
  std::vector<u32> g;
  forest_sizes(&g);
  std::vector<std::size_t> first(parts), count(parts);
  for (std::size_t r = 0; r < parts; ++r) {
    first[r] = r * cap_;
    count[r] = g[4 * r];
  }
  ngroups_ = g[4 * rank + 3];
  std::vector<Slicing::Shared> arrays{{begin_.get(), sizeof(u32)}, {count_.get(), sizeof(u32)},
                                      {first_.get(), sizeof(u32)}, {nchild_.get(), sizeof(u32)},
                                      {A_.get(), sizeof(V4)},      {M_.get(), sizeof(V4)},
                                      {Q_.get(), sizeof(V4)}};
  if (rel) arrays.push_back({S_.get(), sizeof(T)});
  sl.share(arrays, first, count);
}

// several GPUs: the largest nodes and levels of the last evaluation's trees and whether any
// overflowed (waits for their all-gather); `gathered`: every tree's four sizes
template <typename T>
auto BarnesHutBackend<T>::forest_sizes(std::vector<u32>* gathered) const -> Sizes {
  std::vector<u32> own;
  std::vector<u32>& g = gathered ? *gathered : own;
  g.resize(4 * static_cast<std::size_t>(trees_));
  gathered_.download(g.data(), g.size(), this->store().context().stream);
  Sizes z;
  for (std::size_t r = 0; r < trees_; ++r) {
    z.nodes = std::max(z.nodes, g[4 * r]);
    z.levels = std::max(z.levels, g[4 * r + 1]);
    z.overflow |= g[4 * r + 2];
  }
  return z;
}

// the last build's levels and groups on the host (waits for it: inspection, several GPUs)
template <typename T>
void BarnesHutBackend<T>::read_meta() const {
  if (meta_.size() == 0) return;
  meta_.download(&meta_host_, 1, this->store().context().stream);
  level_start_.assign(meta_host_.level_start, meta_host_.level_start + meta_host_.levels + 1);
  ngroups_ = meta_host_.ngroups;
}

// this GPU's row of the work bins (see DeviceStore::cost_bins(); zero until this evaluation's
// final pass of the traversal adds to it: CostBins)
template <typename T>
CostBins BarnesHutBackend<T>::cost_row() {
  DeviceStore<T>& st = this->store();
  const int bins = DeviceStore<T>::kCostBins;
  ull* row = st.cost_bins() + static_cast<std::size_t>(st.rank()) * bins;
  return {row, static_cast<u32>(st.first()), static_cast<u32>(st.count()), bins};
}

template <typename T>
template <int PER, int SPLIT, bool Quad, bool Guard, bool Far>
void BarnesHutBackend<T>::launch_traversal(T G, T eps2, int block, const Relative<T>& rel) {
  DeviceStore<T>& st = this->store();
  const Context& ctx = st.context();
  auto* kernel = traverse_kernel<T, PER, SPLIT, Quad, Guard, Far>();
  const int warps = block / 32;
  // as many groups as the build wrote (read on the device; for the grid: the last build's count
  // (several GPUs: this build's), at least this GPU's bodies over the largest group)
  const std::size_t n = st.size();
  const std::size_t groups = std::max<std::size_t>(ngroups_, st.count() / (32 * PER / SPLIT) + 1);
  const std::size_t smem = sizeof(WarpLists<T>) * warps;
  NBODY_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                        static_cast<int>(smem)));
  int per_sm = 0;
  NBODY_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, block, smem));
  const int resident = std::max(1, per_sm) * device_properties().multiProcessorCount;
  const int blocks =
      std::max(1, std::min<int>(resident, static_cast<int>((groups + warps - 1) / warps)));
  const u32 qcap = static_cast<u32>(
      std::min<std::size_t>(kQueueCap, std::max<std::size_t>(64, next_pow2(cap_))));
  queues_.reserve(std::size_t(blocks) * warps * qcap);
  counter_.reserve(1);
  group_work_.reserve(std::max<std::size_t>(n, 1));
  if (work_acc_.size() == 0) {
    work_acc_.reserve(1);
    NBODY_CUDA_CHECK(cudaMemsetAsync(work_acc_.get(), 0, sizeof(ull), ctx.stream));
  }
  NBODY_CUDA_CHECK(cudaMemsetAsync(counter_.get(), 0, sizeof(u32), ctx.stream));
  const TreeView<T> tv{begin_.get(), count_.get(), first_.get(), nchild_.get(),         A_.get(),
                       M_.get(),     Q_.get(),     trees_,       static_cast<u32>(cap_)};
  // several GPUs of one process: the other GPUs' accelerations too (not on a first pass)
  Mirrors<T> mir{};
  if (writes_mirrors() && !(rel.pre > T(0)))
    for (void* m : st.slicing().mirrors)
      mir.acc[mir.n++] = static_cast<V4*>(m);
  launch(ctx, "bh_traverse", kernel, LaunchShape{std::size_t(blocks) * block, block, 1, 1, smem},
         st.positions(), st.accelerations(), tv, groups_.get(), queues_.get(), qcap, counter_.get(),
         group_work_.get(), work_acc_.get(), &meta_.get()->ngroups, eps2, G, rel,
         static_cast<T>(Far ? far2_ : 0.0), mir,
         rel.pre > T(0) ? CostBins{nullptr, 0, 0, 0} : bins_);
}

template <typename T>
template <int PER, int SPLIT>
void BarnesHutBackend<T>::launch_split(T G, T eps2, bool quad, bool guard, int block,
                                       const Relative<T>& rel) {
  if (quad && far2_ > 0)
    guard ? launch_traversal<PER, SPLIT, true, true, true>(G, eps2, block, rel)
          : launch_traversal<PER, SPLIT, true, false, true>(G, eps2, block, rel);
  else if (quad)
    guard ? launch_traversal<PER, SPLIT, true, true, false>(G, eps2, block, rel)
          : launch_traversal<PER, SPLIT, true, false, false>(G, eps2, block, rel);
  else
    guard ? launch_traversal<PER, SPLIT, false, true, false>(G, eps2, block, rel)
          : launch_traversal<PER, SPLIT, false, false, false>(G, eps2, block, rel);
}

// one instantiation per (bodies per lane, lanes per body, quadrupole, guard, far cells): groups
// of 64 hold two bodies a lane, of 8 or 16 four or two lanes a body, of up to 32 (or 40-56) one
template <typename T>
void BarnesHutBackend<T>::traverse(T G, T eps2, int group, bool quad, int block,
                                   const Relative<T>& rel) {
  const bool guard = needs_guard(eps2);
  if (group > 32)
    launch_split<2, 1>(G, eps2, quad, guard, block, rel);
  else if (group == 16)
    launch_split<1, 2>(G, eps2, quad, guard, block, rel);
  else if (group == 8)
    launch_split<1, 4>(G, eps2, quad, guard, block, rel);
  else
    launch_split<1, 1>(G, eps2, quad, guard, block, rel);
}

#include "sim/cuda/bh_download_tree.cuh"  // NOLINT(build/include): part of this file
#include "sim/cuda/bh_sort.cuh"           // NOLINT(build/include): part of this file

// backend factory of one precision
template <typename T>
std::unique_ptr<ForceBackend> make_barnes_hut(const KernelInfo& row) {
  return std::make_unique<DeviceStore<T>>(row, std::make_unique<BarnesHutBackend<T>>(row));
}

}  // namespace

bool download_barnes_hut_tree(const ForceBackend& b, BarnesHutTree& out) {
  if (const auto* f = dynamic_cast<const DeviceStore<float>*>(&b))
    if (const auto* k = dynamic_cast<const BarnesHutBackend<float>*>(&f->kernel()))
      return k->download_tree(out);
  if (const auto* d = dynamic_cast<const DeviceStore<double>*>(&b))
    if (const auto* k = dynamic_cast<const BarnesHutBackend<double>*>(&d->kernel()))
      return k->download_tree(out);
  return false;
}

KernelInfo barnes_hut_row() {
  KernelInfo k;
  k.name = "barnes-hut";
  k.label = "GPU Barnes-Hut (octree)";
  k.description =
      "octree over Morton-sorted bodies, rebuilt every step; one warp per group of bodies walks "
      "it, far cells act through their multipoles (theta sets the accuracy), O(N log N)";
  k.gpu = true;
  k.supports_float = true;
  k.supports_double = true;
  k.flops_per_interaction = 20;
  k.flops_per_interaction_double = 30;
  k.tree = true;
  // a group walks as one warp: 8 or 16 bodies (4 or 2 lanes each), up to 32, or up to 64 (2 a lane)
  k.tunables = bh_tunables(0, 64, 8);
  k.tunables.push_back(int_tunable("block_size", "block size", 32, 512, 32, 128,
                                   "CUDA threads per block of the traversal (one warp per group)"));
  k.tunables.push_back(int_tunable(
      "rebuild", "rebuild every", 1, 16, 1, 1,
      "evaluations per tree build (1: a build every time, the default): above 1, the evaluations "
      "between builds refit the last tree (no sort, no new structure: its moments are computed "
      "again where the bodies are now, and each cell is widened by how far its bodies have "
      "drifted out of it, so each evaluation's error stays that of a build; the walk slows as "
      "the cells loosen). 4: 3-5 % faster from 8.4M bodies that move little per step, and two "
      "GPUs 1.92-1.95x one on the uniform cube; but the forces then depend on when the tree was "
      "built, not on the positions alone: 34-58x the energy drift of a build every time on a "
      "Plummer sphere, slower on fast-moving scenes (galaxy collisions), and rewinds replay "
      "within the tree's error, not bitwise"));
  k.tunables.push_back(real_tunable(
      "local_theta", "far cells", 0, 1, 0.05, 0,
      "above 0, a cell the walk accepts that lies farther from the group's centre than the "
      "group's radius / local_theta acts through one second-order expansion about that centre "
      "for the whole group, not on each body; with alpha > 0 only where the expansion's error "
      "bound is below alpha / 64 of the group's weakest pull (needs the quadrupole; 0 = off). "
      "From 1M bodies: uniform ones theta 0.55, local_theta 0.45 (33 % faster than theta 0.58 "
      "alone at the same median error); clustered ones theta 1, alpha 0.0025, local_theta 1 (as "
      "accurate as alpha 0.003-0.004 without: ~13 % faster at 1M, ~25 % at 8.4M)"));

  k.create = [](const KernelInfo& row, const SimParams& p) -> std::unique_ptr<ForceBackend> {
    if (p.precision == Precision::Double) return make_barnes_hut<double>(row);
    return make_barnes_hut<float>(row);
  };
  return k;
}

}  // namespace nbody::cuda
