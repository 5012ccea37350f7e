// Accuracy helpers: the double-precision direct sum on a sample of bodies and the error measures
// that every kernel test and the bench use.
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "sim/core/backend.hpp"
#include "sim/core/error.hpp"
#include "sim/forces/external_field_host.hpp"
#include "sim/forces/pair.hpp"

namespace nbody {

std::vector<std::size_t> sample_indices(std::size_t n, std::size_t count) {
  std::vector<std::size_t> idx;
  if (n <= count) {
    for (std::size_t i = 0; i < n; ++i)
      idx.push_back(i);
    return idx;
  }
  for (std::size_t k = 0; k < count; ++k)
    idx.push_back(k * n / count);
  if (!idx.empty()) idx.back() = n - 1;
  return idx;
}

void reference_accelerations(const Bodies& b, const std::vector<std::size_t>& idx, double G,
                             double softening, std::vector<double>& ax, std::vector<double>& ay,
                             std::vector<double>& az) {
  const double eps2 = softening * softening;
  ax.assign(idx.size(), 0);
  ay.assign(idx.size(), 0);
  az.assign(idx.size(), 0);
#pragma omp parallel for schedule(dynamic, 4)
  for (long k = 0; k < static_cast<long>(idx.size()); ++k) {
    const std::size_t i = idx[k];
    double sx = 0, sy = 0, sz = 0;
    for (std::size_t j = 0; j < b.size(); ++j) {
      if (j == i) continue;
      pair_accumulate(b.x[j] - b.x[i], b.y[j] - b.y[i], b.z[j] - b.z[i], b.m[j], eps2, sx, sy, sz);
    }
    ax[k] = G * sx;
    ay[k] = G * sy;
    az[k] = G * sz;
  }
  // the rigid halos' field, as every backend adds it (O(N) per halo for the anchors' reaction)
  if (!b.halos.empty()) {
    const long n = static_cast<long>(b.size());
    std::vector<double> ex(n, 0.0), ey(n, 0.0), ez(n, 0.0);
    std::vector<std::uint32_t> anchor;
    for (const RigidHalo& h : b.halos)
      anchor.push_back(h.anchor);
    apply_external_field<double>(make_external_field(b.halos, G), anchor.data(), n, b.x.data(),
                                 b.y.data(), b.z.data(), b.m.data(), ex.data(), ey.data(),
                                 ez.data(), omp_get_max_threads());
    for (std::size_t k = 0; k < idx.size(); ++k) {
      const std::size_t i = idx[k];
      const bool is_anchor = std::find(anchor.begin(), anchor.end(), i) != anchor.end();
      // an anchor's acceleration is the halo's own, not the pull on a massless body
      ax[k] = is_anchor ? ex[i] : ax[k] + ex[i];
      ay[k] = is_anchor ? ey[i] : ay[k] + ey[i];
      az[k] = is_anchor ? ez[i] : az[k] + ez[i];
    }
  }
}

AccelError acceleration_error(const std::vector<double>& ax, const std::vector<double>& ay,
                              const std::vector<double>& az, const std::vector<double>& rx,
                              const std::vector<double>& ry, const std::vector<double>& rz) {
  AccelError e;
  if (ax.size() != rx.size() || ay.size() != ry.size() || az.size() != rz.size())
    fail("acceleration_error: arrays differ in length");
  double num = 0, den = 0;
  std::vector<double> rels;
  rels.reserve(rx.size());
  for (std::size_t i = 0; i < rx.size(); ++i) {
    const double dx = ax[i] - rx[i], dy = ay[i] - ry[i], dz = az[i] - rz[i];
    const double d2 = dx * dx + dy * dy + dz * dz;
    const double r2 = rx[i] * rx[i] + ry[i] * ry[i] + rz[i] * rz[i];
    num += d2;
    den += r2;
    const double rel = r2 > 0 ? std::sqrt(d2 / r2) : std::sqrt(d2);
    rels.push_back(std::isnan(rel) ? std::numeric_limits<double>::infinity() : rel);
    if (std::isnan(rel) || std::isnan(e.max) || rel > e.max)
      e.max = std::isnan(e.max) ? e.max : rel;  // a NaN stays
  }
  e.normwise = den > 0 ? std::sqrt(num / den) : std::sqrt(num);
  // per-body percentiles (a NaN counts as an infinite error)
  if (!rels.empty()) {
    std::sort(rels.begin(), rels.end());
    const auto at = [&](double q) {
      const std::size_t k = std::min(rels.size() - 1, static_cast<std::size_t>(q * rels.size()));
      return rels[k];
    };
    e.median = at(0.5);
    e.p99 = at(0.99);
  }
  return e;
}

}  // namespace nbody
