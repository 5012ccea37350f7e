// cpu-barnes-hut: O(N log N) gravity on the CPU (seed 003) with the tree design shared with the
// GPU kernel (sim/tree/tree_math.hpp). Each force evaluation re-sorts the bodies by Morton key
// (nearly sorted after the first step), so the stored arrays stay in tree order and order_ maps
// them back to the user's order; then octree build, upward pass and group traversal
// (sim/tree/octree.hpp).
#include <chrono>

#include "sim/core/host_store.hpp"
#include "sim/forces/cpu/kernels.hpp"
#include "sim/tree/octree.hpp"

namespace nbody {
namespace {

template <typename T>
class CpuBarnesHut final : public HostForceKernel<T> {
 public:
  explicit CpuBarnesHut(const KernelInfo& row) : row_(row) {}

  bool tree_cells(int max_level, std::vector<TreeCell>& out) override {
    // the cells of the last tree, breadth-first, so the shallow ones come first
    out.clear();
    const tree::Nodes& nodes = tree_.nodes();
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      if (nodes.level[i] > max_level) break;
      double side = 0;
      TreeCell c;
      tree::cell_geometry(nodes.prefix[i], nodes.level[i], tree_.cube(), c.cx, c.cy, c.cz, side);
      c.half = 0.5 * side;
      c.level = nodes.level[i];
      out.push_back(c);
    }
    return true;
  }

  void forces(const SimParams& p, HostStore<T>& s, T G, T eps2, int threads,
              StepWork& work) override {
    using clock = std::chrono::steady_clock;
    const BhConfig& cfg = config_.get(row_, p);
    const double theta = cfg.theta;
    const int leaf_size = cfg.leaf_size;
    const int group_size = group_size_for(cfg, s.size(), false);
    const bool quadrupole = cfg.quadrupole;
    const std::size_t n = s.size();

    // sort by key and keep every stored array in key order
    const auto t0 = clock::now();
    tree_.sort(s.x(), s.y(), s.z(), n, threads);
    if (!tree_.identity()) s.permute(tree_.permutation());
    const auto t1 = clock::now();
    tree_.build(leaf_size, threads);
    const auto t2 = clock::now();
    tree_.moments(s.x(), s.y(), s.z(), s.m(), theta, threads, cfg.bmax, cfg.alpha);
    const auto t3 = clock::now();
    const tree::TraversalWork w =
        tree_.accelerations(s.x(), s.y(), s.z(), s.m(), G, eps2, group_size, quadrupole, s.ax(),
                            s.ay(), s.az(), threads);
    const auto t4 = clock::now();

    // counted work and phase times of this evaluation
    const auto ms = [](clock::time_point a, clock::time_point b) {
      return std::chrono::duration<double, std::milli>(b - a).count();
    };
    // alpha > 0: the first, monopole walk's interactions count too
    work.interactions = w.interactions + w.pre;
    work.phases = {{"keys+sort", ms(t0, t1)},
                   {"build", ms(t1, t2)},
                   {"moments", ms(t2, t3)},
                   {"traversal", ms(t3, t4)}};
  }

 private:
  const KernelInfo& row_;
  tree::Octree<T> tree_;
  ParsedTunables<BhConfig, bh_config> config_;
};

}  // namespace

std::unique_ptr<ForceBackend> make_cpu_barnes_hut(const KernelInfo& row, const SimParams& p) {
  return make_host_backend<CpuBarnesHut>(row, p.precision, row);
}

}  // namespace nbody
