// cpu-openmp: direct sum with OpenMP over target bodies (seed 001), float or double.
#include <cmath>

#include "sim/cpu_backend.hpp"
#include "sim/cpu_backends.hpp"

namespace nbody {
namespace {

template <typename T>
class CpuOpenMP final : public HostBackend<T> {
 public:
  using HostBackend<T>::HostBackend;

 protected:
  // each thread owns a contiguous range of targets; sources are the massive bodies, stored
  // first; 20 flops per interaction
  void forces(const SimParams&, T G, T eps2, int threads) override {
    const long n = static_cast<long>(this->size());
    const long ns = static_cast<long>(this->n_sources());
    const T* __restrict x = this->x_.data();
    const T* __restrict y = this->y_.data();
    const T* __restrict z = this->z_.data();
    const T* __restrict m = this->m_.data();
    T* __restrict oax = this->ax_.data();
    T* __restrict oay = this->ay_.data();
    T* __restrict oaz = this->az_.data();
#pragma omp parallel for schedule(static) num_threads(threads)
    for (long i = 0; i < n; ++i) {
      T ax = 0, ay = 0, az = 0;
      const T xi = x[i], yi = y[i], zi = z[i];
      // the self pair has r² = ε²: its dx = 0 adds nothing; r² = 0 is masked
#pragma omp simd reduction(+ : ax, ay, az)
      for (long j = 0; j < ns; ++j) {
        const T dx = x[j] - xi, dy = y[j] - yi, dz = z[j] - zi;
        const T r2 = dx * dx + dy * dy + dz * dz + eps2;
        const T inv = r2 > T(0) ? T(1) / std::sqrt(r2) : T(0);
        const T s = m[j] * inv * inv * inv;
        ax += dx * s;
        ay += dy * s;
        az += dz * s;
      }
      oax[i] = G * ax;
      oay[i] = G * ay;
      oaz[i] = G * az;
    }
  }
};

}  // namespace

std::unique_ptr<ForceBackend> make_cpu_openmp(const KernelInfo& info, Precision p) {
  if (p == Precision::Double) return std::make_unique<CpuOpenMP<double>>(info);
  return std::make_unique<CpuOpenMP<float>>(info);
}

}  // namespace nbody
