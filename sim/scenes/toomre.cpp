// Toomre & Toomre's (1972, ApJ 178, 623) restricted collision: two point-mass cores on a
// parabolic orbit, each with a disk of massless test stars in rings of circular orbits from
// 0.2 to 0.6 pericentre distances. Massless bodies are sources of nothing in every kernel, so
// the stars feel the cores and the cores feel only each other: N stars cost about N test-
// particle orbits.
//
// Units: N-body units, G = 1 (units::henon()'s dimensionless system), core 1 of mass 1, core 2
// of mass `mass_ratio`, lengths in the units of `rp`.
//
// Disk orientation (TT72's angles): a disk starts in the orbital plane rotating with the orbit
// (prograde), is tilted by `incl` about its line of nodes, which lies at angle -`arg` from the
// pericentre direction in the orbital plane, so `arg` is the angle from the node to the
// pericentre. incl = 0: prograde in the orbital plane; incl = 180: retrograde.

#include <algorithm>
#include <cmath>
#include <sstream>

#include "sim/core/error.hpp"
#include "sim/scenes/common.hpp"

namespace nbody::scenes {

namespace {

// inner and outer ring radius in units of the pericentre (Toomre's setup)
constexpr double kInner = 0.2, kOuter = 0.6;
// softening in units of the pericentre
constexpr double kSoftening = 0.02;

// a preset: mass ratio and the two disks' (incl, arg) in degrees
struct Preset {
  double mass_ratio, incl1, arg1, incl2, arg2;
};

// preset 1, "Antennae-like": TT72's NGC 4038/39 angles (equal masses, both disks i = 60 deg,
// w = -30 deg) but on this scene's parabolic orbit (TT72 used an e = 0.5 ellipse).
// preset 2, "Mice-like": equal masses, disk 1 prograde-inclined (i = 25, w = -30), disk 2
// nearly retrograde (i = 155, w = -30): one long tail and one weakly disturbed disk;
// illustrative, not TT72's fitted NGC 4676 angles.
constexpr Preset kPresets[] = {{1, 60, -30, 60, -30}, {1, 25, -30, 155, -30}};

// appends a disk of `count` massless stars in rings about a core of mass `m` at `x`, `v`
void add_disk(Bodies& b, std::size_t count, double G, double m, double rp, double eps, double incl,
              double arg, const Vec3& x, const Vec3& v, Rng& rng) {
  if (count == 0) return;
  // rings with stars spaced about as far apart along a ring as the rings are apart:
  // total ~ 2 pi K (K - 1) for K rings
  std::size_t k = static_cast<std::size_t>(std::lround(std::sqrt(count / (2 * kPi)))) + 1;
  k = std::clamp<std::size_t>(k, 1, count);
  std::vector<double> radius(k);
  double rsum = 0;
  for (std::size_t i = 0; i < k; ++i) {
    radius[i] = rp * (k == 1 ? 0.5 * (kInner + kOuter)
                             : kInner + (kOuter - kInner) * static_cast<double>(i) /
                                            static_cast<double>(k - 1));
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
      const Vec3 p = rotate_z(rotate_x({r * c, r * s, 0}, incl), -arg);
      const Vec3 u = rotate_z(rotate_x({-vc * s, vc * c, 0}, incl), -arg);
      b.add(x[0] + p[0], x[1] + p[1], x[2] + p[2], v[0] + u[0], v[1] + u[1], v[2] + u[2], 0.0,
            Component::Disk);
    }
  }
}

}  // namespace

