#include "sim/forces/eih.hpp"

#include <cmath>
#include <vector>

namespace nbody {

void eih_accelerations(const EihBodies& b, double* ax, double* ay, double* az, int threads) {
  const long n = static_cast<long>(b.n), nm = static_cast<long>(b.n_massive);
  // per massive body j: its Newtonian acceleration a_j and potential phi_j = sum mu_k / r_jk
  std::vector<double> anx(nm, 0.0), any(nm, 0.0), anz(nm, 0.0), phi(nm, 0.0);
#pragma omp parallel for schedule(static) num_threads(threads) if (nm > 64)
  for (long j = 0; j < nm; ++j) {
    double sx = 0, sy = 0, sz = 0, sp = 0;
    for (long k = 0; k < nm; ++k) {
      const double dx = b.x[k] - b.x[j], dy = b.y[k] - b.y[j], dz = b.z[k] - b.z[j];
      const double r2 = dx * dx + dy * dy + dz * dz;
      if (k == j || !(r2 > 0)) continue;
      const double r = std::sqrt(r2), f = b.mu[k] / (r2 * r);
      sx += f * dx, sy += f * dy, sz += f * dz;
      sp += b.mu[k] / r;
    }
    anx[j] = sx, any[j] = sy, anz[j] = sz, phi[j] = sp;
  }
  // per massive body j, the part of the first sum's bracket that is j's alone: 2 v_j² - phi_j
  std::vector<double> sj(nm);
  for (long j = 0; j < nm; ++j)
    sj[j] = 2 * (b.vx[j] * b.vx[j] + b.vy[j] * b.vy[j] + b.vz[j] * b.vz[j]) - phi[j];
  const double c2i = b.inv_c2;
#pragma omp parallel for schedule(static) num_threads(threads)
  for (long i = 0; i < n; ++i) {
    const double xi = b.x[i], yi = b.y[i], zi = b.z[i];
    const double vix = b.vx[i], viy = b.vy[i], viz = b.vz[i];
    const double vi2 = vix * vix + viy * viy + viz * viz;
    // the 1PN sums (times c²) and, for the -4 phi_i / c² factor, a_i's Newtonian part and phi_i;
    // branch-free so that it vectorises: i itself (r = 0) and coincident bodies add 0
    double px = 0, py = 0, pz = 0, nx = 0, ny = 0, nz = 0, phi_i = 0;
#pragma omp simd reduction(+ : px, py, pz, nx, ny, nz, phi_i)
    for (long j = 0; j < nm; ++j) {
      const double dx = b.x[j] - xi, dy = b.y[j] - yi, dz = b.z[j] - zi;
      const double r2 = dx * dx + dy * dy + dz * dz;
      const double inv_r = r2 > 0 ? 1 / std::sqrt(r2) : 0.0;
      const double mu_r = b.mu[j] * inv_r, f = mu_r * inv_r * inv_r;
      const double vjx = b.vx[j], vjy = b.vy[j], vjz = b.vz[j];
      const double vij = vix * vjx + viy * vjy + viz * vjz;
      const double rvj = -(dx * vjx + dy * vjy + dz * vjz) * inv_r;  // (r_i - r_j).v_j / r_ij
      const double daj = dx * anx[j] + dy * any[j] + dz * anz[j];
      // the bracket of the first sum, less its 1 (Newton) and its -4 phi_i (below)
      const double s = sj[j] + vi2 - 4 * vij - 1.5 * rvj * rvj + 0.5 * daj;
      // (r_i - r_j).(4 v_i - 3 v_j) (v_i - v_j)
      const double t =
          -(dx * (4 * vix - 3 * vjx) + dy * (4 * viy - 3 * vjy) + dz * (4 * viz - 3 * vjz));
      const double g = 3.5 * mu_r;
      px += f * (s * dx + t * (vix - vjx)) + g * anx[j];
      py += f * (s * dy + t * (viy - vjy)) + g * any[j];
      pz += f * (s * dz + t * (viz - vjz)) + g * anz[j];
      nx += f * dx, ny += f * dy, nz += f * dz;
      phi_i += mu_r;
    }
    ax[i] = c2i * (px - 4 * phi_i * nx);
    ay[i] = c2i * (py - 4 * phi_i * ny);
    az[i] = c2i * (pz - 4 * phi_i * nz);
  }
}

}  // namespace nbody
