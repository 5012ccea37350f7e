#pragma once
// Scenes: a set of bodies with its unit system and sensible defaults, made by a generator
// (sim/scenes/) or loaded from a file (sim/io/).

#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <string>
#include <vector>

#include "sim/analysis/structure.hpp"
#include "sim/core/bodies.hpp"
#include "sim/core/params.hpp"
#include "sim/core/units.hpp"

namespace nbody {

struct Scene {
  std::string name;         ///< id, e.g. "solar-system"
  std::string description;  ///< one line
  Bodies bodies;
  UnitSystem units;             ///< units of bodies; units.G is the G to use
  double dt = 1e-3;             ///< default time step in units.time
  double softening = 0.0;       ///< default ε in units.length
  double camera_distance = 10;  ///< default camera distance in units.length
  /// Default viewing direction (radians: the camera at (cos p cos y, cos p sin y, sin p) from the
  /// centre, z up); NaN: the viewer's own. The Toomre presets look from the papers' direction,
  /// the galaxy collision across its line of centres after the first passage.
  double camera_yaw = std::numeric_limits<double>::quiet_NaN();
  double camera_pitch = std::numeric_limits<double>::quiet_NaN();
  bool trails = false;  ///< small scenes draw trails
  double speed = 0;     ///< default simulated time per real second (0: 60 steps of dt)
  /// Default integrator (planetary scenes: 4th-order Yoshida; SimParams::integrator starts here).
  Integrator integrator = Integrator::Leapfrog;
  /// Default precision and 1PN term: the real-sky scenes ask for double and the Sun's 1PN term
  /// (their best model, issue 21); every command starts them so unless told otherwise
  /// (--precision float, --no-pn, the panel).
  Precision precision = Precision::Float;
  bool post_newtonian = false;
  PnModel pn_model = PnModel::Sun;  ///< which 1PN term (the sky scenes' parameter eih)
  /// Lines for the user when the scene starts (the ephemeris fit's residual, a cache notice);
  /// the commands print them.
  std::vector<std::string> notes;
  /// Julian date (TT, the ephemeris' time scale) of t = 0 for scenes of the real sky (solar
  /// system, SBDB files); 0 when the scene has no calendar. The date at time t is epoch_jd +
  /// t in days, shown in UTC by sky::utc_string() (TT - UTC = 69.184 s since 2017).
  double epoch_jd = 0;
  /// Per body, the small-body class of JPL's SBDB ("MBA", "TJN", "CEN", "TNO", "JFc", "HTC",
  /// "PAR", "HYP", ...) for asteroids and comets and "" for other bodies; empty when the scene
  /// has no small bodies. For colouring and the legend.
  std::vector<std::string> body_class;
  /// Named ranges of bodies (one per galaxy) for the structure diagnostics; empty: one group.
  std::vector<BodyGroup> groups;
  /// Suggested run length for `simulate` and `render` when the user gives no step count, in
  /// units.time (0: none, the command's own default), and why (printed with the run), e.g.
  /// "first pericentre at 310 Myr, then 400 Myr of tails".
  double duration = 0;
  std::string duration_reason;
  /// The scene is about collisions: the window turns merging of touching bodies on when it
  /// starts (sim/edit/collisions.hpp).
  bool merge_on_touch = false;
};

/// A scene generator's parameters: N (where it applies), the RNG seed, and named numbers
/// (tilt angles, pericentre, mass ratio, eccentricity, ...). Unknown keys are an error.
struct SceneParams {
  std::size_t n = 0;       ///< 0: the scene's default N; must be 2..2^26; ignored when !has_n
  std::uint64_t seed = 1;  ///< RNG seed
  std::map<std::string, double> values;
};

/// One parameter of a scene, for the panel and --help.
struct SceneParamInfo {
  std::string key, label, help;
  double min, max, def;
  bool choice = false;  ///< a whole number (preset, halo kind, a 0/1 switch)
};

/// One row of the scene table.
struct SceneInfo {
  std::string name;         ///< "solar-system", "two-body", "plummer", "galaxy-collision", ...
  std::string label;        ///< human label
  std::string description;  ///< one line
  bool has_n = false;       ///< N chosen by the user
  std::size_t default_n = 0;
  std::vector<SceneParamInfo> params;
  std::function<Scene(const SceneParams&)> make;
};

/// Whether the structure diagnostics (sim/analysis/structure.hpp) apply to `s`: it names groups of
/// bodies or has disk bodies.
bool shows_structure(const Scene& s);

/// Every scene generator.
const std::vector<SceneInfo>& scene_table();
/// Makes the scene `name` with `p`; throws nbody::Error naming the scene and bad parameter.
Scene make_scene(const std::string& name, const SceneParams& p = {});

/// The bodies of one component of a generated scene: how many and the mass of each.
struct ComponentParticles {
  Component component = Component::Star;
  std::size_t count = 0;  ///< in all galaxies of the scene together
  double mass = 0;        ///< of one body in units.mass (galaxies of a pair differ by rounding);
                          ///< the mean where the masses differ
  double mass_ratio = 1;  ///< heaviest / lightest body (a multi-mass halo), 1: equal masses
};

/// Particle counts and masses of a scene's components.
struct SceneParticles {
  UnitSystem units;
  std::vector<ComponentParticles> components;
  /// One line, e.g. "disk 2,643 × 1.5e7 Msun, bulge 529 × 1.5e7 Msun, halo 13,212 × 1.5e7 Msun"
  /// (masses in Msun where the units are physical); "" when there are no components.
  std::string summary() const;
};

/// Per component, the bodies scene `name` makes with `p`, from the same function its generator
/// counts them with (the galaxies); no components for the other scenes. Throws nbody::Error like
/// make_scene() for an unknown scene or bad parameters. Cheap: generates no bodies.
SceneParticles scene_particles(const std::string& name, const SceneParams& p = {});

}  // namespace nbody