Scene make_toomre(const Params& p) {
  const std::size_t n = p.n();
  const std::string& name = p.scene();
  // nearest integer (the panel's sliders are continuous); a preset overrides mass_ratio and
  // the angles, which the panel always passes
  const int preset = static_cast<int>(std::lround(p.get("preset")));
  double q = p.get("mass_ratio"), i1 = p.get("incl1"), w1 = p.get("arg1"), i2 = p.get("incl2"),
         w2 = p.get("arg2");
  if (preset != 0) {
    const Preset& ps = kPresets[preset - 1];
    q = ps.mass_ratio;
    i1 = ps.incl1;
    w1 = ps.arg1;
    i2 = ps.incl2;
    w2 = ps.arg2;
  }
  const double rp = p.get("rp"), start = p.get("start");
  if (n < 4) fail("scene '", name, "': parameter 'n' must be at least 4 (got ", n, ")");

  Scene s;
  s.name = "toomre";
  s.units = units::henon();
  const double G = s.units.G, m1 = 1.0, m2 = q, mt = m1 + m2;
  s.softening = kSoftening * rp;

  // parabolic relative orbit, approaching: r = 2 rp / (1 + cos nu) at nu < 0
  const double r0 = start * rp;
  Vec3 rel, vrel;
  kepler_state(G * mt, rp, 1.0, -std::acos(2.0 * rp / r0 - 1.0), rel, vrel);
  const double f1 = m2 / mt, f2 = m1 / mt;
  const Vec3 x1 = {-f1 * rel[0], -f1 * rel[1], -f1 * rel[2]};
  const Vec3 v1 = {-f1 * vrel[0], -f1 * vrel[1], -f1 * vrel[2]};
  const Vec3 x2 = {f2 * rel[0], f2 * rel[1], f2 * rel[2]};
  const Vec3 v2 = {f2 * vrel[0], f2 * vrel[1], f2 * vrel[2]};
  s.bodies.reserve(n);
  s.bodies.add(x1[0], x1[1], x1[2], v1[0], v1[1], v1[2], m1, Component::Bulge);
  s.bodies.add(x2[0], x2[1], x2[2], v2[0], v2[1], v2[2], m2, Component::Bulge);
  const std::size_t stars = n - 2, n1 = (stars + 1) / 2, n2 = stars - n1;
  Rng rng(p.seed());
  add_disk(s.bodies, n1, G, m1, rp, s.softening, i1 * kDeg, w1 * kDeg, x1, v1, rng);
  add_disk(s.bodies, n2, G, m2, rp, s.softening, i2 * kDeg, w2 * kDeg, x2, v2, rng);
  // the structure diagnostics follow each disk's massless stars (by number), not the cores
  s.groups = {{"disk 1", 2, 2 + n1}, {"disk 2", 2 + n1, n}};

  // run length: the parabolic time to pericentre (exact for these point-mass cores), then two
  // rotations of disk 1's outer ring (about the core of mass 1), in which the tails grow long
  const double r_out = kOuter * rp;
  set_collision_timing(s, time_to_pericentre(G * mt, rp, 1.0, r0), "parabolic orbit of the cores",
                       2 * 2 * kPi * std::sqrt(r_out * r_out * r_out / (G * m1)),
                       "2 rotations of disk 1's outer ring at 0.6 rp");

  std::ostringstream d;
  d << "Toomre & Toomre restricted encounter"
    << (preset == 1   ? " (Antennae-like)"
        : preset == 2 ? " (Mice-like)"
                      : "")
    << ": two cores (masses 1 and " << q << ", G = 1) on a parabolic orbit, pericentre " << rp
    << ", starting at " << start << " rp; " << n1 << " + " << n2
    << " massless stars in rings of circular orbits at 0.2-0.6 rp, disk tilts (i, w) = (" << i1
    << ", " << w1 << ") and (" << i2 << ", " << w2 << ") deg";
  s.description = d.str();
  // the fastest inner ring takes 64 steps per orbit
  const double r_in = kInner * rp;
  s.dt = 2 * kPi * std::sqrt(r_in * r_in * r_in / (G * std::max(m1, m2))) / 64.0;
  s.camera_distance = 1.5 * r0;
  s.trails = false;
  finish(s);
  return s;
}

}  // namespace nbody::scenes
