#include "app/core/launch.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <sstream>
#include <tuple>

#include "app/core/progress.hpp"
#include "app/core/state_file.hpp"

#include "sim/core/backend.hpp"
#include "sim/core/error.hpp"
#include "sim/core/units.hpp"
#include "sim/integrators/integrator.hpp"
#include "sim/io/detail.hpp"
#include "sim/io/format_table.hpp"
#include "sim/sky/fit.hpp"
#include "sim/sky/sbdb.hpp"

namespace nbody::app {

CLI::Validator finite_number(bool positive) {
  return CLI::Validator(
      [positive](std::string& in) -> std::string {
        char* end = nullptr;
        const double v = std::strtod(in.c_str(), &end);
        if (in.empty() || *end != '\0' || !std::isfinite(v) || (positive ? !(v > 0) : v < 0))
          return "'" + in + "' is not a finite number " + (positive ? "> 0" : ">= 0");
        return {};
      },
      positive ? "NUMBER > 0" : "NUMBER >= 0");
}

CLI::Validator non_empty() {
  return CLI::Validator(
      [](std::string& in) -> std::string { return in.empty() ? "an empty name" : ""; }, "NAME");
}

std::vector<std::string> unit_names() {
  return {"henon", "solar", "galactic", "agora"};
}

namespace {
std::vector<std::string> scene_names() {
  std::vector<std::string> v;
  for (const SceneInfo& s : scene_table())
    v.push_back(s.name);
  return v;
}
std::vector<std::string> kernel_names() {
  std::vector<std::string> v;
  for (const KernelInfo& k : kernel_table())
    v.push_back(k.name);
  return v;
}
}  // namespace

void add_launch_options(CLI::App& cmd, LaunchOptions& o) {
  // scene
  auto* scene =
      cmd.add_option("--scene", o.scene, "preset scene (see `nbody simulate --list-scenes`)")
          ->capture_default_str()
          ->check(CLI::IsMember(scene_names()))
          ->group("Scene");
  auto* load = cmd.add_option("--load", o.load,
                              "load bodies from a file or directory in a format nbody reads (" +
                                  io::readable_label_list() +
                                  "; detected; `nbody convert --help` lists them)")
                   ->check(non_empty())
                   ->group("Scene");
  auto* n = cmd.add_option("-n,--bodies", o.n, "number of bodies for generated scenes (0: default)")
                ->check(CLI::Range(0.0, 67108864.0))
                ->group("Scene");
  auto* seed = cmd.add_option("--seed", o.seed, "random seed of generated scenes (default 1)")
                   ->check(CLI::Range(0.0, 1.8e19))
                   ->group("Scene");
  auto* param = cmd.add_option("--param", o.scene_values, "scene parameter KEY=VALUE (repeatable)")
                    ->group("Scene");
  // a loaded file has no preset, N, seed or scene parameters
  load->excludes(scene)->excludes(n)->excludes(seed)->excludes(param);
  cmd.add_option("--lesson", o.lesson,
                 "play a lesson: a JSON file scripting a demo (its scene, events and captions; "
                 "docs/LESSONS.md), or the name of a shipped one (comet-slingshot, heavy-sun, "
                 "black-hole-galaxy)")
      ->check(non_empty())
      ->excludes(scene)
      ->excludes(load)
      ->excludes(param)
      ->group("Scene");
  cmd.add_option("--input-units,--tipsy-units", o.input_units,
                 "units of a file that stores none (possible for " +
                     io::format_labels(&io::FormatCaps::units, false) +
                     "): henon (default, G = 1), solar, galactic, agora")
      ->check(CLI::IsMember(unit_names()))
      ->group("Scene");
  cmd.add_option("--components", o.components,
                 "components to load: disk,bulge,halo,gas (AGORA) or star,dark,gas (Tipsy)")
      ->delimiter(',')
      ->check(CLI::IsMember({"disk", "bulge", "halo", "dark", "gas", "star", "stars", "all"},
                            CLI::ignore_case))
      ->group("Scene");
  // physics and kernel
  cmd.add_option("--kernel", o.kernel, "force kernel (default: the fastest available)")
      ->check(CLI::IsMember(kernel_names()))
      ->group("Physics");
  cmd.add_option("--precision", o.precision,
                 "float or double (default: float; double for the real-sky scenes and for "
                 "kernels that compute only in double)")
      ->check(CLI::IsMember({"float", "double"}))
      ->group("Physics");
  cmd.add_option("--dt", o.dt, "time step in the scene's time unit (default: the scene's)")
      ->check(finite_number(true))
      ->group("Physics");
  cmd.add_option("--softening,--eps", o.softening, "softening length (default: the scene's)")
      ->check(finite_number(false))
      ->group("Physics");
  cmd.add_option("--G", o.G, "gravitational constant (default: the scene's units)")
      ->check(finite_number(true))
      ->group("Physics");
  add_tunable_options(cmd, o.tunables, "Kernel tunables");
  cmd.add_option("--gpus", o.gpus,
                 "GPUs a GPU kernel runs on: N or all (bodies split into one slice per GPU, "
                 "positions exchanged with NCCL each step)")
      ->capture_default_str()
      ->group("Physics");
  cmd.add_option("--steps-per-frame", o.steps_per_frame, "integrator steps per frame")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000))
      ->group("Physics");
  cmd.add_option("--integrator", o.integrator,
                 "leapfrog (KDK, 2nd order), yoshida4 (4th-order symplectic, 3 force evaluations "
                 "a step), whfast (Wisdom-Holman with correctors, planets about a star; CPU "
                 "kernels) or ias15 (adaptive 15th order, dt = output interval; CPU kernels, "
                 "double); default: the scene's (yoshida4 for the solar system)")
      ->check(non_empty())
      ->group("Physics");
  cmd.add_option("--ias15-epsilon", o.ias15_epsilon,
                 "IAS15's tolerance: |b6|/|a| per step (Rein & Spiegel 2015)")
      ->capture_default_str()
      ->check(CLI::Range(1e-16, 1e-2))
      ->group("Physics");
  cmd.add_option("--whfast-corrector", o.whfast_corrector,
                 "WHFast's symplectic corrector order: 0 (none), 3, 5, 7 or 11 (Wisdom, Holman & "
                 "Touma 1996), applied at the start and end of each batch of steps")
      ->capture_default_str()
      ->check(CLI::IsMember({0, 3, 5, 7, 11}))
      ->group("Physics");
  cmd.add_flag("--pn", o.post_newtonian,
               "1PN (general-relativistic) correction of the Sun's gravity (needs physical units)")
      ->group("Physics");
  cmd.add_flag("--no-pn", o.no_post_newtonian,
               "drop the 1PN term a loaded state records (--load continues it otherwise)")
      ->group("Physics");
  cmd.add_option("--post-newtonian", o.post_newtonian_model,
                 "the 1PN term: off, sun (the Sun's field alone, as --pn; the real sky's "
                 "default) or eih (Einstein-Infeld-Hoffmann, every massive body on every body; "
                 "CPU kernels; on the real sky the fit uses it too)")
      ->check(CLI::IsMember({"off", "sun", "eih"}))
      ->group("Physics");
  // small bodies
  cmd.add_option("--small-bodies", o.small_bodies,
                 "JPL SBDB JSON files (e.g. /usr/share/kstars/asteroids.dat,comets.dat) whose "
                 "bodies join the solar-system scene at its date")
      ->delimiter(',')
      ->check(non_empty())
      ->group("Scene");
  cmd.add_option("--small-bodies-class", o.small_body_classes,
                 "keep these SBDB classes only: MBA,TJN,CEN,TNO,OMB,JFc,HTC,PAR,HYP,...")
      ->delimiter(',')
      ->group("Scene");
  cmd.add_option("--small-bodies-max", o.small_bodies_max,
                 "at most this many small bodies, in file order (0: all)")
      ->check(CLI::Range(0.0, 1e12))
      ->group("Scene");
  cmd.add_option("--small-bodies-masses", o.small_body_masses,
                 "which small bodies pull: largest (default: Ceres, Pallas, Vesta, Hygiea with "
                 "DE440's GM, the rest test particles), none (all test particles), estimated "
                 "(all massive: GM, else from diameter or H at 2000 kg/m^3; an O(N^2) sum)")
      ->check(CLI::IsMember({"largest", "none", "estimated"}))
      ->group("Scene");
  cmd.add_flag("--small-bodies-massless", o.small_bodies_massless,
               "the same as --small-bodies-masses none")
      ->group("Scene");
  cmd.add_flag("--small-bodies-kepler", o.small_bodies_kepler,
               "place the small bodies on their Kepler orbits (two-body) instead of carrying them "
               "from their elements' epochs by integration with the planets (the default; cached "
               "per date)")
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
    // values are checked against the tunable's allowed set when parsed (whether it applies to
    // the chosen kernel is checked by apply_tunables)
    CLI::Validator allowed(
        [t, lists](std::string& in) -> std::string {
          std::vector<std::string> items{in};
          if (lists) {
            items.clear();
            std::stringstream ss(in);
            for (std::string item; std::getline(ss, item, ',');)
              items.push_back(item);
          }
          try {
            for (const std::string& item : items)
              t->parse(item, option_name(t->key));
          } catch (const Error& e) {
            // CLI11 puts the option's name in front itself
            const std::string m = e.what(), named = option_name(t->key) + ": ";
            return m.rfind(named, 0) == 0 ? m.substr(named.size()) : m;
          }
          return {};
        },
        t->allowed());
    cmd.add_option_function<std::string>(
           option_name(t->key), [&out, key = t->key](const std::string& v) { out[key] = v; }, help)
        ->check(allowed)
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

