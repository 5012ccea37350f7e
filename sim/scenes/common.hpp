#pragma once
// Internals shared by the scene generators: a portable seeded RNG, parameter lookup and small
// vector helpers. Not part of the public interface (see sim/core/scene.hpp).

#include <array>
#include <cmath>
#include <cstdint>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "sim/core/scene.hpp"

namespace nbody::scenes {

inline constexpr double kPi = 3.14159265358979323846;
inline constexpr double kDeg = kPi / 180.0;

/// Portable random numbers: std::mt19937_64 (its output is fixed by the standard) with the
/// distributions written out here, so a seed gives the same bodies on every platform.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : engine_(seed) {}
  /// Uniform in [0, 1) with 53 random bits.
  double uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }
  /// Uniform in (0, 1), never 0 (safe for logarithms).
  double open_uniform() {
    double u;
    do {
      u = uniform();
    } while (u == 0.0);
    return u;
  }
  /// Uniform in [a, b).
  double uniform(double a, double b) { return a + (b - a) * uniform(); }
  /// Standard normal by Box-Muller (both values used).
  double normal();
  /// A random unit vector, uniform on the sphere.
  std::array<double, 3> unit_vector();

 private:
  std::mt19937_64 engine_;
  bool have_spare_ = false;
  double spare_ = 0;
};

/// Validated parameter values of one make() call: every key of `p.values` must be a row of
/// `info.params` and lie in its range; get() returns the value or the row's default.
class Params {
 public:
  /// Checks `p` against `info` (keys, ranges, N); throws nbody::Error naming the scene.
  Params(const SceneInfo& info, const SceneParams& p);
  double get(const std::string& key) const;
  /// N to generate (the scene's default when p.n is 0).
  std::size_t n() const { return n_; }
  std::uint64_t seed() const { return seed_; }
  const std::string& scene() const { return scene_; }

 private:
  const SceneInfo& info_;
  const SceneParams& p_;
  std::string scene_;
  std::size_t n_ = 0;
  std::uint64_t seed_ = 1;
};

using Vec3 = std::array<double, 3>;

/// Rotates `v` about the x axis by `a` radians.
inline Vec3 rotate_x(const Vec3& v, double a) {
  const double c = std::cos(a), s = std::sin(a);
  return {v[0], c * v[1] - s * v[2], s * v[1] + c * v[2]};
}
/// Rotates `v` about the z axis by `a` radians.
inline Vec3 rotate_z(const Vec3& v, double a) {
  const double c = std::cos(a), s = std::sin(a);
  return {c * v[0] - s * v[1], s * v[0] + c * v[1], v[2]};
}

/// Relative position and velocity of a Kepler orbit at true anomaly `nu`, pericentre on +x,
/// orbit in the xy plane, counter-clockwise; `mu` = G (m1 + m2), `rp` pericentre, `e` >= 0.
void kepler_state(double mu, double rp, double e, double nu, Vec3& r, Vec3& v);

/// Time a Kepler orbit takes from separation `r` (approaching) to its pericentre `rp`;
/// `mu` = G (m1 + m2), 0 <= e <= 1. Parabolic: Barker's equation; elliptic: Kepler's equation
/// (an `r` beyond the apocentre counts as the apocentre, `r` < rp as the pericentre).
double time_to_pericentre(double mu, double rp, double e, double r);

/// Sets the run length and window speed of a collision scene from `t_peri`, the time to the
/// first pericentre, and `t_tails`, the time the tails then take to grow: duration and reason
/// (naming where each comes from: `peri_from`, `tails_from`), and a speed that shows the
/// approach in about 5 s and the tails in at least 6 s.
void set_collision_timing(Scene& s, double t_peri, const std::string& peri_from, double t_tails,
                          const std::string& tails_from);

/// One galaxy's centre for the look-ahead framing (sim/scenes/framing.cpp): position, velocity,
/// mass, and the pull of its spherical mass at radius r (acceleration magnitude, G included).
struct LookAheadCore {
  Vec3 x{}, v{};
  double mass = 0;
  std::function<double(double)> pull;
};

/// Integrates two centres and test stars (positions `x`, velocities `v`, in place) for time
/// `t_end` by leapfrog with steps of about `dt`: the centres on their relative orbit in each
/// other's field (cores[0].pull + cores[1].pull at their distance, momentum conserved), the stars
/// in both centres' fields. Point masses give the Toomre scene's exact orbit; the galaxies'
/// extended halos overlap at first passage, where this orbit is an approximation.
void look_ahead(std::array<LookAheadCore, 2>& cores, std::vector<Vec3>& x, std::vector<Vec3>& v,
                double dt, double t_end);

/// The pull G M(<r) / r^2 of the bodies [begin, end) of `b` about `centre` (their gravity
/// Plummer-softened over `eps`, as the kernels apply it) and of the rigid halos anchored there.
std::function<double(double)> spherical_pull(const Bodies& b, std::size_t begin, std::size_t end,
                                             const Vec3& centre, double G, double eps);

/// A collision's default view as the viewer draws it: the camera at distance D in the direction
/// (cos p cos y, cos p sin y, sin p) from `centre`, z up, a 45 deg vertical field of view, and the
/// window's shape, 16:9 (the window's 1600 x 900 and `nbody render`'s 1280 x 720; a narrower
/// window shows less to the sides).
struct CollisionFrame {
  static constexpr double kFieldOfView = 45 * kDeg, kAspect = 16.0 / 9.0, kPitch = 55 * kDeg;
  Vec3 centre{};
  double yaw = 0, pitch = kPitch;
  /// the camera distance D at which `p` lies on the edge of the frame shrunk by `margin` (> 1)
  double need(const Vec3& p, double margin) const;
};

/// The galaxy collision's default camera (distance, yaw, pitch of `s`) from its geometry at
/// `t_look` (just after the first pericentre): s.groups[0] and [1], each a centre in its own
/// spherical field (spherical_pull) with ~600 of its disk stars, integrated ahead (look_ahead);
/// the line of centres then lies across the screen, seen from CollisionFrame::kPitch above the
/// orbital plane, at the distance that holds 90 % of the sampled stars (15 % to spare) and
/// both centres (50 % to spare) at t_look and both centres (50 % to spare) at the start.
void frame_collision(Scene& s, double t_look);

/// Centre-of-mass frame and a check that the result is valid (names the scene).
void finish(Scene& s);

// generators, one per scene (each file registers nothing; scene_table.cpp lists them)
Scene make_solar_system(const Params& p);
Scene make_sun_earth_moon(const Params& p);
Scene make_two_body(const Params& p);
Scene make_binary_star(const Params& p);
Scene make_plummer(const Params& p);
Scene make_cold_collapse(const Params& p);
Scene make_disk_galaxy(const Params& p);
Scene make_galaxy_collision(const Params& p);
Scene make_toomre(const Params& p);
Scene make_planet_into_jupiter(const Params& p);

// particle counts and masses of the galaxy scenes (the functions their generators count with)
SceneParticles disk_galaxy_particles(const Params& p);
SceneParticles galaxy_collision_particles(const Params& p);

}  // namespace nbody::scenes
