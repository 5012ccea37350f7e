#pragma once
// The host body store and the interface of a CPU force kernel, kept apart: a kernel
// (sim/forces/cpu/) computes accelerations of the stored positions and nothing else; the store
// owns the bodies in precision T and does what an integrator composes a step from (kicks,
// drifts, the 1PN term, the rigid halos' field: sim/integrators/). A row of the kernel table
// creates a store around its kernel: HostStore<T>(row, kernel) is the ForceBackend.
//
// Bodies are stored with the massive ones first (the heaviest at 0), so that kernels take
// sources from [0, n_sources()) only: massless bodies feel every massive body and pull on
// nothing. A kernel may reorder the store (permute(), e.g. into a tree's order); the store keeps
// the user's order and shows it outside.

#include <chrono>
#include <cstdint>
#include <memory>
#include <vector>

#include "sim/core/backend.hpp"
#include "sim/integrators/integrator.hpp"

namespace nbody {

template <typename T>
class HostStore;

/// A CPU force kernel: accelerations only.
template <typename T>
class HostForceKernel {
 public:
  virtual ~HostForceKernel() = default;
  /// Fills s.ax(), s.ay(), s.az() with G times the accelerations of the stored positions (ε²
  /// given) due to the sources, stored bodies [0, s.n_sources()), on `threads` threads. `work`
  /// holds N n_sources() interactions and no phases; a kernel that counts its work overwrites
  /// work.interactions and appends its phases (milliseconds of this evaluation).
  virtual void forces(const SimParams& p, HostStore<T>& s, T G, T eps2, int threads,
                      StepWork& work) = 0;
  /// Tree kernels: the cells of the last tree down to `max_level` (see ForceBackend).
  virtual bool tree_cells(int max_level, std::vector<TreeCell>& out) { return false; }
};

/// Host storage of bodies in precision T around one force kernel.
template <typename T>
class HostStore final : public ForceBackend {
 public:
  HostStore(const KernelInfo& info, std::unique_ptr<HostForceKernel<T>> kernel)
      : info_(info), kernel_(std::move(kernel)) {}

  const KernelInfo& info() const override { return info_; }
  std::size_t size() const override { return m_.size(); }
  void set_bodies(const Bodies& b) override;
  void get_bodies(Bodies& b) const override;
  void compute_accelerations(const SimParams& p, std::vector<double>& ax, std::vector<double>& ay,
                             std::vector<double>& az) override;
  void step(const SimParams& p, int steps) override;
  double last_step_ms() const override { return last_ms_; }
  StepWork last_work() const override { return work_; }
  bool tree_cells(int max_level, std::vector<TreeCell>& out) override {
    return kernel_->tree_cells(max_level, out);
  }

  // ---- what a kernel reads and writes
  /// Bodies with m > 0: stored first by set_bodies(), so sources are [0, n_sources()).
  std::size_t n_sources() const { return n_massive_; }
  const T* x() const { return x_.data(); }
  const T* y() const { return y_.data(); }
  const T* z() const { return z_.data(); }
  const T* m() const { return m_.data(); }
  T* ax() { return ax_.data(); }
  T* ay() { return ay_.data(); }
  T* az() { return az_.data(); }
  /// Reorders every stored array so that stored body k becomes old body perm[k] (the user's
  /// order, the 1PN source and the halos' anchors follow).
  void permute(const std::vector<std::uint32_t>& perm);

 private:
  /// Threads to use for p (the "threads" tunable, 0 meaning all; all when the kernel has none;
  /// one for the oracle), at most one per kMinBodiesPerThread bodies.
  int thread_count(const SimParams& p) const;
  static constexpr long kMinBodiesPerThread = 256;
  void ensure_accelerations(const SimParams& p);
  /// The kernel's forces, then the rigid halos' field; sets work_ to this evaluation's work.
  void run_forces(const SimParams& p, int threads);
  /// pn_ = the 1PN accelerations relative to the dominant body at the velocities half-way
  /// through a kick of `kick` (second order in the kick for the velocity-dependent term).
  void post_newtonian(const SimParams& p, double kick, int threads);
  /// pn_ = the EIH 1PN term of every body (sim/forces/eih.hpp), at the same velocities.
  void eih(const SimParams& p, double kick, int threads);
  /// v += kick (a + pn), then x += drift v.
  void kick_drift(const SimParams& p, double kick, double drift, int threads);
  // the state in double, in the user's order, for StateOps (sim/integrators/integrator.hpp)
  std::size_t user_index(std::size_t k) const { return order_.empty() ? k : order_[k]; }
  /// s.a = ax_ (+ the 1PN term at the stored velocities).
  void total_accelerations(const SimParams& p, HostState& s, int threads);
  void read_state(const SimParams& p, HostState& s, int threads);
  void state_accelerations(const SimParams& p, HostState& s, int threads);
  void write_state(const HostState& s, bool accelerations_current);

  const KernelInfo& info_;
  std::unique_ptr<HostForceKernel<T>> kernel_;
  std::vector<T> x_, y_, z_, vx_, vy_, vz_, m_, ax_, ay_, az_;
  /// Empty: stored body k is body k; else stored body k is the user's body order_[k]
  /// (get_bodies() writes in the user's order).
  std::vector<std::uint32_t> order_;
  StepWork work_;
  std::vector<Component> component_;
  std::vector<std::vector<T>> scratch_;  // permute(): one buffer per array
  std::vector<std::uint32_t> order_scratch_;
  std::vector<T> pnx_, pny_, pnz_;
  std::vector<double> eih_work_;          // eih(): the bodies in double, then the terms
  std::vector<std::uint32_t> eih_index_;  // eih(): stored index of each, the massive first
  std::size_t n_massive_ = 0;
  std::vector<RigidHalo> halos_;       ///< the bodies' rigid halos (anchors in the user's order)
  std::vector<std::uint32_t> anchor_;  ///< stored index of each halo's anchor
  std::size_t dominant_ = 0;           ///< stored index of the most massive body (the 1PN source)
  bool acc_valid_ = false;
  double acc_G_ = 0, acc_eps_ = 0;
  /// What the last integrator that used the state keeps between calls, and which one it was
  /// (dropped by set_bodies() and when another integrator runs).
  std::unique_ptr<IntegratorMemory> memory_;
  int memory_owner_ = -1;
  double last_ms_ = 0;
};

/// The backend of a CPU kernel row: a store in precision p around make_kernel<float or double>().
template <template <typename> class Kernel, typename... Args>
std::unique_ptr<ForceBackend> make_host_backend(const KernelInfo& row, Precision p,
                                                Args&&... args) {
  if (p == Precision::Double)
    return std::make_unique<HostStore<double>>(
        row, std::make_unique<Kernel<double>>(std::forward<Args>(args)...));
  return std::make_unique<HostStore<float>>(
      row, std::make_unique<Kernel<float>>(std::forward<Args>(args)...));
}

}  // namespace nbody