std::string thousands(long long n) {
  std::string s = std::to_string(n < 0 ? -n : n);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3)
    s.insert(static_cast<std::size_t>(i), ",");
  return (n < 0 ? "-" : "") + s;
}

namespace {
// "running 640 Myr (1,290 steps<detail>): <reason>"
std::string plan_line(const Scene& scene, double dt, long long steps, const std::string& detail) {
  return "running " + units::format_time_rounded(static_cast<double>(steps) * dt, scene.units) +
         " (" + thousands(steps) + " steps" + detail + "): " + scene.duration_reason;
}
}  // namespace

RunPlan plan_run(const Scene& scene, double dt) {
  RunPlan r;
  if (!(scene.duration > 0) || !(dt > 0)) return r;
  const double steps = std::ceil(scene.duration / dt * (1 - 1e-12));
  r.steps = static_cast<long long>(std::clamp(steps, 1.0, 2147483647.0));
  r.line = plan_line(scene, dt, r.steps, "");
  return r;
}

RunPlan plan_frames(const Scene& scene, double dt, int steps_per_frame, int max_frames) {
  RunPlan r = plan_run(scene, dt);
  if (r.steps == 0) return r;
  // whole frames: the run ends at or just after the duration
  const long long per =
      steps_per_frame > 0 ? steps_per_frame : (r.steps + max_frames - 1) / std::max(max_frames, 1);
  r.steps_per_frame = static_cast<int>(std::clamp(per, 1LL, 100000LL));
  r.frames =
      static_cast<int>(std::min((r.steps + r.steps_per_frame - 1) / r.steps_per_frame, 10000000LL));
  r.steps = static_cast<long long>(r.frames) * r.steps_per_frame;
  r.line = plan_line(scene, dt, r.steps,
                     ", " + thousands(r.frames) + " frames of " + thousands(r.steps_per_frame));
  return r;
}

