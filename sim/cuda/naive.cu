// naive: one thread per body, every other body read straight from global memory
// (seed 000 GPU0, seed 004's baseline).
#include <memory>

#include "sim/cuda/device_store.cuh"
#include "sim/cuda/kernel_rows.hpp"

namespace nbody::cuda {
namespace {

// a_i = G sum_j m_j d_ij / (|d_ij|^2 + eps^2)^{3/2} over the sources j < ns (the massive
// bodies, stored first); 20 flops per interaction (see interact)
template <typename T, bool Guard>
__global__ void __launch_bounds__(1024)
    naive_kernel(const Vec4<T>* __restrict__ pos, Vec4<T>* __restrict__ acc, int n, int ns,
                 int first, int count, T eps2, T G) {
  // target bodies [first, first + count), sources the ns massive bodies (stored first)
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= count) return;
  const int i = first + t;
  const Vec4<T> pi = pos[i];
  T ax = 0, ay = 0, az = 0;
  // blocks of kChunk bodies sum on their own, then join the total (float sums of N terms then
  // lose ~sqrt(N / kChunk) + sqrt(kChunk) ulps rather than ~sqrt(N))
  constexpr int kChunk = 256;
  for (int j0 = 0; j0 < ns; j0 += kChunk) {
    const int j1 = min(ns, j0 + kChunk);
    T cx = 0, cy = 0, cz = 0;
    for (int j = j0; j < j1; ++j)
      interact<T, Guard>(pi.x, pi.y, pi.z, pos[j], eps2, cx, cy, cz);
    ax += cx;
    ay += cy;
    az += cz;
  }
  acc[i] = make_vec4<T>(G * ax, G * ay, G * az, T(0));
}

template <typename T>
class NaiveBackend final : public DeviceForceKernel<T> {
 public:
  using DeviceForceKernel<T>::DeviceForceKernel;

  void forces(const SimParams& p, T G, T eps2, StepWork& work) override {
    DeviceStore<T>& st = this->store();
    const LaunchShape shape{st.count(), this->row().int_value(p, "block_size")};
    const int n = static_cast<int>(st.size()), ns = static_cast<int>(st.n_sources()),
              first = static_cast<int>(st.first()), count = static_cast<int>(st.count());
    if (!needs_guard(eps2))
      launch(st.context(), "naive", naive_kernel<T, false>, shape, st.positions(),
             st.accelerations(), n, ns, first, count, eps2, G);
    else
      launch(st.context(), "naive", naive_kernel<T, true>, shape, st.positions(),
             st.accelerations(), n, ns, first, count, eps2, G);
  }
};

}  // namespace

KernelInfo naive_row() {
  KernelInfo k;
  k.name = "naive";
  k.lesson = true;
  k.label = "GPU naive";
  k.description = "one thread per body, every other body read straight from global memory";
  k.gpu = true;
  k.supports_float = true;
  k.supports_double = true;
  k.flops_per_interaction = 20;
  k.tunables = {block_size_tunable(256)};
  k.create = [](const KernelInfo& info, const SimParams& p) -> std::unique_ptr<ForceBackend> {
    return make_device_backend<NaiveBackend>(info, p.precision);
  };
  return k;
}

}  // namespace nbody::cuda
