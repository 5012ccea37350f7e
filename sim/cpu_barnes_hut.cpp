// cpu-barnes-hut: O(N log N) gravity on the CPU (seed 003) with the tree design shared with the
// GPU kernel (sim/tree/tree_math.hpp). Each force evaluation re-sorts the bodies by Morton key
// (nearly sorted after the first step), so the stored arrays stay in tree order and order_ maps
// them back to the user's order; then octree build, upward pass and group traversal
// (sim/tree/octree.hpp).
#include <chrono>

#include "sim/cpu_backend.hpp"
#include "sim/cpu_backends.hpp"
#include "sim/tree/octree.hpp"

namespace nbody {
namespace {

template <typename T>
class CpuBarnesHut final : public HostBackend<T> {
 public:
  using HostBackend<T>::HostBackend;

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

 protected:
  void forces(const SimParams& p, T G, T eps2, int threads) override {
    using clock = std::chrono::steady_clock;
    const BhConfig& cfg = config_.get(this->info(), p);
    const double theta = cfg.theta;
    const int leaf_size = cfg.leaf_size;
    const int group_size = cfg.group_size;
    const bool quadrupole = cfg.quadrupole;
    const std::size_t n = this->size();

    // sort by key and keep every stored array in key order
    const auto t0 = clock::now();
    tree_.sort(this->x_.data(), this->y_.data(), this->z_.data(), n, threads);
    if (!tree_.identity()) this->permute(tree_.permutation());
    const auto t1 = clock::now();
    tree_.build(leaf_size, threads);
    const auto t2 = clock::now();
    tree_.moments(this->x_.data(), this->y_.data(), this->z_.data(), this->m_.data(), theta,
                  threads);
    const auto t3 = clock::now();
    const tree::TraversalWork w = tree_.accelerations(
        this->x_.data(), this->y_.data(), this->z_.data(), this->m_.data(), G, eps2, group_size,
        quadrupole, this->ax_.data(), this->ay_.data(), this->az_.data(), threads);
    const auto t4 = clock::now();

    // counted work and phase times of this evaluation
    const auto ms = [](clock::time_point a, clock::time_point b) {
      return std::chrono::duration<double, std::milli>(b - a).count();
    };
    this->work_.interactions = w.interactions;
    this->work_.phases = {{"keys+sort", ms(t0, t1)},
                          {"build", ms(t1, t2)},
                          {"moments", ms(t2, t3)},
                          {"traversal", ms(t3, t4)}};
  }

 private:
  tree::Octree<T> tree_;
  ParsedTunables<BhConfig, bh_config> config_;
};

}  // namespace

std::unique_ptr<ForceBackend> make_cpu_barnes_hut(const KernelInfo& row, const SimParams& p) {
  if (p.precision == Precision::Double) return std::make_unique<CpuBarnesHut<double>>(row);
  return std::make_unique<CpuBarnesHut<float>>(row);
}

}  // namespace nbody