io::LoadOptions load_options(const std::vector<std::string>& components,
                             const std::string& input_units, const std::string& label) {
  io::LoadOptions lo;
  if (!input_units.empty()) lo.input_units = units::by_name(input_units, "--input-units");
  if (!components.empty()) io::select_components(lo, components, "--components");
  // given by a person: an error where the file has no use for them
  lo.input_units_given = !input_units.empty();
  lo.components_given = !components.empty();
  // a bar on a terminal; the loaders report fractions
  auto bar = std::make_shared<std::unique_ptr<ProgressBar>>();
  lo.progress = [bar, label](double f) {
    if (!*bar) *bar = std::make_unique<ProgressBar>("loading " + label, 1.0);
    (*bar)->update(f);
    if (f >= 1) (*bar)->finish();
  };
  lo.notice = [](const std::string& m) { std::fprintf(stderr, "nbody: note: %s\n", m.c_str()); };
  return lo;
}

io::LoadOptions load_options(const LaunchOptions& o) {
  io::LoadOptions lo = load_options(o.components, o.input_units, o.load);
  // --dt / --softening replace what the file gives or the loader guesses
  lo.need_dt = !o.dt;
  lo.need_softening = !o.softening;
  return lo;
}

Scene output_scene(Simulation& sim, const SimParams& p) {
  Scene out = sim.scene();
  out.bodies = sim.bodies();
  out.dt = p.dt;
  out.softening = p.softening;
  out.units.G = p.G;
  return out;
}

