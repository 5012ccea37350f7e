// The galaxy collision's first passage (issue 24, item 3): the default camera frames both
// galaxies at the start and just after the pericentre, and the passage throws a bridge of stars
// between them. Both run the scene through its first passage on cpu-barnes-hut: the pericentre
// is found from the galaxies' bulge centres (the minimum of their separation), then the run goes
// on 40 Myr (the bridge grows over the first ~50 Myr after the pericentre: docs/GALAXIES.md).

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "sim/core/backend.hpp"
#include "sim/core/scene.hpp"
#include "tests/sim/scenes/evolve.hpp"

namespace nbody {
namespace {

using V3 = std::array<double, 3>;
constexpr double kPi = 3.14159265358979323846;

double dist(const V3& a, const V3& b) {
  return std::sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                   (a[2] - b[2]) * (a[2] - b[2]));
}

// the density centre of a galaxy's bulge stars: mean, then shrinking spheres from 30 kpc
V3 bulge_centre(const Bodies& b, const BodyGroup& g) {
  std::vector<V3> p;
  for (std::size_t i = g.begin; i < g.end; ++i)
    if (b.component[i] == Component::Bulge) p.push_back({b.x[i], b.y[i], b.z[i]});
  V3 c = {0, 0, 0};
  for (double r = 1e300; r > 0.5; r = std::min(r, 30.0) * 0.8) {
    V3 s = {0, 0, 0};
    std::size_t k = 0;
    for (const V3& q : p)
      if (dist(q, c) < r || r > 1e299) {
        for (int j = 0; j < 3; ++j)
          s[j] += q[j];
        ++k;
      }
    if (k < 20) break;
    for (int j = 0; j < 3; ++j)
      c[j] = s[j] / static_cast<double>(k);
  }
  return c;
}

struct Passage {
  Bodies at;          // the bodies 40 Myr after the first pericentre
  double t_peri = 0;  // time of the pericentre (Myr)
  double r_peri = 0;  // its separation of the bulge centres (kpc)
};

// runs `s` on cpu-barnes-hut (float, as the command line) to 40 Myr after the first minimum of
// the separation of its galaxies' bulge centres (sampled every 10 steps)
Passage run_through_passage(const Scene& s, const char* kernel = "cpu-barnes-hut") {
  SimParams p = testing::params(kernel, s.dt, s.softening, s.units.G, Precision::Float);
  auto backend = make_backend(p);
  backend->set_bodies(s.bodies);
  const double myr = units::parse_duration("1Myr", s.units, "test");
  Passage out;
  double last = 1e300;
  int steps = 0;
  Bodies b;
  for (;;) {
    backend->step(p, 10);
    steps += 10;
    backend->get_bodies(b);
    const double d = dist(bulge_centre(b, s.groups[0]), bulge_centre(b, s.groups[1]));
    if (d > last) break;
    last = d;
    if (steps * s.dt > s.duration) ADD_FAILURE() << "no pericentre within the scene's run";
    if (steps * s.dt > s.duration) break;
  }
  out.t_peri = (steps - 10) * s.dt / myr;
  out.r_peri = last;
  backend->step(p, static_cast<int>(std::lround(40 * myr / s.dt)) - 10);
  backend->get_bodies(out.at);
  return out;
}

// the viewer's home camera (render/camera.hpp): distance, yaw and pitch of the scene (its own
// 0.6 and 0.5 rad where the scene sets none), a 45 deg vertical field, in a 16:9 window (the
// window's 1600 x 900, `nbody render`'s 1280 x 720). Returns the fraction of the frame's half-size
// at which p is seen: < 1 inside the frame
double in_frame(const Scene& s, const V3& p) {
  const double yaw = std::isfinite(s.camera_yaw) ? s.camera_yaw : 0.6;
  const double pitch = std::isfinite(s.camera_pitch) ? s.camera_pitch : 0.5;
  const V3 eye = {s.camera_distance * std::cos(pitch) * std::cos(yaw),
                  s.camera_distance * std::cos(pitch) * std::sin(yaw),
                  s.camera_distance * std::sin(pitch)};
  // camera basis: forward to the centre, right = forward x z, up = right x forward
  const V3 f = {-eye[0] / s.camera_distance, -eye[1] / s.camera_distance,
                -eye[2] / s.camera_distance};
  V3 r = {f[1], -f[0], 0};
  const double rn = std::hypot(r[0], r[1]);
  r = {r[0] / rn, r[1] / rn, 0};
  const V3 u = {r[1] * f[2] - r[2] * f[1], r[2] * f[0] - r[0] * f[2], r[0] * f[1] - r[1] * f[0]};
  const V3 d = {p[0] - eye[0], p[1] - eye[1], p[2] - eye[2]};
  const double depth = d[0] * f[0] + d[1] * f[1] + d[2] * f[2];
  const double t = std::tan(22.5 * kPi / 180);
  const double x = (d[0] * r[0] + d[1] * r[1] + d[2] * r[2]) / (depth * t * 16.0 / 9.0);
  const double y = (d[0] * u[0] + d[1] * u[1] + d[2] * u[2]) / (depth * t);
  return depth > 0 ? std::max(std::fabs(x), std::fabs(y)) : 1e300;
}

// both galaxies in view at the start and after the first passage, and not a small patch there
TEST(GalaxyCollision, CameraFramesTheFirstPassage) {
  SceneParams sp;
  sp.n = 4096;
  sp.values["halo"] = 1;
  const Scene s = make_scene("galaxy-collision", sp);
  for (int g = 0; g < 2; ++g) {
    const double at0 = in_frame(s, bulge_centre(s.bodies, s.groups[static_cast<std::size_t>(g)]));
    std::printf("galaxy %d's centre at the start: %.2f of the half-frame\n", g + 1, at0);
    EXPECT_LT(at0, 0.8) << "galaxy " << g + 1 << " out of the frame at the start";
  }
  const Passage ps = run_through_passage(s);
  std::vector<double> disk;
  for (std::size_t i = 0; i < ps.at.size(); ++i)
    if (ps.at.component[i] == Component::Disk)
      disk.push_back(in_frame(s, {ps.at.x[i], ps.at.y[i], ps.at.z[i]}));
  std::sort(disk.begin(), disk.end());
  const double p90 = disk[disk.size() * 9 / 10], p50 = disk[disk.size() / 2];
  const double c1 = in_frame(s, bulge_centre(ps.at, s.groups[0]));
  const double c2 = in_frame(s, bulge_centre(ps.at, s.groups[1]));
  std::printf(
      "camera %.2f kpc, yaw %.4f, pitch %.4f; pericentre %.1f kpc at %.0f Myr; 40 Myr later the "
      "centres at %.2f and %.2f of the half-frame, disk stars 50 %% within %.2f, 90 %% within "
      "%.2f\n",
      s.camera_distance, s.camera_yaw, s.camera_pitch, ps.r_peri, ps.t_peri, c1, c2, p50, p90);
  EXPECT_LT(c1, 0.8);
  EXPECT_LT(c2, 0.8);
  EXPECT_LT(p90, 1.0);  // 90 % of the disk stars (the tails' ends may leave)
  // not a small patch: 90 % of the disk stars reach out to about half the half-frame (both
  // centres well inside the frame at the start, 60 kpc apart, set the distance); the former
  // camera, 96 kpc from the viewer's own direction (nearly along the line of centres), left them
  // within 0.19
  EXPECT_GT(p90, 0.38);
}

// disk stars in the bridge region: between the two centres c1 and c2 (projected on the line
// joining them), within 4 kpc of that line and more than 6 kpc (2.4 disk scale lengths; 70 % of
// a disk's stars lie inside) from both. `shift` moves each galaxy's stars first (the null
// model: the galaxies' initial disks carried rigidly onto the centres)
std::array<int, 2> bridge_stars(const Bodies& b, const std::vector<BodyGroup>& groups, const V3& c1,
                                const V3& c2, const std::array<V3, 2>& shift) {
  const double d = dist(c1, c2), rx = 6, w = 4;
  const V3 u = {(c2[0] - c1[0]) / d, (c2[1] - c1[1]) / d, (c2[2] - c1[2]) / d};
  std::array<int, 2> n = {0, 0};
  for (std::size_t g = 0; g < 2; ++g)
    for (std::size_t i = groups[g].begin; i < groups[g].end; ++i) {
      if (b.component[i] != Component::Disk) continue;
      const V3 p = {b.x[i] + shift[g][0], b.y[i] + shift[g][1], b.z[i] + shift[g][2]};
      const V3 q = {p[0] - c1[0], p[1] - c1[1], p[2] - c1[2]};
      const double s = q[0] * u[0] + q[1] * u[1] + q[2] * u[2];
      const double perp = std::sqrt(std::max(0.0, q[0] * q[0] + q[1] * q[1] + q[2] * q[2] - s * s));
      if (s > 0 && s < d && perp < w && dist(p, c1) > rx && dist(p, c2) > rx) ++n[g];
    }
  return n;
}

// The bridge at the CPU default (N = 16,384, rigid halos: every body a star): 40 Myr after the
// first pericentre the bridge region holds clearly more stars than the two undisturbed disks
// would put there, and both disks feed it. Measured with seeds 1, 2, 3 (docs/GALAXIES.md): the
// former default (disks inclined 15 and 60 deg to the orbital plane) 501, 552, 626 stars against
// 337, 316, 304 undisturbed (excess 164-322), galaxy 2 (60 deg) adding 1-11 over its 4-5; the
// prograde 15 and 30 deg disks 944, 958, 1073 against 501, 519, 514 (excess 443-559), galaxy 2
// adding 172-274 (TT72: a disk inclined by more than ~45 deg to the orbit throws little)
struct Bridge {
  std::array<int, 2> now{}, null{};  // bridge stars of galaxy 1 and 2, and their null model's
  int excess() const { return now[0] + now[1] - null[0] - null[1]; }
};

// runs the collision of `sp` through its first passage on `kernel` and counts its bridge
Bridge measure_bridge(const SceneParams& sp, const char* kernel = "cpu-barnes-hut") {
  const Scene s = make_scene("galaxy-collision", sp);
  const Passage ps = run_through_passage(s, kernel);
  const V3 a1 = bulge_centre(s.bodies, s.groups[0]), a2 = bulge_centre(s.bodies, s.groups[1]);
  const V3 c1 = bulge_centre(ps.at, s.groups[0]), c2 = bulge_centre(ps.at, s.groups[1]);
  Bridge r;
  r.now = bridge_stars(ps.at, s.groups, c1, c2, {V3{0, 0, 0}, V3{0, 0, 0}});
  r.null = bridge_stars(s.bodies, s.groups, c1, c2,
                        {V3{c1[0] - a1[0], c1[1] - a1[1], c1[2] - a1[2]},
                         V3{c2[0] - a2[0], c2[1] - a2[1], c2[2] - a2[2]}});
  std::printf(
      "%s, N = %zu, %s: pericentre %.1f kpc at %.0f Myr; 40 Myr later (separation %.1f kpc) "
      "the bridge region holds %d disk stars (%d + %d), the undisturbed disks %d (%d + %d)\n",
      kernel, s.bodies.size(), s.description.c_str(), ps.r_peri, ps.t_peri, dist(c1, c2),
      r.now[0] + r.now[1], r.now[0], r.now[1], r.null[0] + r.null[1], r.null[0], r.null[1]);
  return r;
}

TEST(GalaxyCollision, FirstPassageThrowsABridge) {
  SceneParams sp;
  sp.values["halo"] = 1;
  const Bridge b = measure_bridge(sp);
  EXPECT_GT(b.excess(), 380);
  EXPECT_GT(b.now[0] - b.null[0], 100) << "galaxy 1 adds little to the bridge";
  EXPECT_GT(b.now[1] - b.null[1], 100) << "galaxy 2 adds little to the bridge";
}

// The same measure on the GPU at the H200's N (1M, live halos), for a device run:
// NBODY_BRIDGE_N (default 1048576), NBODY_BRIDGE_KERNEL (barnes-hut), NBODY_BRIDGE_HALO (0) and
// NBODY_BRIDGE_TILT2 (the scene's default) pick the run; it prints its counts and expects the
// same as above with the thresholds scaled by the share of disk stars (the rigid run's 16,384
// bodies are all stars, a live galaxy's 16 %)
TEST(GalaxyCollision, DISABLED_BridgeAtLargeN) {
  auto env = [](const char* k, const char* def) {
    const char* v = std::getenv(k);
    return std::string(v && *v ? v : def);
  };
  SceneParams sp;
  sp.n = static_cast<std::size_t>(std::stoull(env("NBODY_BRIDGE_N", "1048576")));
  sp.values["halo"] = std::stod(env("NBODY_BRIDGE_HALO", "0"));
  if (const std::string t = env("NBODY_BRIDGE_TILT2", ""); !t.empty())
    sp.values["tilt2"] = std::stod(t);
  const std::string kernel = env("NBODY_BRIDGE_KERNEL", "barnes-hut");
  const Bridge b = measure_bridge(sp, kernel.c_str());
  const double stars = static_cast<double>(sp.n) * (sp.values["halo"] > 0 ? 1.0 : 0.16) / 16384;
  EXPECT_GT(b.excess(), 380 * stars);
  EXPECT_GT(b.now[0] - b.null[0], 100 * stars) << "galaxy 1 adds little to the bridge";
  EXPECT_GT(b.now[1] - b.null[1], 100 * stars) << "galaxy 2 adds little to the bridge";
}

}  // namespace
}  // namespace nbody
