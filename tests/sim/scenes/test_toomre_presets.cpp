// Toomre & Toomre presets against the papers: the cores' orbit (eccentricity and pericentre
// measured from the generated bodies), the disks' tilts and the mass ratio (TT72 figs. 21-23),
// the ring galaxy's drop-through along the disk's axis and the ring it makes (Lynds & Toomre
// 1976), and the camera framing that keeps both galaxies and their tails in view.

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <vector>

#include "sim/analysis/structure.hpp"
#include "sim/core/backend.hpp"
#include "sim/core/scene.hpp"
#include "tests/sim/scenes/evolve.hpp"

namespace nbody {
namespace {

using V3 = std::array<double, 3>;

constexpr double kPi = 3.14159265358979323846;

Scene preset(int p, std::size_t n) {
  SceneParams sp;
  sp.n = n;
  sp.values = {{"preset", p}};
  return make_scene("toomre", sp);
}

V3 pos(const Bodies& b, std::size_t i) {
  return {b.x[i], b.y[i], b.z[i]};
}
V3 vel(const Bodies& b, std::size_t i) {
  return {b.vx[i], b.vy[i], b.vz[i]};
}
V3 sub(const V3& a, const V3& b) {
  return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}
V3 cross(const V3& a, const V3& b) {
  return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
double dot(const V3& a, const V3& b) {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
double norm(const V3& a) {
  return std::sqrt(dot(a, a));
}

// the two cores (the massive bodies), heavier first
std::pair<std::size_t, std::size_t> cores(const Bodies& b) {
  std::vector<std::size_t> c;
  for (std::size_t i = 0; i < b.size(); ++i)
    if (b.m[i] > 0) c.push_back(i);
  EXPECT_EQ(c.size(), 2u);
  if (b.m[c.at(1)] > b.m[c.at(0)]) std::swap(c[0], c[1]);
  return {c.at(0), c.at(1)};
}

// unit spin axis of a group's stars about core k (their summed angular momentum)
V3 spin(const Bodies& b, const BodyGroup& g, std::size_t k) {
  V3 l = {0, 0, 0};
  for (std::size_t i = g.begin; i < g.end; ++i) {
    const V3 c = cross(sub(pos(b, i), pos(b, k)), sub(vel(b, i), vel(b, k)));
    for (int d = 0; d < 3; ++d)
      l[d] += c[d];
  }
  const double n = norm(l);
  return {l[0] / n, l[1] / n, l[2] / n};
}

// TT72's angles of a disk (spin s) to the relative orbit of its companion (position r and
// velocity v of the companion relative to the disk's core, mu = G (m1 + m2)): i between the
// orbit's angular momentum and the spin, omega in the orbit plane from the ascending node (where
// the companion rises through the disk's plane along the spin) to the pericentre, counted in
// the sense of the companion's motion
std::pair<double, double> tt72_angles(const V3& s, const V3& r, const V3& v, double mu) {
  const V3 h = cross(r, v);
  const double hn = norm(h);
  const V3 hz = {h[0] / hn, h[1] / hn, h[2] / hn};
  const double i = std::acos(std::clamp(dot(hz, s), -1.0, 1.0)) / kPi * 180;
  // eccentricity vector: towards the pericentre
  const V3 vh = cross(v, h);
  const double rn = norm(r);
  V3 e;
  for (int d = 0; d < 3; ++d)
    e[d] = vh[d] / mu - r[d] / rn;
  // the line of nodes lies in both planes; the ascending node is the end where the companion
  // crosses from the disk's -s side to its +s side
  V3 node = cross(s, hz);
  const double nn = norm(node);
  for (double& c : node)
    c /= nn;
  // the companion moves along hz x node at the node; rising means (hz x node) . s > 0
  if (dot(cross(hz, node), s) < 0)
    for (double& c : node)
      c = -c;
  const double w = std::atan2(dot(cross(node, e), hz), dot(node, e)) / kPi * 180;
  return {i, w};
}

TEST(ToomrePresets, OrbitTiltsAndMassRatioAsCited) {
  struct Case {
    int preset;
    double q, e, rp, i1, i2, w1, w2;
  };
  // TT72 fig. 23 (Antennae), fig. 22 (Mice), fig. 21 (M51): e, the pericentre in R_min, i (the
  // angle between the orbit's and the disk's angular momenta) and w from the ascending node; M51's
  // i = -70, -60 with w = -15 (TT72's signs) are the tilts (70, 165) and (60, 165)
  for (const Case& c : {Case{1, 1, 0.5, 1, 60, 60, -30, -30}, Case{2, 1, 0.6, 1, 15, 60, -90, -90},
                        Case{3, 1.0 / 3.0, 0.8, 1, 70, 60, 165, 165}}) {
    const Scene s = preset(c.preset, 1000);
    const Bodies& B = s.bodies;
    const auto [a, b] = cores(B);
    const double mu = s.units.G * (B.m[a] + B.m[b]);
    const V3 r = sub(pos(B, b), pos(B, a)), v = sub(vel(B, b), vel(B, a));
    const V3 h = cross(r, v);
    const V3 vh = cross(v, h);
    V3 ev;
    for (int d = 0; d < 3; ++d)
      ev[d] = vh[d] / mu - r[d] / norm(r);
    const double e = norm(ev), p = dot(h, h) / mu, rp = p / (1 + e);
    std::printf("preset %d: e %.6f rp %.6f q %.4f\n", c.preset, e, rp, B.m[b] / B.m[a]);
    EXPECT_NEAR(e, c.e, 1e-9) << c.preset;
    EXPECT_NEAR(rp, c.rp, 1e-9) << c.preset;
    EXPECT_NEAR(B.m[b] / B.m[a], c.q, 1e-12) << c.preset;
    ASSERT_EQ(s.groups.size(), 2u);
    // disk 1's angles about core a, disk 2's about core b (the companion is then core a)
    const auto [i1, w1] = tt72_angles(spin(B, s.groups[0], a), r, v, mu);
    const V3 mr = {-r[0], -r[1], -r[2]}, mv = {-v[0], -v[1], -v[2]};
    const auto [i2, w2] = tt72_angles(spin(B, s.groups[1], b), mr, mv, mu);
    std::printf("  disk 1 (i, w) = (%.3f, %.3f), disk 2 (%.3f, %.3f)\n", i1, w1, i2, w2);
    EXPECT_NEAR(i1, c.i1, 1e-6) << c.preset;
    EXPECT_NEAR(i2, c.i2, 1e-6) << c.preset;
    EXPECT_NEAR(w1, c.w1, 1e-6) << c.preset;
    EXPECT_NEAR(w2, c.w2, 1e-6) << c.preset;
  }
}

// the ring galaxy: a hyperbolic drop-through along disk 1's axis, just off its centre
TEST(ToomrePresets, RingGalaxyDropsThroughAlongTheAxis) {
  const Scene s = preset(4, 1000);
  const Bodies& B = s.bodies;
  const auto [a, b] = cores(B);
  EXPECT_NEAR(B.m[b] / B.m[a], 0.7, 1e-12);
  const V3 r = sub(pos(B, b), pos(B, a)), v = sub(vel(B, b), vel(B, a));
  const V3 s1 = spin(B, s.groups[0], a);
  // moving along the axis (velocity parallel to the spin), towards the disk
  EXPECT_GT(std::abs(dot(v, s1)) / norm(v), 1 - 1e-12);
  EXPECT_LT(dot(r, v), 0);
  // impact parameter: the distance of the straight path from the core
  const double b_imp = norm(cross(r, v)) / norm(v);
  EXPECT_NEAR(b_imp, 0.04, 1e-12);
  // unbound in the softened potential: speed at infinity 1.2 (units of sqrt(G m1 / R_min))
  const double mu = s.units.G * (B.m[a] + B.m[b]);
  const double e_orb = 0.5 * dot(v, v) - mu / std::sqrt(dot(r, r) + s.softening * s.softening);
  EXPECT_NEAR(std::sqrt(2 * e_orb), 1.2, 1e-9);
}

// disk 1's stars in coordinates of its initial plane (normal n) about core 1: (x, y) in the
// plane, z along n
struct Planar {
  std::vector<double> x, y, z;
};
Planar in_plane(const Bodies& b, const BodyGroup& g, std::size_t core, const V3& n) {
  V3 u = std::abs(n[0]) < 0.9 ? V3{1, 0, 0} : V3{0, 1, 0};
  const double un = dot(u, n);
  for (int d = 0; d < 3; ++d)
    u[d] -= un * n[d];
  const double len = norm(u);
  for (double& c : u)
    c /= len;
  const V3 v = cross(n, u);
  Planar p;
  for (std::size_t i = g.begin; i < g.end; ++i) {
    const V3 d = sub(pos(b, i), pos(b, core));
    p.x.push_back(dot(d, u));
    p.y.push_back(dot(d, v));
    p.z.push_back(dot(d, n));
  }
  return p;
}

// least-squares circle x^2 + y^2 + D x + E y + F = 0 through points (Kasa's fit): centre and
// radius
void fit_circle(const std::vector<double>& x, const std::vector<double>& y, double& cx, double& cy,
                double& r) {
  double a[3][4] = {};  // normal equations, right-hand side in column 3
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double row[3] = {x[i], y[i], 1}, rhs = -(x[i] * x[i] + y[i] * y[i]);
    for (int j = 0; j < 3; ++j) {
      for (int k = 0; k < 3; ++k)
        a[j][k] += row[j] * row[k];
      a[j][3] += row[j] * rhs;
    }
  }
  for (int c = 0; c < 3; ++c)  // Gauss-Jordan (the matrix is symmetric positive definite)
    for (int j = 0; j < 3; ++j) {
      if (j == c) continue;
      const double f = a[j][c] / a[c][c];
      for (int k = 0; k < 4; ++k)
        a[j][k] -= f * a[c][k];
    }
  const double D = a[0][3] / a[0][0], E = a[1][3] / a[1][1], F = a[2][3] / a[2][2];
  cx = -D / 2;
  cy = -E / 2;
  r = std::sqrt(std::max(0.0, cx * cx + cy * cy - F));
}

// the outer ring of disk 1 in its initial plane: in each of 24 sectors about the nucleus (core
// 1) the radius where the surface density (bins of 0.02) peaks beyond 0.2; a circle fitted to
// those 24 points; then about that circle's centre the surface density profile (in units of
// the initial disk's mean `mean0`): its peak within 0.7-1.3 of the radius, the mean density
// inside at 0.4-0.8 of the radius, the peak's full width at half maximum, the ring's mean
// height above the initial plane and the nucleus' distance from the ring's centre
struct Ring {
  double radius = 0, offset = 0, peak = 0, interior = 0, fwhm = 0, height = 0;
  double contrast() const { return peak / std::max(interior, 1e-300); }
};
Ring measure_ring(const Bodies& b, const BodyGroup& g, std::size_t core, const V3& n,
                  double mean0) {
  const Planar p = in_plane(b, g, core, n);
  constexpr int kSectors = 24, kBins = 60;
  constexpr double w = 0.02;
  std::vector<std::array<double, kBins>> cnt(kSectors);
  for (auto& c : cnt)
    c.fill(0);
  for (std::size_t i = 0; i < p.x.size(); ++i) {
    const double R = std::hypot(p.x[i], p.y[i]);
    const int k = static_cast<int>(R / w);
    const int s =
        std::clamp(static_cast<int>((std::atan2(p.y[i], p.x[i]) + kPi) / (2 * kPi) * kSectors), 0,
                   kSectors - 1);
    if (k < kBins) cnt[s][k] += 1 / ((k + 0.5) * w);  // per unit area of the sector's bin
  }
  std::vector<double> rx, ry;
  for (int s = 0; s < kSectors; ++s) {
    int best = static_cast<int>(0.2 / w);
    for (int k = best; k < kBins; ++k)
      if (cnt[s][k] > cnt[s][best]) best = k;
    const double r = (best + 0.5) * w, ph = -kPi + (s + 0.5) * 2 * kPi / kSectors;
    rx.push_back(r * std::cos(ph));
    ry.push_back(r * std::sin(ph));
  }
  Ring ring;
  double cx = 0, cy = 0;
  fit_circle(rx, ry, cx, cy, ring.radius);
  ring.offset = std::hypot(cx, cy);
  std::vector<double> sigma(kBins, 0.0);
  double zsum = 0;
  int zn = 0;
  for (std::size_t i = 0; i < p.x.size(); ++i) {
    const double R = std::hypot(p.x[i] - cx, p.y[i] - cy);
    const std::size_t k = static_cast<std::size_t>(R / w);
    if (k < sigma.size()) sigma[k] += 1;
    if (std::abs(R - ring.radius) < 0.05) {
      zsum += p.z[i];
      ++zn;
    }
  }
  for (std::size_t k = 0; k < sigma.size(); ++k)
    sigma[k] /= kPi * w * w * ((k + 1.0) * (k + 1.0) - 1.0 * k * k) * mean0;
  const int lo = static_cast<int>(0.7 * ring.radius / w);
  const int hi = std::min(kBins - 1, static_cast<int>(1.3 * ring.radius / w));
  int pk = lo;
  for (int k = lo; k <= hi; ++k)
    if (sigma[k] > sigma[pk]) pk = k;
  ring.peak = sigma[pk];
  int m = 0;
  for (int k = 0; k < kBins; ++k)
    if ((k + 0.5) * w >= 0.4 * ring.radius && (k + 0.5) * w <= 0.8 * ring.radius) {
      ring.interior += sigma[k];
      ++m;
    }
  ring.interior /= std::max(m, 1);
  int a = pk, z = pk;
  while (a > 0 && sigma[a - 1] > 0.5 * ring.peak)
    --a;
  while (z + 1 < kBins && sigma[z + 1] > 0.5 * ring.peak)
    ++z;
  ring.fwhm = (z - a + 1) * w;
  ring.height = zn ? zsum / zn : 0;
  return ring;
}

// the ring galaxy at the paper's time (Lynds & Toomre 1976; the Cartwheel): a narrow outer ring,
// dense against a nearly emptied interior, off-centre with respect to the nucleus. The
// previous preset (companion 0.3, impact parameter 0.05, t = 1.5) measured here 5.2x the
// interior's density with the interior at 0.57 of the initial mean: it fails
TEST(ToomrePresets, RingGalaxyHasARingAtThePapersTime) {
  const Scene s = preset(4, 6000);
  const auto [a, b] = cores(s.bodies);
  const BodyGroup g = s.groups[0];
  const V3 n = spin(s.bodies, g, a);
  // the initial disk: uniform between 0.06 and 0.6 R_min, no ring by this measure
  const double mean0 = static_cast<double>(g.end - g.begin) / (kPi * (0.36 - 0.06 * 0.06));
  const Ring r0 = measure_ring(s.bodies, g, a, n, mean0);
  std::printf("initial disk: %.1fx the interior's density (peak %.2f, interior %.2f)\n",
              r0.contrast(), r0.peak, r0.interior);
  EXPECT_LT(r0.contrast(), 2);
  SimParams p = testing::params("cpu-barnes-hut", s.dt, s.softening, s.units.G);
  auto backend = make_backend(p);
  backend->set_bodies(s.bodies);
  const int steps = static_cast<int>(std::lround(s.duration / s.dt));
  backend->step(p, steps);
  Bodies out;
  backend->get_bodies(out);
  const Ring r = measure_ring(out, g, a, n, mean0);
  std::printf(
      "ring galaxy after %d steps (t = %.3f): outer ring of radius %.3f, FWHM %.2f, peak %.2fx "
      "the initial mean, %.1fx the interior (0.4-0.8 of the radius, %.2fx the initial mean); "
      "nucleus %.3f (%.2f radii) from the ring's centre; ring %.3f above the initial plane\n",
      steps, s.duration, r.radius, r.fwhm, r.peak, r.contrast(), r.interior, r.offset,
      r.offset / r.radius, r.height);
  EXPECT_GT(r.radius, 0.4);
  EXPECT_LT(r.radius, 0.7);
  EXPECT_GT(r.contrast(), 8);
  EXPECT_LT(r.interior, 0.4);
  EXPECT_LT(r.fwhm, 0.25 * r.radius);
  // off-centre: a head-on drop (impact parameter 0) measures 0.000 here
  EXPECT_GT(r.offset, 0.1 * r.radius);
  EXPECT_LT(r.offset, 0.5 * r.radius);
}

// the camera distance takes in both cores and most stars (the tails) at the paper's time
TEST(ToomrePresets, FramingTakesInBothGalaxies) {
  for (int p : {1, 2, 3, 4}) {
    const Scene s = preset(p, 2000);
    SimParams sp = testing::params("cpu-barnes-hut", s.dt, s.softening, s.units.G);
    auto backend = make_backend(sp);
    backend->set_bodies(s.bodies);
    backend->step(sp, static_cast<int>(std::lround(s.duration / s.dt)));
    Bodies out;
    backend->get_bodies(out);
    // fraction of bodies inside the camera's 45 deg field (height; the width is larger)
    const V3 dir = {std::cos(s.camera_pitch) * std::cos(s.camera_yaw),
                    std::cos(s.camera_pitch) * std::sin(s.camera_yaw), std::sin(s.camera_pitch)};
    const double half = s.camera_distance * std::tan(22.5 * kPi / 180);
    std::size_t in = 0;
    bool cores_in = true;
    std::vector<double> perps;
    for (std::size_t i = 0; i < out.size(); ++i) {
      const V3 d = pos(out, i);
      const double along = dot(d, dir);
      const double perp = std::sqrt(std::max(0.0, dot(d, d) - along * along));
      if (perp < half) ++in;
      perps.push_back(perp);
      if (out.m[i] > 0 && perp > 0.8 * half) cores_in = false;
    }
    const double frac = static_cast<double>(in) / static_cast<double>(out.size());
    std::sort(perps.begin(), perps.end());
    const double p90 = perps[perps.size() * 9 / 10];
    std::printf(
        "preset %d: camera %.2f, %.1f%% of bodies within the field's half-height %.2f, "
        "90%% within %.2f\n",
        p, s.camera_distance, 100 * frac, half, p90);
    EXPECT_TRUE(cores_in) << p;
    EXPECT_GT(frac, 0.9) << p;
    // not so far that the picture is a speck: the bodies span at least 0.4 of the half-height
    EXPECT_GT(p90, 0.4 * half) << p;
  }
}

}  // namespace
}  // namespace nbody