namespace {

// the integrator as a run record names it ("leapfrog-kdk", "yoshida4+1pn")
std::string recorded_integrator(const SimParams& p) {
  return std::string(p.integrator == Integrator::Leapfrog ? "leapfrog-kdk"
                                                          : integrator_name(p.integrator)) +
         post_newtonian_suffix(p);
}

}  // namespace

io::RunRecord run_record(const Simulation& sim, const SimParams& p,
                         const std::optional<io::RunRecord>& before) {
  io::RunRecord r;
  // a run continued from a file adds to what the file records
  r.time = (before ? before->time : 0) + sim.time();
  r.steps = (before ? before->steps : 0) + sim.steps_done();
  r.kernel = sim.kernel();
  r.integrator = recorded_integrator(p);
  // the kernel choice, so that --load restores it
  r.precision = precision_name(sim.precision());
  r.gpus = p.gpus;
  r.tunables = p.tunables;
  return r;
}

void check_coincident(const Bodies& b, double softening, const std::string& what) {
  // a softening whose cube underflows in float (< ~2e-13) is as good as none for two bodies at
  // one place: their force is 0/0
  const float e = static_cast<float>(softening);
  if ((softening > 0 && std::isnormal(e * e * e)) || b.size() < 2) return;
  std::vector<std::uint32_t> idx(b.size());
  if (b.size() > 0xFFFFFFFFu) return;
  for (std::size_t i = 0; i < idx.size(); ++i)
    idx[i] = static_cast<std::uint32_t>(i);
  auto key = [&](std::uint32_t i) { return std::tie(b.x[i], b.y[i], b.z[i]); };
  std::sort(idx.begin(), idx.end(),
            [&](std::uint32_t a, std::uint32_t c) { return key(a) < key(c); });
  for (std::size_t k = 1; k < idx.size(); ++k) {
    const std::uint32_t i = std::min(idx[k - 1], idx[k]), j = std::max(idx[k - 1], idx[k]);
    if (key(i) != key(j)) continue;
    auto label = [&](std::uint32_t q) {
      std::string l = std::to_string(q);
      if (!b.name.empty() && !b.name[q].empty()) l += " (" + io::detail::quote(b.name[q]) + ")";
      return l;
    };
    fail(what, ": bodies ", label(i), " and ", label(j), " are at the same position (", b.x[i],
         ", ", b.y[i], ", ", b.z[i], ") and the softening is ", softening,
         softening > 0 ? " (too small)" : "",
         ": the force between them is infinite; give --softening > 0 (at least 1e-12)");
  }
}

int parse_gpus(const std::string& text) {
  if (text == "all") return 0;
  char* end = nullptr;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || v < 1 || v > 4096)
    fail("--gpus: '", text, "' is not a number of GPUs (1, 2, ... or all)");
  return static_cast<int>(v);
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

