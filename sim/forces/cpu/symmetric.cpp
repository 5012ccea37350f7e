// cpu-symmetric: Newton's third law, each pair computed once (seed 000 §5.2.2 "edge sharing").
// Row i holds the pairs (i, j > i), so early rows are long and late rows short; rows i and
// S-1-i are handed to the same thread so every thread gets the same number of pairs. Only the
// S massive bodies (stored first) have rows: a massless body pulls on nothing, so the pairs of
// two massless bodies are skipped and a massless j only receives. Each thread accumulates into
// its own buffers, merged at the end (no locks, no atomics).
#include <omp.h>

#include "sim/core/host_store.hpp"
#include "sim/forces/cpu/kernels.hpp"
#include "sim/forces/pair.hpp"

namespace nbody {
namespace {

template <typename T>
class CpuSymmetric final : public HostForceKernel<T> {
 public:
  void forces(const SimParams&, HostStore<T>& st, T G, T eps2, int threads, StepWork&) override {
    const long n = static_cast<long>(st.size());
    const long ns = static_cast<long>(st.n_sources());
    const T* x = st.x();
    const T* y = st.y();
    const T* z = st.z();
    const T* m = st.m();
    T* oax = st.ax();
    T* oay = st.ay();
    T* oaz = st.az();
    buf_.assign(static_cast<std::size_t>(threads) * 3 * n, T(0));
    const long pairs_of_rows = (ns + 1) / 2;
#pragma omp parallel num_threads(threads)
    {
      const int t = omp_get_thread_num();
      T* bx = buf_.data() + static_cast<std::size_t>(t) * 3 * n;
      T* by = bx + n;
      T* bz = by + n;
      // one (long row, short row) couple at a time: balanced static split
#pragma omp for schedule(static)
      for (long k = 0; k < pairs_of_rows; ++k) {
        for (int which = 0; which < 2; ++which) {
          const long i = which == 0 ? k : ns - 1 - k;
          if (which == 1 && i == k) break;  // odd n: the middle row once
          const T xi = x[i], yi = y[i], zi = z[i], mi = m[i];
          T ax = 0, ay = 0, az = 0;
          for (long j = i + 1; j < n; ++j) {
            const T dx = x[j] - xi, dy = y[j] - yi, dz = z[j] - zi;
            const T s = pair_inv_r3(dx * dx + dy * dy + dz * dz + eps2);
            // equal and opposite: i gains m_j s d, j loses m_i s d
            const T sj = m[j] * s, si = mi * s;
            ax += dx * sj;
            ay += dy * sj;
            az += dz * sj;
            bx[j] -= dx * si;
            by[j] -= dy * si;
            bz[j] -= dz * si;
          }
          bx[i] += ax;
          by[i] += ay;
          bz[i] += az;
        }
      }
      // merge the per-thread buffers
#pragma omp for schedule(static)
      for (long i = 0; i < n; ++i) {
        T sx = 0, sy = 0, sz = 0;
        for (int u = 0; u < threads; ++u) {
          const T* ux = buf_.data() + static_cast<std::size_t>(u) * 3 * n;
          sx += ux[i];
          sy += ux[n + i];
          sz += ux[2 * n + i];
        }
        oax[i] = G * sx;
        oay[i] = G * sy;
        oaz[i] = G * sz;
      }
    }
  }

 private:
  std::vector<T> buf_;
};

}  // namespace

std::unique_ptr<ForceBackend> make_cpu_symmetric(const KernelInfo& info, Precision p) {
  return make_host_backend<CpuSymmetric>(info, p);
}

}  // namespace nbody
