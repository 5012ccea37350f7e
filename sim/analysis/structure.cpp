#include "sim/analysis/structure.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "sim/core/error.hpp"

namespace nbody {

namespace {

using V3 = std::array<double, 3>;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kPi = 3.14159265358979323846;

double dot(const V3& a, const V3& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
V3 cross(const V3& a, const V3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}

// median of `v` (mean of the two middle values for an even count; NaN when empty); reorders v
double median(std::vector<double>& v) {
  if (v.empty()) return kNaN;
  const std::size_t h = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + h, v.end());
  const double upper = v[h];
  if (v.size() % 2 == 1) return upper;
  return 0.5 * (*std::max_element(v.begin(), v.begin() + h) + upper);
}

// weighted centre of position and velocity of the bodies `idx` (by mass; by number when they
// have no mass)
void centre_of(const Bodies& b, const std::vector<std::size_t>& idx, V3& x, V3& v) {
  double m = 0;
  for (std::size_t i : idx)
    m += b.m[i];
  const bool by_number = !(m > 0);
  double w = 0;
  x = {0, 0, 0};
  v = {0, 0, 0};
  for (std::size_t i : idx) {
    const double wi = by_number ? 1.0 : b.m[i];
    w += wi;
    x[0] += wi * b.x[i], x[1] += wi * b.y[i], x[2] += wi * b.z[i];
    v[0] += wi * b.vx[i], v[1] += wi * b.vy[i], v[2] += wi * b.vz[i];
  }
  for (int k = 0; k < 3; ++k) {
    x[k] = w > 0 ? x[k] / w : kNaN;
    v[k] = w > 0 ? v[k] / w : kNaN;
  }
}

// radii about `c` enclosing kLagrangianFractions of the mass of `idx` (of their number when
// massless): the smallest body radius whose cumulative weight reaches the fraction
std::array<double, 5> lagrangian_radii(const Bodies& b, const std::vector<std::size_t>& idx,
                                       const V3& c) {
  std::array<double, 5> out;
  out.fill(kNaN);
  if (idx.empty()) return out;
  double m = 0;
  for (std::size_t i : idx)
    m += b.m[i];
  const bool by_number = !(m > 0);
  std::vector<std::pair<double, double>> rw(idx.size());  // (radius, weight)
  for (std::size_t k = 0; k < idx.size(); ++k) {
    const std::size_t i = idx[k];
    const double dx = b.x[i] - c[0], dy = b.y[i] - c[1], dz = b.z[i] - c[2];
    rw[k] = {std::sqrt(dx * dx + dy * dy + dz * dz), by_number ? 1.0 : b.m[i]};
  }
  std::sort(rw.begin(), rw.end());
  const double total = by_number ? static_cast<double>(idx.size()) : m;
  double cum = 0;
  std::size_t f = 0;
  for (std::size_t k = 0; k < rw.size() && f < out.size(); ++k) {
    cum += rw[k].second;
    while (f < out.size() && cum >= kLagrangianFractions[f] * total)
      out[f++] = rw[k].first;
  }
  // rounding can leave the last fractions unset: they lie at the outermost body
  for (; f < out.size(); ++f)
    out[f] = rw.back().first;
  return out;
}

// spin axis, thickness, half radius and v/sigma of the disk bodies `idx`
void measure_disk(const Bodies& b, const std::vector<std::size_t>& idx, GroupStructure& s) {
  s.disk_bodies = idx.size();
  s.spin_axis = {kNaN, kNaN, kNaN};
  s.disk_thickness = s.disk_half_radius = s.v_over_sigma = kNaN;
  if (idx.empty()) return;
  V3 c, vc;
  centre_of(b, idx, c, vc);

  // spin axis: angular momentum about the disk's own centre, in its own rest frame
  double m = 0;
  for (std::size_t i : idx)
    m += b.m[i];
  const bool by_number = !(m > 0);
  V3 l{0, 0, 0};
  for (std::size_t i : idx) {
    const double w = by_number ? 1.0 : b.m[i];
    const V3 d{b.x[i] - c[0], b.y[i] - c[1], b.z[i] - c[2]};
    const V3 u{b.vx[i] - vc[0], b.vy[i] - vc[1], b.vz[i] - vc[2]};
    const V3 li = cross(d, u);
    for (int k = 0; k < 3; ++k)
      l[k] += w * li[k];
  }
  const double ln = std::sqrt(dot(l, l));
  if (!(ln > 0)) return;
  const V3 n{l[0] / ln, l[1] / ln, l[2] / ln};
  s.spin_axis = n;

  // height above the mid-plane and cylindrical radius of each disk body
  const std::size_t nd = idx.size();
  std::vector<double> z(nd), rc(nd);
  for (std::size_t k = 0; k < nd; ++k) {
    const std::size_t i = idx[k];
    const V3 d{b.x[i] - c[0], b.y[i] - c[1], b.z[i] - c[2]};
    z[k] = dot(d, n);
    rc[k] = std::sqrt(std::max(0.0, dot(d, d) - z[k] * z[k]));
  }
  std::vector<double> tmp(nd);
  std::transform(z.begin(), z.end(), tmp.begin(), [](double v) { return std::fabs(v); });
  s.disk_thickness = median(tmp);
  tmp = rc;
  s.disk_half_radius = median(tmp);

  // the annulus between the radii holding 40 % and 70 % of the disk bodies (by number)
  tmp = rc;
  std::sort(tmp.begin(), tmp.end());
  const auto at = [&](double f) {
    return tmp[std::min(nd - 1, static_cast<std::size_t>(f * static_cast<double>(nd - 1) + 0.5))];
  };
  // (radii that differ only by rounding, as on a ring, count as inside)
  const double slack = 1e-12 * at(0.7), r0 = at(0.4) - slack, r1 = at(0.7) + slack;
  // mean and variance of the cylindrical velocity components there (by number)
  double sum[3] = {0, 0, 0}, sum2[3] = {0, 0, 0};
  std::size_t count = 0;
  for (std::size_t k = 0; k < nd; ++k) {
    if (rc[k] < r0 || rc[k] > r1 || !(rc[k] > 0)) continue;
    const std::size_t i = idx[k];
    const V3 d{b.x[i] - c[0], b.y[i] - c[1], b.z[i] - c[2]};
    const V3 u{b.vx[i] - vc[0], b.vy[i] - vc[1], b.vz[i] - vc[2]};
    const V3 er{(d[0] - z[k] * n[0]) / rc[k], (d[1] - z[k] * n[1]) / rc[k],
                (d[2] - z[k] * n[2]) / rc[k]};
    const V3 ephi = cross(n, er);
    const double v[3] = {dot(u, er), dot(u, ephi), dot(u, n)};
    for (int j = 0; j < 3; ++j) {
      sum[j] += v[j];
      sum2[j] += v[j] * v[j];
    }
    ++count;
  }
  if (count < 2) return;
  const double cnt = static_cast<double>(count);
  double var = 0;
  for (int j = 0; j < 3; ++j) {
    const double mean = sum[j] / cnt;
    var += std::max(0.0, sum2[j] / cnt - mean * mean);
  }
  const double sigma = std::sqrt(var / 3.0);
  const double vphi = sum[1] / cnt;
  // IEEE division: a cold annulus (sigma = 0) gives +-inf, a resting one NaN
  s.v_over_sigma = vphi / sigma;
}

GroupStructure measure_group(const Bodies& b, const BodyGroup& g) {
  if (g.begin > g.end || g.end > b.size())
    fail("structure: group '", g.name, "' [", g.begin, ", ", g.end, ") is not a range of the ",
         b.size(), " bodies");
  GroupStructure s;
  s.name = g.name;
  s.bodies = g.end - g.begin;
  std::vector<std::size_t> all(s.bodies), disk;
  std::iota(all.begin(), all.end(), g.begin);
  for (std::size_t i : all)
    if (b.component[i] == Component::Disk) disk.push_back(i);
  V3 v;
  centre_of(b, all, s.centre, v);
  s.lagrangian = lagrangian_radii(b, all, s.centre);
  measure_disk(b, disk, s);
  return s;
}

}  // namespace

std::vector<GroupStructure> measure_structure(const Bodies& b,
                                              const std::vector<BodyGroup>& groups) {
  std::vector<GroupStructure> out;
  if (groups.empty()) {
    out.push_back(measure_group(b, {"all", 0, b.size()}));
    return out;
  }
  out.reserve(groups.size());
  for (const BodyGroup& g : groups)
    out.push_back(measure_group(b, g));
  return out;
}

double tilt_degrees(const std::array<double, 3>& a, const std::array<double, 3>& b) {
  // atan2 of |a x b| and a . b: accurate for small and for nearly opposite angles
  return std::atan2(std::sqrt(dot(cross(a, b), cross(a, b))), dot(a, b)) * 180.0 / kPi;
}

}  // namespace nbody
