#pragma once
// Shared host-side state and leapfrog of the CPU backends. A CPU backend only supplies
// forces(): accelerations of the current positions.

#include <chrono>
#include <vector>

#include "sim/backend.hpp"

namespace nbody {

/// Host storage of bodies in precision T plus the kick-drift-kick integrator.
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

 protected:
  /// Fills ax_, ay_, az_ with the accelerations of x_, y_, z_ (G and ε² given).
  virtual void forces(T G, T eps2, int threads) = 0;
  /// Threads to use for p (p.threads, 0 meaning all), at most one per kMinBodiesPerThread bodies.
  int thread_count(const SimParams& p) const;
  static constexpr long kMinBodiesPerThread = 256;

  std::vector<T> x_, y_, z_, vx_, vy_, vz_, m_, ax_, ay_, az_;

 private:
  void ensure_accelerations(const SimParams& p);

  const KernelInfo& info_;
  std::vector<Component> component_;
  bool acc_valid_ = false;
  double acc_G_ = 0, acc_eps_ = 0;
  double last_ms_ = 0;
};

}  // namespace nbody
