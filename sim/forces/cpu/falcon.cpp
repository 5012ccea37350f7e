// cpu-falcon: momentum-conserving O(N) gravity on the CPU, mutual cell-cell interactions on the
// octree of cpu-barnes-hut (Dehnen's falcON scheme; sim/tree/dual_tree.hpp). Like
// cpu-barnes-hut, each force evaluation re-sorts the bodies by Morton key and keeps the stored
// arrays in tree order.
#include <chrono>

#include "sim/core/host_store.hpp"
#include "sim/forces/cpu/kernels.hpp"
#include "sim/tree/dual_tree.hpp"

namespace nbody {
namespace {

struct FalconConfig {
  double theta = 0.25;
  int leaf_size = 16;
};

FalconConfig falcon_config(const KernelInfo& row, const SimParams& p) {
  FalconConfig c;
  c.theta = row.value(p, "theta");
  c.leaf_size = row.int_value(p, "leaf_size");
  return c;
}

template <typename T>
class CpuFalcon final : public HostForceKernel<T> {
 public:
  explicit CpuFalcon(const KernelInfo& row) : row_(row) {}

  bool tree_cells(int max_level, std::vector<TreeCell>& out) override {
    // the cells of the last tree, breadth-first, so the shallow ones come first
    out.clear();
    const tree::Nodes& nodes = tree_.octree().nodes();
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      if (nodes.level[i] > max_level) break;
      double side = 0;
      TreeCell c;
      tree::cell_geometry(nodes.prefix[i], nodes.level[i], tree_.octree().cube(), c.cx, c.cy, c.cz,
                          side);
      c.half = 0.5 * side;
      c.level = nodes.level[i];
      out.push_back(c);
    }
    return true;
  }

  void forces(const SimParams& p, HostStore<T>& s, T G, T eps2, int threads,
              StepWork& work) override {
    using clock = std::chrono::steady_clock;
    const FalconConfig& cfg = config_.get(row_, p);
    const std::size_t n = s.size();

    // sort by key and keep every stored array in key order
    const auto t0 = clock::now();
    tree_.sort(s.x(), s.y(), s.z(), n, threads);
    if (!tree_.octree().identity()) s.permute(tree_.octree().permutation());
    const auto t1 = clock::now();
    tree_.build(cfg.leaf_size, threads);
    const auto t2 = clock::now();
    tree_.moments(s.x(), s.y(), s.z(), s.m(), threads);
    const auto t3 = clock::now();
    tree_.walk(cfg.theta);
    const auto t4 = clock::now();
    const tree::DualWork w =
        tree_.accelerations(s.x(), s.y(), s.z(), s.m(), G, eps2, s.ax(), s.ay(), s.az(), threads);
    const auto t5 = clock::now();

    // counted work (a cell-cell interaction is about 10 body pairs of flops; each body pair
    // serves two bodies) and phase times of this evaluation
    const auto ms = [](clock::time_point a, clock::time_point b) {
      return std::chrono::duration<double, std::milli>(b - a).count();
    };
    work.interactions = 2 * (w.body_pairs + 10 * w.cell_cell);
    work.phases = {{"keys+sort", ms(t0, t1)},
                   {"build", ms(t1, t2)},
                   {"moments", ms(t2, t3)},
                   {"walk", ms(t3, t4)},
                   {"interactions", ms(t4, t5)}};
  }

 private:
  const KernelInfo& row_;
  tree::DualTree<T> tree_;
  ParsedTunables<FalconConfig, falcon_config> config_;
};

}  // namespace

std::unique_ptr<ForceBackend> make_cpu_falcon(const KernelInfo& row, const SimParams& p) {
  return make_host_backend<CpuFalcon>(row, p.precision, row);
}

}  // namespace nbody