void check_tree_cells(int depth, const std::string& kernel) {
  if (depth < 0 || find_kernel(kernel).tree) return;
  std::string trees;
  for (const KernelInfo& k : kernel_table())
    if (k.tree && (!k.gpu || cuda_available())) trees += (trees.empty() ? "" : " or ") + k.name;
  fail("--tree-cells draws the cells of a tree kernel's tree; kernel '", kernel,
       "' has none (use --kernel ", trees, ")");
}

KernelPick choose_kernel(const Scene& scene, bool gpu) {
  const std::string direct = gpu ? "tiled2d" : "cpu-symmetric";
  // cpu-falcon conserves momentum exactly but is 4-10x slower than cpu-barnes-hut at the same
  // force error on the CPU, galaxy scenes included (docs/PERFORMANCE.md): not a default
  const std::string tree = gpu ? "barnes-hut" : "cpu-barnes-hut";
  const std::size_t n = scene.bodies.size(), from = gpu ? kGpuTreeFromN : kCpuTreeFromN;
  const std::string side = gpu ? "on this GPU kind (H200)" : "on a 2-core CPU";
  if (scene.units.name == "solar" || scene.trails)
    return {direct, "planetary scene: the exact direct sum (" + direct +
                        "), since a few massive bodies dominate and a tree's approximation buys "
                        "nothing there"};
  if (n >= from)
    return {tree, "N = " + std::to_string(n) + " >= " + std::to_string(from) +
                      ", where Barnes-Hut overtakes the direct sum " + side +
                      " (nbody bench, docs/PERFORMANCE.md); median force error ~2e-4"};
  return {direct, "N = " + std::to_string(n) + " < " + std::to_string(from) +
                      ": the direct sum is faster than Barnes-Hut here " + side +
                      " (nbody bench, docs/PERFORMANCE.md)"};
}

std::map<std::string, double> parse_values(const std::vector<std::string>& kv) {
  std::map<std::string, double> out;
  for (const std::string& s : kv) {
    const auto eq = s.find('=');
    if (eq == std::string::npos || eq == 0) fail("--param: expected KEY=VALUE, got '", s, "'");
    const std::string key = s.substr(0, eq), val = s.substr(eq + 1);
    char* end = nullptr;
    const double v = std::strtod(val.c_str(), &end);
    if (val.empty() || *end != '\0') fail("--param ", key, ": '", val, "' is not a number");
    if (out.count(key))
      fail("--param ", key, " is given twice (", key, "=", out[key], " and ", s, ")");
    out[key] = v;
  }
  return out;
}

