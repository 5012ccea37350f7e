#include "sim/edit/preview.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

#include "sim/core/error.hpp"
#include "sim/forces/pair.hpp"

namespace nbody {

namespace {

constexpr std::size_t kHeaviest = 16;

using Sources = PreviewField;

void add_source(PreviewField& s, const Bodies& b, std::size_t i, double mass) {
  s.x.push_back(b.x[i]);
  s.y.push_back(b.y[i]);
  s.z.push_back(b.z[i]);
  s.vx.push_back(b.vx[i]);
  s.vy.push_back(b.vy[i]);
  s.vz.push_back(b.vz[i]);
  s.m.push_back(mass);
  s.index.push_back(static_cast<long>(i));
}

// the float copies the integration uses
void finish_field(PreviewField& s) {
  const std::vector<double>* from[] = {&s.x, &s.y, &s.z, &s.m};
  std::vector<float>* to[] = {&s.fx, &s.fy, &s.fz, &s.fm};
  for (int k = 0; k < 4; ++k)
    to[k]->assign(from[k]->begin(), from[k]->end());
}

}  // namespace

PreviewField preview_field(const Scene& scene) {
  const Bodies& b = scene.bodies;
  PreviewField s;
  const std::size_t n = b.size();
  std::size_t massive = 0;
  double total = 0;
  // the kHeaviest heaviest, kept sorted by mass, descending
  std::vector<std::size_t> top;
  for (std::size_t i = 0; i < n; ++i) {
    if (!(b.m[i] > 0)) continue;
    ++massive;
    total += b.m[i];
    if (top.size() == kHeaviest && b.m[i] <= b.m[top.back()]) continue;
    auto at = std::upper_bound(top.begin(), top.end(), i,
                               [&](std::size_t a, std::size_t c) { return b.m[a] > b.m[c]; });
    top.insert(at, i);
    if (top.size() > kHeaviest) top.pop_back();
  }
  if (massive <= kPreviewSources) {
    for (std::size_t i = 0; i < n; ++i)
      if (b.m[i] > 0) add_source(s, b, i, b.m[i]);
    s.exact = s.m.size();
    finish_field(s);
    return s;
  }
  double rest = total;
  for (std::size_t i : top) {
    add_source(s, b, i, b.m[i]);
    rest -= b.m[i];
  }
  s.exact = s.m.size();
  // an even stride over all bodies, skipping the massless and the heaviest
  const std::size_t want = kPreviewSources - top.size();
  const std::size_t stride = std::max<std::size_t>(1, n / want);
  double sampled = 0;
  for (std::size_t i = stride / 2; i < n && s.m.size() < kPreviewSources; i += stride) {
    if (!(b.m[i] > 0) || std::find(top.begin(), top.end(), i) != top.end()) continue;
    add_source(s, b, i, b.m[i]);
    sampled += b.m[i];
  }
  const double scale = sampled > 0 ? std::max(rest, 0.0) / sampled : 0;
  for (std::size_t k = s.exact; k < s.m.size(); ++k)
    s.m[k] *= scale;
  finish_field(s);
  return s;
}

namespace {

// acceleration (per G) at p from the sources with ε², in float (a preview needs no more, and
// 4 lanes where double has 2: ~1 ns an interaction)
void field(const Sources& s, const double p[3], double eps2, double a[3]) {
  float ax = 0, ay = 0, az = 0;
  const long n = static_cast<long>(s.fm.size());
  const float* __restrict x = s.fx.data();
  const float* __restrict y = s.fy.data();
  const float* __restrict z = s.fz.data();
  const float* __restrict m = s.fm.data();
  const float px = static_cast<float>(p[0]), py = static_cast<float>(p[1]),
              pz = static_cast<float>(p[2]), e2 = static_cast<float>(eps2);
  // the one pair interaction of the CPU kernels (r² = 0 adds nothing)
#pragma omp simd reduction(+ : ax, ay, az)
  for (long k = 0; k < n; ++k)
    pair_accumulate(x[k] - px, y[k] - py, z[k] - pz, m[k], e2, ax, ay, az);
  a[0] = ax;
  a[1] = ay;
  a[2] = az;
}

// the conic of the probe about source d; false when degenerate (radial)
bool conic(const Sources& src, std::size_t d, const BodySpec& probe, double G, int points,
           double size, PathPreview& out) {
  const double mu = G * (src.m[d] + probe.m);
  const double c0[3] = {src.x[d], src.y[d], src.z[d]};
  const double r[3] = {probe.x - c0[0], probe.y - c0[1], probe.z - c0[2]};
  const double v[3] = {probe.vx - src.vx[d], probe.vy - src.vy[d], probe.vz - src.vz[d]};
  const double h[3] = {r[1] * v[2] - r[2] * v[1], r[2] * v[0] - r[0] * v[2],
                       r[0] * v[1] - r[1] * v[0]};
  const double rn = std::sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
  const double hn = std::sqrt(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]);
  if (!(mu > 0) || !(rn > 0) || !(hn > 1e-12 * rn * std::sqrt(mu / rn))) return false;
  // eccentricity vector e = v x h / mu - r / |r|; the basis P (to the pericentre), Q
  double ev[3] = {(v[1] * h[2] - v[2] * h[1]) / mu - r[0] / rn,
                  (v[2] * h[0] - v[0] * h[2]) / mu - r[1] / rn,
                  (v[0] * h[1] - v[1] * h[0]) / mu - r[2] / rn};
  const double e = std::sqrt(ev[0] * ev[0] + ev[1] * ev[1] + ev[2] * ev[2]);
  double P[3];
  for (int k = 0; k < 3; ++k)
    P[k] = e > 1e-9 ? ev[k] / e : r[k] / rn;
  const double Q[3] = {(h[1] * P[2] - h[2] * P[1]) / hn, (h[2] * P[0] - h[0] * P[2]) / hn,
                       (h[0] * P[1] - h[1] * P[0]) / hn};
  const double p = hn * hn / mu;
  // a full ellipse, or the open branch out to the system's size
  double nu0 = -std::numbers::pi, nu1 = std::numbers::pi;
  out.closed = e < 1;
  if (!out.closed) {
    const double reach = std::max(size, 2 * rn);
    const double numax = std::acos(std::clamp((p / reach - 1) / e, -1.0, 1.0));
    nu0 = -numax;
    nu1 = numax;
  }
  out.points.resize(static_cast<std::size_t>(points));
  for (int k = 0; k < points; ++k) {
    const double nu = nu0 + (nu1 - nu0) * k / (points - 1);
    const double rad = p / (1 + e * std::cos(nu));
    const double c = rad * std::cos(nu), s = rad * std::sin(nu);
    out.points[k] = {c0[0] + c * P[0] + s * Q[0], c0[1] + c * P[1] + s * Q[1],
                     c0[2] + c * P[2] + s * Q[2]};
  }
  if (out.closed) out.points.back() = out.points.front();
  out.conic = true;
  out.dominant = src.index[d];
  return true;
}

}  // namespace

