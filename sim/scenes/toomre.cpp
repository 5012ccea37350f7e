// Toomre & Toomre's (1972, ApJ 178, 623) restricted collision: two point-mass cores on a
// parabolic or elliptic orbit, each with a disk of massless test stars in rings of circular orbits
// from 0.2 to 0.6 pericentre distances. Massless bodies are sources of nothing in every kernel, so
// the stars feel the cores and the cores feel only each other: N stars cost about N test-
// particle orbits.
//
// Units: N-body units, G = 1 (units::henon()'s dimensionless system), core 1 of mass 1, core 2
// of mass `mass_ratio`, lengths in the units of `rp`.
//
// Disk orientation (TT72's angles, named as in celestial mechanics with the disk as the
// reference plane): `incl` is the angle between the disk's spin and the orbit's angular
// momentum (0: prograde in the orbital plane; 180: retrograde), `arg` the angle in the orbit
// plane, counted along the companion's motion, from the ascending node (where the companion
// rises through the disk along its spin) to the pericentre. A negative incl tilts the other way:
// (-i, w) is the disk (i, w + 180).

#include <algorithm>
#include <cmath>
#include <sstream>

#include "sim/core/error.hpp"
#include "sim/scenes/common.hpp"

namespace nbody::scenes {

namespace {

// inner and outer ring radius in units of the pericentre (Toomre's setup, section II)
constexpr double kInner = 0.2, kOuter = 0.6;
// softening in units of the pericentre
constexpr double kSoftening = 0.02;
// TT72's time unit, 1e8 yr for R_min = 25 kpc and a heavier mass of 1e11 Msun (their section
// II), in this scene's units (G = 1, heavier core 1, R_min 1): sqrt(25^3 / (G 1e11)) kpc/(km/s)
// is 186.4 Myr, so 100 Myr is 0.5365 (their outer ring at 0.6 R_min has period 5.442 x 1e8 yr,
// 2 pi 0.6^1.5 = 2.92 here)
constexpr double kTt72Time = 100.0 / 186.4;

// a preset: masses, orbit, both disks' (incl, arg) in degrees and outer ring radii (units of
// the pericentre), the time after pericentre it is drawn at (TT72 units) and the view
struct Preset {
  const char* name;
  double mass_ratio, e, incl1, arg1, incl2, arg2, outer1, outer2;
  double orbit_rp;       // pericentre of the orbit in units of the disks' length unit
  double view_time;      // after pericentre, TT72 units (1e8 yr)
  double yaw, pitch;     // camera direction in degrees (see make_toomre)
  bool view_from_disk1;  // yaw/pitch are TT72's (lambda, beta) relative to disk 1
  double start;          // initial separation in disk length units (0: the parameter)
  double eps;            // softening in disk length units (0: kSoftening)
  double inner;          // inner ring radius / outer (0: TT72's 1/3)
  double v_inf;          // > 0: a drop-through on a straight line along disk 1's axis, this
                         // speed at infinity, impact parameter `orbit_rp` (not a Kepler orbit)
};

// Toomre & Toomre (1972, ApJ 178, 623), transcribed from their figure captions:
// 1 NGC 4038/9, the Antennae (fig. 23): identical disks of radius 0.75 R_min, e = 0.5,
//   i = 60 deg and w = -30 deg for both; drawn at t = 15, edge-on to the orbit plane from 30 deg
//   off the line of pericentres, on the apocentre's side (yaw 150 deg from the pericentre
//   direction: there the two tails cross; from yaw 30 they spread into an arch).
// 2 NGC 4676, the Mice (fig. 22): equal disks of radius 0.7 R_min, e = 0.6, started at the
//   apocentre; w_A = w_B = -90 deg, i_A = 15 deg, i_B = 60 deg; drawn at t = 6.086 (135 deg past
//   pericentre) nearly edge-on to the orbit plane (beta 85 deg) along the line of pericentres.
// 3 M51 + NGC 5195 (fig. 21): companion one-third of the mass and 0.7 of the size (primary rings
//   0.2-0.633 R_min), e = 0.8, i_4 = -70 deg, i_5 = -60 deg, w_4 = w_5 = -15 deg; drawn at
//   t = 2.4 from (lambda_4, beta_4) = (65, -20) deg, nearly face-on to M51; started at 1.7 R_min
//   (the caption gives no start).
// 4 a ring galaxy (Lynds & Toomre 1976, ApJ 209, 382: the Cartwheel): a companion of 0.7 of
//   the mass drops through the disk along its axis (i = 90, w = 90) on a hyperbolic straight
//   line, speed at infinity 1.2 sqrt(G m1 / R_min) (about the outer ring's circular speed),
//   0.04 off the centre (the outer ring then lies off-centre with respect to the nucleus, as
//   the Cartwheel's does; off-centre impacts displace the nucleus: Mapelli & Mayer 2012,
//   arXiv:1111.0028), with the cores softened over 0.1 (a cored potential; a point mass whips
//   a radial orbit back the way it came instead of letting it pass through); a disk from 0.06 to
//   0.6 (no hole, so that a ring is a real feature), the companion 2 % of the stars in 0.08;
//   drawn 1.25 x 1e8 yr after the crossing, when the first ring has swept up the disk's edge, 30
//   deg from face-on, centred on the target's nucleus. A heavier companion makes the denser ring
//   and the emptier interior (Wu & Jiang 2013, arXiv:1308.2024; Appleton & Struck-Marcell 1996,
//   Fund. Cosmic Phys. 16, 111). The numbers are this program's (docs/GALAXIES.md), not LT76's.
constexpr Preset kPresets[] = {
    {"Antennae, NGC 4038/9 (TT72 fig. 23)", 1, 0.5, 60, -30, 60, -30, 0.75, 0.75, 1, 15, 150, 0,
     false, 0, 0, 0, 0},
    {"Mice, NGC 4676 (TT72 fig. 22)", 1, 0.6, 15, -90, 60, -90, 0.7, 0.7, 1, 6.086, 180, 5, false,
     0, 0, 0, 0},
    {"M51 + NGC 5195 (TT72 fig. 21)", 1.0 / 3.0, 0.8, -70, -15, -60, -15, 0.633, 0.7 * 0.633, 1,
     2.4, 65, -20, true, 1.7, 0, 0, 0},
    {"ring galaxy (Lynds & Toomre 1976)", 0.7, 1.0, 90, 90, 90, 90, 0.6, 0.08, 0.04, 1.25, 0, 30,
     true, 1.5, 0.1, 0.1, 1.2},
};
constexpr int kPresetCount = static_cast<int>(sizeof(kPresets) / sizeof(kPresets[0]));

// appends a disk of `count` massless stars in rings from outer / 3 to `outer` (TT72's 0.2-0.6)
// about a core of mass `m` at `x`, `v`, tilted by `incl` about its line of nodes, which lies at
// `node` from +x in the orbital plane
void add_disk(Bodies& b, std::size_t count, double G, double m, double inner, double outer,
              double eps, double incl, double node, const Vec3& x, const Vec3& v, Rng& rng) {
  if (count == 0) return;
  // rings with stars spaced about as far apart along a ring as the rings are apart:
  // total ~ 2 pi K (K - 1) for K rings
  std::size_t k = static_cast<std::size_t>(std::lround(std::sqrt(count / (2 * kPi)))) + 1;
  k = std::clamp<std::size_t>(k, 1, count);
  std::vector<double> radius(k);
  double rsum = 0;
  for (std::size_t i = 0; i < k; ++i) {
    radius[i] = k == 1
                    ? 0.5 * (inner + outer)
                    : inner + (outer - inner) * static_cast<double>(i) / static_cast<double>(k - 1);
    rsum += radius[i];
  }
  // stars per ring proportional to its radius, at least one each, exactly `count` in all
  std::vector<std::size_t> per(k, 1);
  std::size_t left = count - k;
  std::vector<double> share(k);
  for (std::size_t i = 0; i < k; ++i)
    share[i] = static_cast<double>(left) * radius[i] / rsum;
  for (std::size_t i = 0; i < k; ++i) {
    const std::size_t f = static_cast<std::size_t>(std::floor(share[i]));
    per[i] += f;
    share[i] -= static_cast<double>(f);
    left -= f;
  }
  while (left > 0) {  // largest remainders
    const std::size_t i =
        static_cast<std::size_t>(std::max_element(share.begin(), share.end()) - share.begin());
    ++per[i];
    share[i] = -1;
    --left;
  }
  for (std::size_t i = 0; i < k; ++i) {
    const double r = radius[i];
    // circular speed in the softened point-mass potential (sqrt(G m / r) when eps = 0)
    const double vc = std::sqrt(G * m * r * r / std::pow(r * r + eps * eps, 1.5));
    const double phase = rng.uniform(0, 2 * kPi);
    for (std::size_t j = 0; j < per[i]; ++j) {
      const double ph = phase + 2 * kPi * static_cast<double>(j) / static_cast<double>(per[i]);
      const double c = std::cos(ph), s = std::sin(ph);
      const Vec3 p = rotate_z(rotate_x({r * c, r * s, 0}, incl), node);
      const Vec3 u = rotate_z(rotate_x({-vc * s, vc * c, 0}, incl), node);
      b.add(x[0] + p[0], x[1] + p[1], x[2] + p[2], v[0] + u[0], v[1] + u[1], v[2] + u[2], 0.0,
            Component::Disk);
    }
  }
}

// separation of a Kepler orbit (mu = G (m1 + m2), pericentre rp, 0 <= e <= 1) a time t after
// its pericentre, by bisection on the eccentric anomaly (Barker's D = tan(nu / 2) when e = 1)
double separation_after_pericentre(double mu, double rp, double e, double t) {
  if (!(t > 0)) return rp;
  if (e >= 1.0) {
    const double k = std::sqrt(2 * rp * rp * rp / mu);
    double lo = 0, hi = 1;
    while (k * (hi + hi * hi * hi / 3) < t)
      hi *= 2;
    for (int it = 0; it < 100; ++it) {
      const double mid = 0.5 * (lo + hi);
      (k * (mid + mid * mid * mid / 3) < t ? lo : hi) = mid;
    }
    const double dd = 0.5 * (lo + hi);
    return rp * (1 + dd * dd);
  }
  const double a = rp / (1 - e), n = std::sqrt(mu / (a * a * a));
  const double m = std::fmod(n * t, 2 * kPi);
  double lo = 0, hi = 2 * kPi;
  for (int it = 0; it < 100; ++it) {
    const double mid = 0.5 * (lo + hi);
    (mid - e * std::sin(mid) < m ? lo : hi) = mid;
  }
  return a * (1 - e * std::cos(0.5 * (lo + hi)));
}

// the preset's viewing direction: (yaw, pitch) as longitude from the pericentre line and
// elevation above the orbit plane, or (view_from_disk1) TT72's (lambda, beta) relative to disk 1:
// beta the tilt from its spin axis, lambda the longitude from its line of nodes
void set_view(Scene& s, const Preset* ps, double incl1, double node1) {
  if (!ps) return;
  Vec3 d;
  if (ps->view_from_disk1) {
    const double lam = ps->yaw * kDeg, beta = ps->pitch * kDeg;
    const Vec3 nrm = rotate_z(rotate_x({0, 0, 1}, incl1), node1);
    const Vec3 xn = rotate_z({1, 0, 0}, node1);
    const Vec3 yn = rotate_z(rotate_x({0, 1, 0}, incl1), node1);
    for (int k = 0; k < 3; ++k)
      d[k] = std::cos(beta) * nrm[k] +
             std::sin(beta) * (std::cos(lam) * xn[k] + std::sin(lam) * yn[k]);
  } else {
    const double y = ps->yaw * kDeg, p = ps->pitch * kDeg;
    d = {std::cos(p) * std::cos(y), std::cos(p) * std::sin(y), std::sin(p)};
  }
  s.camera_yaw = std::atan2(d[1], d[0]);
  s.camera_pitch = std::asin(std::clamp(d[2], -1.0, 1.0));
}

// a straight drop-through (the ring galaxy): relative position and velocity at separation r0
// along +x, impact parameter b along +y, speed from the softened potential's energy with the
// speed v_inf at infinity; and the time it takes to the disk's plane (x = 0), neglecting the
// path's bending (Simpson's rule in x)
void drop_state(double mu, double eps, double v_inf, double b, double r0, Vec3& rel, Vec3& vrel,
                double& t_cross) {
  auto speed = [&](double x) {
    return std::sqrt(v_inf * v_inf + 2 * mu / std::sqrt(x * x + b * b + eps * eps));
  };
  rel = {r0, b, 0};
  vrel = {-speed(r0), 0, 0};
  const int k = 2000;
  const double h = r0 / k;
  double sum = 1 / speed(0) + 1 / speed(r0);
  for (int i = 1; i < k; ++i)
    sum += (i % 2 ? 4 : 2) / speed(i * h);
  t_cross = sum * h / 3;
}

// camera distance that shows the bodies at time `t_end`: a subsample of the stars and both
// cores integrated with the kernels' Plummer softening (leapfrog, step `dt`), then the `quantile`
// of their distances from the view axis (0.93: the tails, not the few stars flung farthest;
// 0.995: the ring galaxy's whole disk) through the centre of mass (and the cores'),
// seen in the viewer's 45 deg field with a 15 % margin
double framing_distance(const Bodies& b, double G, double eps, double dt, double t_end, double yaw,
                        double pitch, double quantile, Vec3* core1_end = nullptr) {
  std::vector<std::size_t> heavy, idx;
  const std::size_t stride = std::max<std::size_t>(1, b.size() / 600);
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (b.m[i] > 0)
      heavy.push_back(i);
    else if (i % stride == 0)
      idx.push_back(i);
  }
  if (heavy.size() != 2) fail("scene 'toomre': framing needs two cores (has ", heavy.size(), ")");
  // the two cores, Plummer-softened point masses, and the sampled stars (sim/scenes/framing.cpp)
  std::array<LookAheadCore, 2> cores;
  for (int j = 0; j < 2; ++j) {
    const std::size_t i = heavy[static_cast<std::size_t>(j)];
    const double m = b.m[i];
    cores[static_cast<std::size_t>(j)] = {
        {b.x[i], b.y[i], b.z[i]}, {b.vx[i], b.vy[i], b.vz[i]}, m, [G, m, eps](double r) {
          return G * m * r / std::pow(r * r + eps * eps, 1.5);
        }};
  }
  std::vector<Vec3> xs(idx.size()), vs(idx.size());
  for (std::size_t k = 0; k < idx.size(); ++k) {
    xs[k] = {b.x[idx[k]], b.y[idx[k]], b.z[idx[k]]};
    vs[k] = {b.vx[idx[k]], b.vy[idx[k]], b.vz[idx[k]]};
  }
  look_ahead(cores, xs, vs, dt, t_end);
  const std::size_t nh = 2;
  std::vector<Vec3> x = {cores[0].x, cores[1].x};
  x.insert(x.end(), xs.begin(), xs.end());
  const std::size_t n = x.size();
  const std::vector<std::size_t>& core_index = heavy;
  // centre of mass of the cores (the scene's frame: the stars are massless)
  Vec3 com = {0, 0, 0};
  double mt = 0;
  for (std::size_t k = 0; k < nh; ++k) {
    for (int c = 0; c < 3; ++c)
      com[c] += b.m[core_index[k]] * x[k][c];
    mt += b.m[core_index[k]];
  }
  for (int c = 0; c < 3; ++c)
    com[c] /= mt;
  // centred on the first core (the ring galaxy's target) instead, where asked: the caller moves
  // the bodies so that it is at the origin, where the camera looks, at t_end
  if (core1_end) com = *core1_end = x[0];
  const Vec3 dir = {std::cos(pitch) * std::cos(yaw), std::cos(pitch) * std::sin(yaw),
                    std::sin(pitch)};
  std::vector<double> perp(n);
  double core_perp = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const Vec3 d = {x[k][0] - com[0], x[k][1] - com[1], x[k][2] - com[2]};
    const double along = d[0] * dir[0] + d[1] * dir[1] + d[2] * dir[2];
    perp[k] = std::sqrt(std::max(0.0, d[0] * d[0] + d[1] * d[1] + d[2] * d[2] - along * along));
    if (k < nh) core_perp = std::max(core_perp, perp[k]);
  }
  std::sort(perp.begin(), perp.end());
  const double rq =
      perp[std::min(n - 1, static_cast<std::size_t>(quantile * static_cast<double>(n)))];
  return 1.15 * std::max(rq, 1.3 * core_perp) / std::tan(0.5 * 45 * kDeg);
}

}  // namespace