namespace {

// a run continued from a file keeps the integrator the file records unless --integrator says
// otherwise; a change (another integrator, the 1PN term dropped or added) is said, since an
// output then records the new one for all the steps
void continue_integrator(const io::RunRecord& run, const LaunchOptions& o, Integrator scene,
                         SimParams& p) {
  std::string base = run.integrator;
  PnModel model = PnModel::Sun;
  const bool pn = strip_post_newtonian_suffix(base, model);
  auto note = [&](const std::string& m) {
    std::fprintf(stderr, "nbody: note: %s: %s\n", o.load.c_str(), m.c_str());
  };
  std::optional<Integrator> recorded;
  try {
    recorded = parse_integrator(base);
  } catch (const Error&) {
  }
  if (o.integrator.empty() && recorded) p.integrator = *recorded;
  // the 1PN term continues unless --no-pn drops it or --post-newtonian names one
  if (pn && !o.no_post_newtonian && o.post_newtonian_model.empty()) {
    p.post_newtonian = true;
    p.pn_model = model;
  }
  const std::string now = recorded_integrator(p);
  if (recorded == p.integrator && pn == p.post_newtonian && (!pn || model == p.pn_model)) {
    if (o.integrator.empty() && p.integrator != scene)
      note("continues its run with integrator " + now + " (as the file records)");
    return;
  }
  note("records integrator " + io::detail::quote(run.integrator) + " for its " +
       std::to_string(run.steps) + " steps; this run uses " + now +
       (pn && !p.post_newtonian ? " (--no-pn dropped the 1PN term)" : "") +
       ", and an output records " + now + " for all the steps");
}

// the kernel, precision, GPUs and tunables a loaded state records, each unless the command line
// gives it; a kernel this machine cannot run falls back to the one picked for the scene
void restore_kernel_choice(const io::RunRecord& run, const LaunchOptions& o, Launch& l,
                           SimParams& p) {
  const KernelChoice c = restore_choice(run, p.kernel, [&](const std::string& m) {
    std::fprintf(stderr, "nbody: note: %s: %s\n", o.load.c_str(), m.c_str());
  });
  if (o.kernel.empty()) {
    if (c.kernel == run.kernel) l.kernel_reason = "the kernel " + o.load + " records";
    p.kernel = c.kernel;
  }
  if (p.kernel != c.kernel) return;  // another kernel named: its own defaults
  if (o.precision.empty() && !run.precision.empty()) p.precision = c.precision;
  if (o.gpus == "1") p.gpus = c.gpus;
  p.tunables = c.tunables;  // --theta etc. are applied on top
}

// --lesson: the lesson's scene and start physics become launch options (the command line's
// kernel, dt and integrator win)
std::shared_ptr<const Lesson> apply_lesson(LaunchOptions& o) {
  auto lesson = std::make_shared<const Lesson>(load_lesson(o.lesson));
  const LessonScene& ls = lesson->scene;
  if (!ls.file.empty()) {
    o.load = ls.file;
  } else {
    o.scene = ls.name;
    bool known = false;
    for (const SceneInfo& s : scene_table())
      known = known || s.name == ls.name;
    if (!known) fail(lesson->source, ": scene: no scene named '", ls.name, "'");
    if (!o.n) o.n = ls.params.n;
    if (!o.seed && ls.params.seed != 1) o.seed = ls.params.seed;
    for (const auto& [key, value] : ls.params.values)
      o.scene_values.push_back(key + "=" + io::detail::format_double(value));
  }
  if (o.kernel.empty()) o.kernel = lesson->kernel;
  if (o.precision.empty()) o.precision = lesson->precision;
  if (o.integrator.empty() && lesson->integrator)
    o.integrator = integrator_name(*lesson->integrator);
  if (!o.softening && lesson->softening) o.softening = lesson->softening;
  return lesson;
}

// --small-bodies FILE and its options: the JPL small bodies added to the scene
void add_small_bodies(const LaunchOptions& o, Scene& scene) {
  if (!o.small_bodies.empty()) {
    sky::SmallBodyOptions so;
    so.classes = o.small_body_classes;
    so.max = o.small_bodies_max;
    so.masses =
        sky::parse_small_body_masses(o.small_body_masses.empty() ? "largest" : o.small_body_masses);
    if (o.small_bodies_massless) {
      if (!o.small_body_masses.empty() && o.small_body_masses != "none")
        fail("--small-bodies-massless contradicts --small-bodies-masses ", o.small_body_masses);
      so.masses = sky::SmallBodyMasses::None;
    }
    so.carry = !o.small_bodies_kepler;
    so.notice = [](const std::string& m) { std::fprintf(stderr, "nbody: note: %s\n", m.c_str()); };
    sky::add_small_bodies(scene, o.small_bodies, so);
  } else if (!o.small_body_classes.empty() || o.small_bodies_max || o.small_bodies_massless ||
             !o.small_body_masses.empty() || o.small_bodies_kepler) {
    fail(
        "--small-bodies-class, --small-bodies-max, --small-bodies-masses, "
        "--small-bodies-massless and --small-bodies-kepler need --small-bodies FILE");
  }
}

// --pn: the 1PN term is the field of one dominant body (the Sun), not of a galaxy's heaviest star
void check_one_dominant_body(const Scene& scene) {
  const Bodies& b = scene.bodies;
  double total = 0, heaviest = 0;
  for (double m : b.m) {
    total += m;
    heaviest = std::max(heaviest, m);
  }
  if (!(heaviest >= 0.5 * total))
    fail("--pn: the 1PN correction is about one dominant body (the Sun); in scene '", scene.name,
         "' the heaviest body holds only ", 100 * heaviest / total, "% of the mass");
}

}  // namespace

