#pragma once
// Shared host-side body store of the CPU backends (kicks, drifts, 1PN, rigid halos; the
// integrators of sim/integrators/ compose steps from them). A CPU backend only supplies
// forces(): accelerations of the current positions. Bodies are stored with the massive ones
// first (the heaviest at 0), so that kernels take sources from [0, n_sources()) only: massless
// bodies feel every massive body and pull on nothing.

#include <chrono>
#include <cstdint>
#include <vector>

#include "sim/backend.hpp"

namespace nbody {

/// Host storage of bodies in precision T: the operations an integrator composes (StepOps).
template <typename T>
class HostBackend : public ForceBackend {
 public:
  explicit HostBackend(const KernelInfo& info) : info_(info) {}

  const KernelInfo& info() const override { return info_; }
  std::size_t size() const override { return m_.size(); }
  void set_bodies(const Bodies& b) override;
  void get_bodies(Bodies& b) const override;
  void compute_accelerations(const SimParams& p, std::vector<double>& ax, std::vector<double>& ay,
                             std::vector<double>& az) override;
  void step(const SimParams& p, int steps) override;
  double last_step_ms() const override { return last_ms_; }
  StepWork last_work() const override { return work_; }

 protected:
  /// Fills ax_, ay_, az_ with G times the accelerations of x_, y_, z_ (ε² given) due to the
  /// sources, stored bodies [0, n_sources()). The base has set work_ to N n_sources()
  /// interactions and no phases; a kernel that counts its work overwrites work_.interactions
  /// and appends its phases (ms of this evaluation).
  virtual void forces(const SimParams& p, T G, T eps2, int threads) = 0;
  /// Threads to use for p (the "threads" tunable, 0 meaning all; all when the kernel has none),
  /// at most one per kMinBodiesPerThread bodies.
  int thread_count(const SimParams& p) const;
  static constexpr long kMinBodiesPerThread = 256;
  /// Reorders every stored array (and order_) so that stored body k becomes old body perm[k].
  void permute(const std::vector<std::uint32_t>& perm);
  /// Bodies with m > 0: stored first by set_bodies(), so sources are [0, n_sources()).
  std::size_t n_sources() const { return n_massive_; }

  std::vector<T> x_, y_, z_, vx_, vy_, vz_, m_, ax_, ay_, az_;
  /// Empty: stored body k is body k; else stored body k is the user's body order_[k]
  /// (get_bodies() writes in the user's order).
  std::vector<std::uint32_t> order_;
  StepWork work_;

 private:
  void ensure_accelerations(const SimParams& p);
  void run_forces(const SimParams& p, int threads);
  /// pn_ = the 1PN accelerations relative to the dominant body at the velocities half-way
  /// through a kick of `kick` (second order in the kick for the velocity-dependent term).
  void post_newtonian(const SimParams& p, double kick, int threads);
  /// v += kick (a + pn), then x += drift v.
  void kick_drift(const SimParams& p, double kick, double drift, int threads);

  const KernelInfo& info_;
  std::vector<Component> component_;
  std::vector<std::vector<T>> scratch_;  // permute(): one buffer per array
  std::vector<std::uint32_t> order_scratch_;
  std::vector<T> pnx_, pny_, pnz_;
  std::size_t n_massive_ = 0;
  std::vector<RigidHalo> halos_;       ///< the bodies' rigid halos (anchors in the user's order)
  std::vector<std::uint32_t> anchor_;  ///< stored index of each halo's anchor
  std::size_t dominant_ = 0;           ///< stored index of the most massive body (the 1PN source)
  bool acc_valid_ = false;
  double acc_G_ = 0, acc_eps_ = 0;
  double last_ms_ = 0;
};

}  // namespace nbody
