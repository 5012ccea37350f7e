#pragma once
// The state and integrator every GPU kernel shares: positions+mass, velocities and accelerations
// on the device, leapfrog kick-drift-kick with no host round trip between steps, CUDA-event
// timing, the device output for CUDA-GL interop and the device activity map. A kernel only
// supplies forces().

#include <vector>

#include "sim/backend.hpp"
#include "sim/cuda/common.cuh"
#include "sim/cuda/device_buffer.cuh"

namespace nbody::cuda {

template <typename T>
class GpuBackend : public ForceBackend {
 public:
  using V4 = Vec4<T>;
  explicit GpuBackend(const KernelInfo& info);

  const KernelInfo& info() const override { return info_; }
  std::size_t size() const override { return n_; }
  void set_bodies(const Bodies& b) override;
  void get_bodies(Bodies& b) const override;
  void compute_accelerations(const SimParams& p, std::vector<double>& ax, std::vector<double>& ay,
                             std::vector<double>& az) override;
  void step(const SimParams& p, int steps) override;
  double last_step_ms() const override { return last_ms_; }

  bool supports_device_output() const override { return true; }
  void set_device_output(const DeviceOutput& out) override;
  bool activity_map(const ActivityMapParams& p, ActivityMap& out) override;

 protected:
  /// Fills acc_ with G times the accelerations of pos_ (n_ > 0). Reads its tunables from p.
  virtual void forces(const SimParams& p, T G, T eps2) = 0;

  const KernelInfo& info_;
  std::size_t n_ = 0;
  DeviceBuffer<V4> pos_, vel_, acc_;

 private:
  void ensure_accelerations(const SimParams& p);
  void write_output();

  std::vector<Component> component_;
  bool acc_valid_ = false;
  double acc_G_ = 0, acc_eps_ = 0;
  double last_ms_ = 0;
  Event start_, stop_;
  DeviceOutput out_;
  DeviceBuffer<unsigned> map_counts_, map_stats_;
  DeviceBuffer<float> map_image_;
};

/// Throws nbody::Error naming the tunable when p holds a value invalid for `info`.
void check_tunables(const KernelInfo& info, const SimParams& p);

}  // namespace nbody::cuda
