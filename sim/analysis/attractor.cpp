#include "sim/analysis/attractor.hpp"

#include <cmath>
#include <limits>

namespace nbody {

namespace {

double distance(const Bodies& b, std::size_t i, std::size_t j) {
  const double dx = b.x[j] - b.x[i], dy = b.y[j] - b.y[i], dz = b.z[j] - b.z[i];
  return std::sqrt(dx * dx + dy * dy + dz * dz);
}

}  // namespace

std::vector<double> spheres_of_influence(const Bodies& b) {
  const std::size_t n = b.size();
  std::vector<double> soi(n, std::numeric_limits<double>::infinity());
  if (n == 0) return soi;
  std::size_t heaviest = 0;
  for (std::size_t j = 1; j < n; ++j)
    if (b.m[j] > b.m[heaviest]) heaviest = j;
  if (!(b.m[heaviest] > 0)) return std::vector<double>(n, 0.0);
  for (std::size_t j = 0; j < n; ++j)
    if (j != heaviest)
      soi[j] = b.m[j] > 0 ? distance(b, j, heaviest) * std::pow(b.m[j] / b.m[heaviest], 0.4) : 0.0;
  return soi;
}

long attractor(const Bodies& b, std::size_t i, const std::vector<double>& soi) {
  const std::size_t n = b.size();
  long centre = -1;
  for (std::size_t j = 0; j < n && j < soi.size(); ++j) {
    if (j == i || !(b.m[j] > b.m[i]) || !(distance(b, i, j) < soi[j])) continue;
    if (centre < 0 || soi[j] < soi[static_cast<std::size_t>(centre)]) centre = static_cast<long>(j);
  }
  return centre;
}

sky::State relative_state(const Bodies& b, std::size_t i, std::size_t d) {
  sky::State s;
  s.r[0] = b.x[i] - b.x[d];
  s.r[1] = b.y[i] - b.y[d];
  s.r[2] = b.z[i] - b.z[d];
  s.v[0] = b.vx[i] - b.vx[d];
  s.v[1] = b.vy[i] - b.vy[d];
  s.v[2] = b.vz[i] - b.vz[d];
  return s;
}

}  // namespace nbody