Launch make_launch(const LaunchOptions& given, std::size_t gpu_default_n,
                   std::size_t cpu_default_n) {
  Launch l;
  LaunchOptions o = given;
  if (!o.lesson.empty()) l.lesson = apply_lesson(o);
  // the kernel first: the default N depends on whether it runs on a GPU
  SimParams& p = l.params;
  p.kernel = o.kernel.empty() ? default_kernel() : o.kernel;
  const KernelInfo& k = find_kernel(p.kernel);
  p.precision = parse_precision(o.precision.empty() ? "float" : o.precision, "--precision");
  p.steps_per_frame = o.steps_per_frame;
  p.gpus = parse_gpus(o.gpus);
  if (p.gpus != 1 && !k.gpu)
    fail("--gpus ", o.gpus, " applies to the GPU kernels, not to '", k.name, "'");
  if (k.gpu) resolve_gpus(p.gpus);  // enough devices, and NCCL when more than one
  p.process = o.process;
  if (p.process.world > 1 && !k.gpu)
    fail("--world ", p.process.world,
         ": a run of several processes needs a GPU kernel (--kernel), "
         "not '",
         k.name, "'");

  if (!o.load.empty()) {
    if (o.n) fail("-n/--bodies applies to generated scenes, not to --load ", o.load);
    if (!o.scene_values.empty()) fail("--param applies to preset scenes, not to --load ", o.load);
    io::LoadOptions lo = load_options(o);
    io::RunRecord run;
    lo.run = &run;
    l.scene = io::load(o.load, lo);
    if (run.steps > 0 || run.time != 0) l.loaded_run = run;
  } else {
    SceneParams sp;
    sp.seed = o.seed.value_or(1);
    sp.values = parse_values(o.scene_values);
    sp.n = o.n;
    for (const SceneInfo& s : scene_table()) {
      if (s.name == o.scene && !s.has_n && o.n)
        fail("-n/--bodies: scene '", o.scene,
             "' has a fixed set of bodies (-n applies to generated scenes; see `nbody simulate "
             "--list-scenes`)");
      if (s.name == o.scene && !s.has_n && o.seed)
        fail("--seed: scene '", o.scene,
             "' has a fixed set of bodies, none drawn at random (--seed applies to generated "
             "scenes)");
    }
    if (!o.input_units.empty())
      fail("--input-units applies to files that store no units (--load of ",
           io::format_labels(&io::FormatCaps::units, false),
           " files that have none), not to --scene ", o.scene);
    if (!o.components.empty())
      fail("--components applies to files loaded with --load (",
           io::format_labels(&io::FormatCaps::components), "), not to --scene ", o.scene);
    // --post-newtonian eih on the real sky: its fit with the EIH term too
    if (o.post_newtonian_model == "eih" && !sp.values.count("eih"))
      for (const SceneInfo& s : scene_table())
        for (const SceneParamInfo& q : s.params)
          if (s.name == o.scene && q.key == "eih") sp.values["eih"] = 1;
    if (sp.n == 0) {
      for (const SceneInfo& s : scene_table())
        if (s.name == o.scene && s.has_n) sp.n = (k.gpu ? gpu_default_n : cpu_default_n);
    }
    l.scene = make_scene(o.scene, sp);
  }
  for (const std::string& n : l.scene.notes)
    std::fprintf(stderr, "nbody: %s\n", n.c_str());
  add_small_bodies(o, l.scene);
  // no kernel named: the fastest one accurate enough for this scene (same side, GPU or CPU)
  if (o.kernel.empty()) {
    const KernelPick c = choose_kernel(l.scene, k.gpu);
    p.kernel = c.kernel;
    l.kernel_reason = c.reason;
  }
  // a saved state restores its kernel choice where the command line names none
  if (l.loaded_run && !l.loaded_run->kernel.empty()) restore_kernel_choice(*l.loaded_run, o, l, p);
  const KernelInfo& chosen = find_kernel(p.kernel);
  // the scene's precision (double for the real sky) unless --precision or a saved state says
  if (o.precision.empty() && !l.loaded_run && l.scene.precision == Precision::Double &&
      chosen.supports_double)
    p.precision = Precision::Double;
  if (o.precision == "float" && l.scene.precision == Precision::Double)
    std::fprintf(stderr, "nbody: note: --precision float on the real sky: %s\n",
                 sky::float_cost_line());
  if (!chosen.supports_float) {
    if (o.precision == "float")
      fail("--precision float: kernel '", chosen.name, "' computes in double precision only");
    p.precision = Precision::Double;
  }
  apply_tunables(o.tunables, chosen, p);
  p.integrator =
      o.integrator.empty() ? l.scene.integrator : parse_integrator(o.integrator, "--integrator");
  // the 1PN term: --post-newtonian, --pn, or the scene's default (the real sky) unless --no-pn
  p.post_newtonian = o.post_newtonian || (l.scene.post_newtonian && !o.no_post_newtonian);
  p.pn_model = o.post_newtonian ? PnModel::Sun : l.scene.pn_model;
  if (o.post_newtonian && o.no_post_newtonian) fail("--pn and --no-pn contradict each other");
  if (!o.post_newtonian_model.empty()) {
    if (o.post_newtonian || o.no_post_newtonian)
      fail("--post-newtonian ", o.post_newtonian_model,
           " says what --pn and --no-pn say: give one");
    parse_post_newtonian(o.post_newtonian_model, p.post_newtonian, p.pn_model, "--post-newtonian");
  }
  if (l.loaded_run && !l.loaded_run->integrator.empty())
    continue_integrator(*l.loaded_run, o, l.scene.integrator, p);
  // a host-only integrator (IAS15, WHFast) or the EIH term on a kernel picked for the user: the
  // CPU's pick; IAS15 without --precision: double (its tolerance is below float's rounding)
  const IntegratorRow& integ = find_integrator(p.integrator);
  const bool eih = p.post_newtonian && p.pn_model == PnModel::EIH;
  if ((integ.needs_state || eih) && o.kernel.empty() && find_kernel(p.kernel).gpu &&
      o.tunables.empty()) {
    const KernelPick c = choose_kernel(l.scene, false);
    p.kernel = c.kernel;
    l.kernel_reason =
        c.reason + (integ.needs_state ? " (integrator " + integ.name + " runs on the host)"
                                      : " (the EIH 1PN term runs on the host)");
  }
  if (integ.needs_double && o.precision.empty() && find_kernel(p.kernel).supports_double)
    p.precision = Precision::Double;
  p.ias15_epsilon = o.ias15_epsilon;
  p.whfast_corrector = o.whfast_corrector;
  // c in the scene's units
  const UnitSystem& u = l.scene.units;
  p.speed_of_light = u.physical() ? 299792458.0 * u.time_s / u.length_m : 0.0;
  if (p.post_newtonian && !u.physical())
    fail(o.post_newtonian_model.empty() ? "--pn" : "--post-newtonian", ": scene '", l.scene.name,
         "' has no physical units (", u.name, "), so the speed of light is unknown");
  if (p.post_newtonian && p.pn_model == PnModel::Sun) check_one_dominant_body(l.scene);
  if (l.lesson) {
    // the lesson's dt and speed are in the scene's units
    const UnitSystem& su = l.scene.units;
    if (!o.dt && l.lesson->dt)
      o.dt = lesson_time(*l.lesson->dt, su, l.lesson->source + ": physics.dt");
    if (l.lesson->speed)
      l.lesson_speed = lesson_time(*l.lesson->speed, su, l.lesson->source + ": physics.speed");
  }
  l.override = {o.dt, o.softening, o.G};
  p.dt = o.dt.value_or(l.scene.dt);
  p.softening = o.softening.value_or(l.scene.softening);
  p.G = o.G.value_or(l.scene.units.G);
  validate(p);
  validate_kernel_params(p);
  check_coincident(l.scene.bodies, p.softening, o.load.empty() ? "scene " + o.scene : o.load);
  return l;
}

}  // namespace nbody::app