Scene make_toomre(const Params& p) {
  const std::size_t n = p.n();
  const std::string& name = p.scene();
  // nearest integer (the panel's sliders are continuous); a preset overrides mass_ratio, e and
  // the angles, which the panel always passes
  const int preset = static_cast<int>(std::lround(p.get("preset")));
  if (preset < 0 || preset > kPresetCount)
    fail("scene '", name, "': parameter 'preset' must be 0 to ", kPresetCount, " (got ", preset,
         ")");
  const Preset* ps = preset > 0 ? &kPresets[preset - 1] : nullptr;
  const double q = ps ? ps->mass_ratio : p.get("mass_ratio"), e = ps ? ps->e : p.get("e");
  const double i1 = ps ? ps->incl1 : p.get("incl1"), w1 = ps ? ps->arg1 : p.get("arg1");
  const double i2 = ps ? ps->incl2 : p.get("incl2"), w2 = ps ? ps->arg2 : p.get("arg2");
  const double L = p.get("rp");
  // M51 and the ring galaxy start closer than the default 5 (their short post-pericentre
  // times would otherwise leave the window ~30 s of uneventful approach)
  const double start = ps && ps->start > 0 ? ps->start : p.get("start");
  const double rp = L * (ps ? ps->orbit_rp : 1.0);
  const double out1 = L * (ps ? ps->outer1 : kOuter), out2 = L * (ps ? ps->outer2 : kOuter);
  if (n < 4) fail("scene '", name, "': parameter 'n' must be at least 4 (got ", n, ")");

  Scene s;
  s.name = "toomre";
  s.units = units::henon();
  const double G = s.units.G, m1 = 1.0, m2 = q, mt = m1 + m2;
  s.softening = (ps && ps->eps > 0 ? ps->eps : kSoftening) * L;
  const bool drop = ps && ps->v_inf > 0;

  // relative orbit, approaching (true anomaly < 0), from `start` disk units or, bound, at most
  // the apocentre (TT72 started their elliptic models there); or the ring galaxy's straight
  // drop-through
  double r0 = std::max(start * L, rp);
  if (e < 1.0) r0 = std::min(r0, rp * (1.0 + e) / (1.0 - e));
  Vec3 rel, vrel;
  double t_peri = 0;
  if (drop) {
    drop_state(G * mt, s.softening, ps->v_inf * std::sqrt(G * m1 / L), rp, r0, rel, vrel, t_peri);
  } else {
    const double cos_nu = std::clamp((rp * (1.0 + e) / r0 - 1.0) / e, -1.0, 1.0);
    kepler_state(G * mt, rp, e, -std::acos(cos_nu), rel, vrel);
    t_peri = time_to_pericentre(G * mt, rp, e, r0);
  }
  const double f1 = m2 / mt, f2 = m1 / mt;
  const Vec3 x1 = {-f1 * rel[0], -f1 * rel[1], -f1 * rel[2]};
  const Vec3 v1 = {-f1 * vrel[0], -f1 * vrel[1], -f1 * vrel[2]};
  const Vec3 x2 = {f2 * rel[0], f2 * rel[1], f2 * rel[2]};
  const Vec3 v2 = {f2 * vrel[0], f2 * vrel[1], f2 * vrel[2]};
  s.bodies.reserve(n);
  s.bodies.add(x1[0], x1[1], x1[2], v1[0], v1[1], v1[2], m1, Component::Bulge);
  s.bodies.add(x2[0], x2[1], x2[2], v2[0], v2[1], v2[2], m2, Component::Bulge);
  // equal shares (TT72), or for the ring galaxy 2 % for the small companion
  const std::size_t stars = n - 2, n1 = drop ? stars - stars / 50 : (stars + 1) / 2,
                    n2 = stars - n1;
  Rng rng(p.seed());
  // each disk's angles as seen from its own galaxy (TT72's convention, that of celestial
  // mechanics): w from the ascending node, where the companion rises through the disk's plane
  // along its spin, to the pericentre. add_disk's `node` is the descending node (a tilt by
  // +i about it lowers the orbit ahead); the pericentre lies at +x from core 1 and at -x from
  // core 2
  const double node1 = kPi - w1 * kDeg, node2 = -w2 * kDeg;
  const double in_frac = ps && ps->inner > 0 ? ps->inner : kInner / kOuter;
  add_disk(s.bodies, n1, G, m1, in_frac * out1, out1, s.softening, i1 * kDeg, node1, x1, v1, rng);
  add_disk(s.bodies, n2, G, m2, in_frac * out2, out2, s.softening, i2 * kDeg, node2, x2, v2, rng);
  // the structure diagnostics follow each disk's massless stars (by number), not the cores
  s.groups = {{"disk 1", 2, 2 + n1}, {"disk 2", 2 + n1, n}};

  // run length: the Kepler time to pericentre (exact for these point-mass cores), then the
  // preset's drawing time or two rotations of disk 1's outer ring (about the core of mass 1)
  const double scale_t = std::sqrt(L * L * L / (G * m1));  // TT72's units scale as R^1.5 / M^0.5
  if (ps) {
    std::ostringstream why;
    why << ps->name << " as drawn at t = " << ps->view_time << " (x 1e8 yr)";
    set_collision_timing(s, t_peri, "Kepler orbit of the cores",
                         ps->view_time * kTt72Time * scale_t, why.str());
  } else {
    set_collision_timing(s, t_peri, "Kepler orbit of the cores",
                         2 * 2 * kPi * std::sqrt(out1 * out1 * out1 / (G * m1)),
                         "2 rotations of disk 1's outer ring");
  }
  set_view(s, ps, i1 * kDeg, node1);

  std::ostringstream d;
  d << "Toomre & Toomre restricted encounter" << (ps ? std::string(": ") + ps->name : "")
    << "; two cores (masses 1 and " << q << ", G = 1) on "
    << (drop ? "a straight drop-through along disk 1's axis (impact parameter "
             : (e < 1 ? "an elliptic orbit (e = " : "a parabolic orbit (e = "))
    << (drop ? rp : e) << "), " << (drop ? "speed at infinity " : "pericentre ")
    << (drop ? ps->v_inf * std::sqrt(G * m1 / L) : rp) << ", starting at " << r0 << "; " << n1
    << " + " << n2 << " massless stars in rings of circular orbits out to " << out1 << " and "
    << out2 << ", disk tilts (i, w) = (" << i1 << ", " << w1 << ") and (" << i2 << ", " << w2
    << ") deg";
  s.description = d.str();
  // the fastest inner ring takes 64 steps per orbit; pericentres closer than the rings (the
  // ring galaxy's drop-through) resolved with 64 steps of the pericentre's crossing time
  const double r_in = std::min(out1, out2) * (ps && ps->inner > 0 ? ps->inner : kInner / kOuter);
  const double r_eff2 = r_in * r_in + s.softening * s.softening;  // softened period
  s.dt = 2 * kPi * std::sqrt(std::pow(r_eff2, 1.5) / (G * std::max(m1, m2))) / 64.0;
  const double r_close = drop ? std::hypot(rp, s.softening) : rp;
  s.dt = std::min(s.dt, r_close / std::sqrt(2 * G * mt / r_close) / 8.0);
  // framing: both galaxies and their tails at the drawing time (a preset's stars integrated
  // ahead), or both cores at the start and at the end of the orbit
  const double sep_end =
      drop ? r0 : separation_after_pericentre(G * mt, rp, e, s.duration - t_peri);
  s.camera_distance = 1.5 * std::max({r0, sep_end + out1 + out2, 4 * out1});
  s.trails = false;
  finish(s);
  if (ps) {
    // the ring galaxy is drawn about its nucleus: the cores' centre of mass, where the camera
    // looks, lies between the target and the receding companion at the drawing time; a
    // translation of every body changes no motion
    Vec3 c1 = {0, 0, 0};
    s.camera_distance = framing_distance(s.bodies, G, s.softening, s.dt, s.duration, s.camera_yaw,
                                         s.camera_pitch, drop ? 0.995 : 0.93, drop ? &c1 : nullptr);
    for (std::size_t i = 0; i < s.bodies.size(); ++i) {
      s.bodies.x[i] -= c1[0];
      s.bodies.y[i] -= c1[1];
      s.bodies.z[i] -= c1[2];
    }
  }
  return s;
}

}  // namespace nbody::scenes