PathPreview preview_path(const PreviewField& src, const BodySpec& probe, double G, double softening,
                         int points) {
  if (points < 2) fail("path preview: points must be >= 2 (got ", points, ")");
  if (!(G > 0)) fail("path preview: G must be > 0 (got ", G, ")");
  PathPreview out;
  const double eps2 = softening * softening;
  const double p0[3] = {probe.x, probe.y, probe.z};
  // the pulls: the largest of an exact source against the sum; the centre of mass and size
  double best = 0, sum = 0, mt = 0, c[3] = {0, 0, 0};
  std::size_t dom = 0;
  for (std::size_t k = 0; k < src.m.size(); ++k) {
    const double dx = src.x[k] - p0[0], dy = src.y[k] - p0[1], dz = src.z[k] - p0[2];
    const double r2 = dx * dx + dy * dy + dz * dz;
    const double s2 = r2 + eps2;
    const double pull = s2 > 0 ? src.m[k] * std::sqrt(r2) / (s2 * std::sqrt(s2)) : 0;
    sum += pull;
    if (k < src.exact && pull > best) {
      best = pull;
      dom = k;
    }
    mt += src.m[k];
    c[0] += src.m[k] * src.x[k];
    c[1] += src.m[k] * src.y[k];
    c[2] += src.m[k] * src.z[k];
  }
  if (src.m.empty()) {
    // nothing pulls: a straight line
    out.points = {{p0[0], p0[1], p0[2]}, {p0[0] + probe.vx, p0[1] + probe.vy, p0[2] + probe.vz}};
    out.points.resize(static_cast<std::size_t>(points), out.points.back());
    return out;
  }
  for (double& v : c)
    v /= mt;
  double size = 0;
  for (std::size_t k = 0; k < src.m.size(); ++k)
    size = std::max(
        size, std::hypot(src.x[k] - src.x[dom], src.y[k] - src.y[dom], src.z[k] - src.z[dom]));
  if (sum > 0 && best > 0.9 * sum && conic(src, dom, probe, G, points, 1.5 * size, out)) return out;
  // else: leapfrog in the frozen field for about one crossing time
  double a[3];
  field(src, p0, eps2, a);
  const double an = G * std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
  const double vn = std::sqrt(probe.vx * probe.vx + probe.vy * probe.vy + probe.vz * probe.vz);
  const double r = std::max(std::hypot(p0[0] - c[0], p0[1] - c[1], p0[2] - c[2]), softening);
  double T = an > 0 ? 2 * std::sqrt(r / an) : (vn > 0 ? 2 * r / vn : 0);
  if (vn > 0) T = std::min(T, 2 * std::max(r, size * 1e-3) / vn);
  if (!(T > 0) || !std::isfinite(T)) T = 1;
  const int steps = points - 1;
  const double dt = T / steps;
  double x[3] = {p0[0], p0[1], p0[2]}, v[3] = {probe.vx, probe.vy, probe.vz};
  out.points.reserve(static_cast<std::size_t>(points));
  out.points.push_back({x[0], x[1], x[2]});
  for (int k = 0; k < steps; ++k) {
    for (int d = 0; d < 3; ++d) {
      v[d] += 0.5 * dt * G * a[d];
      x[d] += dt * v[d];
    }
    field(src, x, eps2, a);
    for (int d = 0; d < 3; ++d)
      v[d] += 0.5 * dt * G * a[d];
    out.points.push_back({x[0], x[1], x[2]});
  }
  out.duration = T;
  return out;
}

PathPreview preview_path(const Scene& s, const BodySpec& probe, double G, double softening,
                         int points) {
  return preview_path(preview_field(s), probe, G, softening, points);
}

std::vector<std::array<double, 3>> predict_path(const Scene& s, const BodySpec& probe, double G,
                                                double softening, int points) {
  return preview_path(s, probe, G, softening, points).points;
}

}  // namespace nbody
