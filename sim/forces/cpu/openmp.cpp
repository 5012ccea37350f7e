// cpu-openmp: direct sum with OpenMP over target bodies (seed 001), float or double.
#include "sim/core/host_store.hpp"
#include "sim/forces/cpu/kernels.hpp"
#include "sim/forces/pair.hpp"

namespace nbody {
namespace {

template <typename T>
class CpuOpenMP final : public HostForceKernel<T> {
 public:
  // each thread owns a contiguous range of targets; sources are the massive bodies, stored
  // first; 20 flops per interaction
  void forces(const SimParams&, HostStore<T>& s, T G, T eps2, int threads, StepWork&) override {
    const long n = static_cast<long>(s.size());
    const long ns = static_cast<long>(s.n_sources());
    const T* __restrict x = s.x();
    const T* __restrict y = s.y();
    const T* __restrict z = s.z();
    const T* __restrict m = s.m();
    T* __restrict oax = s.ax();
    T* __restrict oay = s.ay();
    T* __restrict oaz = s.az();
#pragma omp parallel for schedule(static) num_threads(threads)
    for (long i = 0; i < n; ++i) {
      T ax = 0, ay = 0, az = 0;
      const T xi = x[i], yi = y[i], zi = z[i];
      // the self pair has r² = ε²: its d = 0 adds nothing; r² = 0 adds nothing (pair.hpp)
#pragma omp simd reduction(+ : ax, ay, az)
      for (long j = 0; j < ns; ++j)
        pair_accumulate(x[j] - xi, y[j] - yi, z[j] - zi, m[j], eps2, ax, ay, az);
      oax[i] = G * ax;
      oay[i] = G * ay;
      oaz[i] = G * az;
    }
  }
};

}  // namespace

std::unique_ptr<ForceBackend> make_cpu_openmp(const KernelInfo& info, Precision p) {
  return make_host_backend<CpuOpenMP>(info, p);
}

}  // namespace nbody
