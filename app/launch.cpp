#include "app/launch.hpp"

#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "sim/backend.hpp"
#include "sim/error.hpp"
#include "sim/sky/sbdb.hpp"

namespace nbody::app {

void add_launch_options(CLI::App& cmd, LaunchOptions& o) {
  // scene
  cmd.add_option("--scene", o.scene, "preset scene (see `nbody simulate --list-scenes`)")
      ->capture_default_str()
      ->group("Scene");
  cmd.add_option("--load", o.load, "load bodies from a file or an AGORA directory")->group("Scene");
  cmd.add_option("-n,--bodies", o.n, "number of bodies for generated scenes (0: default)")
      ->group("Scene");
  cmd.add_option("--seed", o.seed, "random seed of generated scenes")
      ->capture_default_str()
      ->group("Scene");
  cmd.add_option("--param", o.scene_values, "scene parameter KEY=VALUE (repeatable)")
      ->group("Scene");
  cmd.add_option("--tipsy-units", o.tipsy_units,
                 "units of a Tipsy file: henon, galactic, agora, solar")
      ->capture_default_str()
      ->group("Scene");
  cmd.add_option("--components", o.components,
                 "components to load: disk,bulge,halo,gas (AGORA) or star,dark,gas (Tipsy)")
      ->delimiter(',')
      ->group("Scene");
  // physics and kernel
  cmd.add_option("--kernel", o.kernel, "force kernel (default: the fastest available)")
      ->group("Physics");
  cmd.add_option("--precision", o.precision, "float or double")
      ->capture_default_str()
      ->group("Physics");
  cmd.add_option("--dt", o.dt, "time step in the scene's time unit (default: the scene's)")
      ->group("Physics");
  cmd.add_option("--softening,--eps", o.softening, "softening length (default: the scene's)")
      ->group("Physics");
  cmd.add_option("--G", o.G, "gravitational constant (default: the scene's units)")
      ->group("Physics");
  add_tunable_options(cmd, o.tunables, "Kernel tunables");
  cmd.add_option("--steps-per-frame", o.steps_per_frame, "integrator steps per frame")
      ->capture_default_str()
      ->group("Physics");
  cmd.add_option("--integrator", o.integrator,
                 "leapfrog (KDK, 2nd order) or yoshida4 (4th-order symplectic, 3 force "
                 "evaluations a step); default: the scene's (yoshida4 for the solar system)")
      ->group("Physics");
  cmd.add_flag("--pn", o.post_newtonian,
               "1PN (general-relativistic) correction of the Sun's gravity (needs physical units)")
      ->group("Physics");
  // small bodies
  cmd.add_option("--small-bodies", o.small_bodies,
                 "JPL SBDB JSON files (e.g. /usr/share/kstars/asteroids.dat,comets.dat) whose "
                 "bodies join the solar-system scene at its date")
      ->delimiter(',')
      ->group("Scene");
  cmd.add_option("--small-bodies-class", o.small_body_classes,
                 "keep these SBDB classes only: MBA,TJN,CEN,TNO,OMB,JFc,HTC,PAR,HYP,...")
      ->delimiter(',')
      ->group("Scene");
  cmd.add_option("--small-bodies-max", o.small_bodies_max,
                 "at most this many small bodies, in file order (0: all)")
      ->group("Scene");
  cmd.add_flag("--small-bodies-massless", o.small_bodies_massless,
               "small bodies are test particles (m = 0) instead of masses from their diameters "
               "(2000 kg/m^3)")
      ->group("Scene");
}

std::string option_name(const std::string& key) {
  std::string s = "--" + key;
  for (char& c : s)
    if (c == '_') c = '-';
  return s;
}

void add_tunable_options(CLI::App& cmd, std::map<std::string, std::string>& out,
                         const std::string& group, bool lists) {
  for (const Tunable* t : all_tunables()) {
    // which kernels have it
    std::string kernels;
    for (const KernelInfo& k : kernel_table())
      if (k.find_tunable(t->key)) kernels += (kernels.empty() ? "" : ", ") + k.name;
    std::string help = t->help + " [" + kernels + "; allowed " + t->allowed() + "]";
    if (lists) help += "; comma-separated values are swept";
    cmd.add_option_function<std::string>(
           option_name(t->key), [&out, key = t->key](const std::string& v) { out[key] = v; }, help)
        ->group(group);
  }
}

void apply_tunables(const std::map<std::string, std::string>& given, const KernelInfo& kernel,
                    SimParams& p) {
  for (const auto& [key, text] : given) {
    const Tunable* t = kernel.find_tunable(key);
    if (!t) {
      std::string has;
      for (const KernelInfo& k : kernel_table())
        if (k.find_tunable(key)) has += (has.empty() ? "" : ", ") + k.name;
      fail(option_name(key), " does not apply to kernel '", kernel.name, "' (it is a tunable of ",
           has.empty() ? "no kernel in this build" : has, ")");
    }
    p.tunables[key] = t->parse(text, option_name(key));
  }
}

io::LoadOptions load_options(const LaunchOptions& o) {
  io::LoadOptions lo;
  lo.tipsy_units = units::by_name(o.tipsy_units, "--tipsy-units");
  // a progress line on stderr for large inputs, rewritten in place
  lo.progress = [path = o.load, last = -1](double f) mutable {
    const int pct = static_cast<int>(f * 100.0);
    if (pct == last) return;
    last = pct;
    std::fprintf(stderr, "\rloading %s: %3d%%%s", path.c_str(), pct, pct >= 100 ? "\n" : "");
    std::fflush(stderr);
  };
  if (!o.components.empty()) io::select_components(lo, o.components, "--components");
  return lo;
}

std::string default_kernel() {
  if (cuda_available()) {
    for (const char* name : {"tiled2d", "tiled", "naive"})
      for (const KernelInfo& k : kernel_table())
        if (k.name == name) return k.name;
  }
  // the symmetric kernel is the fastest CPU one (docs/PERFORMANCE.md)
  return "cpu-symmetric";
}

namespace {
// "key=value" list into the scene's named values
std::map<std::string, double> parse_values(const std::vector<std::string>& kv) {
  std::map<std::string, double> out;
  for (const std::string& s : kv) {
    const auto eq = s.find('=');
    if (eq == std::string::npos || eq == 0) fail("--param: expected KEY=VALUE, got '", s, "'");
    const std::string key = s.substr(0, eq), val = s.substr(eq + 1);
    char* end = nullptr;
    const double v = std::strtod(val.c_str(), &end);
    if (val.empty() || *end != '\0') fail("--param ", key, ": '", val, "' is not a number");
    out[key] = v;
  }
  return out;
}
}  // namespace

Launch make_launch(const LaunchOptions& o, std::size_t gpu_default_n, std::size_t cpu_default_n) {
  Launch l;
  // the kernel first: the default N depends on whether it runs on a GPU
  SimParams& p = l.params;
  p.kernel = o.kernel.empty() ? default_kernel() : o.kernel;
  const KernelInfo& k = find_kernel(p.kernel);
  p.precision = parse_precision(o.precision, "--precision");
  if (!k.supports_float) p.precision = Precision::Double;
  apply_tunables(o.tunables, k, p);
  p.steps_per_frame = o.steps_per_frame;

  if (!o.load.empty()) {
    if (o.n) fail("-n/--bodies applies to generated scenes, not to --load ", o.load);
    l.scene = io::load(o.load, load_options(o));
  } else {
    SceneParams sp;
    sp.seed = o.seed;
    sp.values = parse_values(o.scene_values);
    sp.n = o.n;
    if (sp.n == 0) {
      for (const SceneInfo& s : scene_table())
        if (s.name == o.scene && s.has_n) sp.n = (k.gpu ? gpu_default_n : cpu_default_n);
    }
    l.scene = make_scene(o.scene, sp);
  }
  if (!o.small_bodies.empty()) {
    sky::SmallBodyOptions so;
    so.classes = o.small_body_classes;
    so.max = o.small_bodies_max;
    so.massless = o.small_bodies_massless;
    sky::add_small_bodies(l.scene, o.small_bodies, so);
  } else if (!o.small_body_classes.empty() || o.small_bodies_max || o.small_bodies_massless) {
    fail(
        "--small-bodies-class, --small-bodies-max and --small-bodies-massless need "
        "--small-bodies FILE");
  }
  p.integrator =
      o.integrator.empty() ? l.scene.integrator : parse_integrator(o.integrator, "--integrator");
  p.post_newtonian = o.post_newtonian;
  // c in the scene's units
  const UnitSystem& u = l.scene.units;
  p.speed_of_light = u.physical() ? 299792458.0 * u.time_s / u.length_m : 0.0;
  if (p.post_newtonian && !u.physical())
    fail("--pn: scene '", l.scene.name, "' has no physical units (", u.name,
         "), so the speed of light is unknown");
  p.dt = o.dt.value_or(l.scene.dt);
  p.softening = o.softening.value_or(l.scene.softening);
  p.G = o.G.value_or(l.scene.units.G);
  validate(p);
  validate_kernel_params(p);
  return l;
}

}  // namespace nbody::app
