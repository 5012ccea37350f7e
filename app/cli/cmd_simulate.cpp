// `nbody simulate`: run a scene without a window and print its diagnostics.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/cli/commands.hpp"
#include "app/core/launch.hpp"
#include "app/core/lesson_run.hpp"
#include "app/core/progress.hpp"
#include "sim/analysis/structure.hpp"
#include "sim/core/backend.hpp"
#include "sim/core/error.hpp"
#include "sim/core/simulation.hpp"
#include "sim/integrators/integrator.hpp"
#include "sim/io/format_table.hpp"
#include "sim/sky/ephemeris.hpp"

namespace nbody::app {
namespace {

struct SimulateOptions {
  LaunchOptions launch;
  std::optional<long long> steps;  ///< none: the scene's duration, else kDefaultSteps
  std::string duration;            ///< --duration: simulated time ("10yr"); excludes --steps
  std::optional<long long> every;  ///< none: 50, or about 20 reports in a long run
  std::string output;
  std::string output_format;
  bool list_scenes = false, list_kernels = false;
  bool no_diagnostics = false;
};

// above this N the potential energy is estimated from a sample of bodies (O(sample x N))
constexpr std::size_t kExactDiagnostics = 65536;
// run length and report interval when neither the user nor the scene gives one
constexpr long long kDefaultSteps = 200, kDefaultEvery = 50;

double norm(const std::array<double, 3>& v) {
  return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

// one group's structure in the scene's length unit:
// "galaxy 1: r10/50/90 1.52 / 8.31 / 21.4 kpc, disk thickness 0.213 kpc, v/sigma 3.41"
std::string structure_line(const GroupStructure& g, const UnitSystem& u) {
  char buf[256];
  const auto& r = g.lagrangian;  // fractions 0.1, 0.25, 0.5, 0.75, 0.9
  int len = std::snprintf(buf, sizeof buf, "%s: r10/50/90 %.3g / %.3g / %.3g %s", g.name.c_str(),
                          r[0], r[2], r[4], u.length.c_str());
  if (g.disk_bodies > 0 && len > 0 && len < static_cast<int>(sizeof buf))
    std::snprintf(buf + len, sizeof buf - static_cast<std::size_t>(len),
                  ", disk thickness %.3g %s, v/sigma %.3g", g.disk_thickness, u.length.c_str(),
                  g.v_over_sigma);
  return buf;
}

// the change over the run, per group:
// "galaxy 1 r50 4.1 -> 4.3 kpc, thickness 0.14 -> 0.16 kpc, v/sigma 3.2 -> 2.1; galaxy 2 ..."
std::string structure_summary(const std::vector<GroupStructure>& a,
                              const std::vector<GroupStructure>& b, const UnitSystem& u) {
  std::string out;
  char buf[256];
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) {
    std::snprintf(buf, sizeof buf, "%s%s r50 %.3g -> %.3g %s", i ? "; " : "", a[i].name.c_str(),
                  a[i].lagrangian[2], b[i].lagrangian[2], u.length.c_str());
    out += buf;
    if (a[i].disk_bodies > 0) {
      std::snprintf(buf, sizeof buf, ", thickness %.3g -> %.3g %s, v/sigma %.3g -> %.3g",
                    a[i].disk_thickness, b[i].disk_thickness, u.length.c_str(), a[i].v_over_sigma,
                    b[i].v_over_sigma);
      out += buf;
    }
  }
  return out;
}

void list_scenes() {
  std::printf("%-18s %-8s %s\n", "scene", "N", "description");
  for (const SceneInfo& s : scene_table()) {
    std::printf("%-18s %-8s %s\n", s.name.c_str(),
                s.has_n ? std::to_string(s.default_n).c_str() : "fixed", s.description.c_str());
    // particle masses at the default N, counted by the generator's own function
    const std::string particles = scene_particles(s.name).summary();
    if (!particles.empty()) std::printf("    particles: %s\n", particles.c_str());
    for (const SceneParamInfo& p : s.params)
      std::printf("    --param %s=%g  (%g..%g) %s\n", p.key.c_str(), p.def, p.min, p.max,
                  p.help.c_str());
  }
}

void list_kernels() {
  std::printf("%-14s %-4s %-13s %s\n", "kernel", "gpu", "precision", "description");
  for (const KernelInfo& k : kernel_table()) {
    std::string prec = k.supports_float ? "float" : "";
    if (k.supports_double) prec += prec.empty() ? "double" : ",double";
    std::printf("%-14s %-4s %-13s %s\n", k.name.c_str(), k.gpu ? "yes" : "no", prec.c_str(),
                k.description.c_str());
    for (const Tunable& t : k.tunables)
      std::printf("    %s  %s (allowed %s, default %s)\n", option_name(t.key).c_str(),
                  t.help.c_str(), t.allowed().c_str(), t.format(t.def).c_str());
  }
  std::printf("GPU: %s\n", cuda_device_summary().c_str());
}

// run length: the user's steps or simulated time (`duration` set, in the scene's unit: whole
// steps of dt, then one last step in (0, dt] that lands on the time), else the scene's duration
// (collisions: through the first pericentre and the tails), else the default
long long run_steps(const SimulateOptions& o, const Scene& scene, const SimParams& p,
                    std::FILE* log, double& duration) {
  const UnitSystem& u = scene.units;
  long long steps = o.steps.value_or(kDefaultSteps);
  if (!o.duration.empty()) {
    duration = units::parse_duration(o.duration, u, "--duration");
    const double whole = std::floor(duration / std::abs(p.dt) * (1 - 1e-12));
    if (whole > 2e9)
      fail("--duration ", o.duration, ": ", whole, " steps of dt = ", p.dt, " ", u.time,
           " are too many (at most 2e9; use a larger --dt)");
    steps = static_cast<long long>(whole) + 1;
    std::fprintf(log, "duration %s: %lld steps of dt, the last one shortened to land on it\n",
                 units::format_time(duration, u).c_str(), steps);
  } else if (!o.steps) {
    if (const RunPlan plan = plan_run(scene, p.dt); plan.steps > 0) {
      steps = plan.steps;
      std::fprintf(log, "%s\n", plan.line.c_str());
    }
  }
  return steps;
}

int simulate(const SimulateOptions& o) {
  if (o.steps && *o.steps < 0) fail("--steps must be >= 0 (got ", *o.steps, ")");
  if (o.every && *o.every < 1) fail("--every must be >= 1 (got ", *o.every, ")");
  // the output is checked before the run, so a bad -o loses no work
  std::optional<io::Format> out_format;
  if (!o.output.empty()) {
    out_format = io::format_from_extension(o.output);
    if (o.output == "-") out_format = io::Format::Csv;
    if (!o.output_format.empty()) out_format = io::parse_format(o.output_format, "--format");
    if (!out_format)
      fail("--output ", o.output, ": cannot tell the format from the name (", io::extension_help(),
           "; or give --format)");
    io::check_output(o.output, *out_format);
  }
  // with -o -, the data goes to stdout and everything else to stderr
  std::FILE* log = o.output == "-" ? stderr : stdout;
  Launch l = make_launch(o.launch);
  const std::optional<io::RunRecord> before = l.loaded_run;
  if (out_format) io::check_scene_output(l.scene, o.output, *out_format);
  SimParams p = l.params;
  if (!l.kernel_reason.empty())
    std::fprintf(log, "kernel %s: %s\n", p.kernel.c_str(), l.kernel_reason.c_str());
  const UnitSystem u = l.scene.units;
  std::fprintf(log, "scene %s: %zu bodies, units %s (length %s, mass %s, time %s), G = %.10g\n",
               l.scene.name.c_str(), l.scene.bodies.size(), u.name.c_str(), u.length.c_str(),
               u.mass.c_str(), u.time.c_str(), p.G);
  std::fprintf(log, "kernel %s (%s), integrator %s%s, dt = %g %s%s, softening = %g %s\n",
               p.kernel.c_str(), precision_name(p.precision), integrator_name(p.integrator),
               !p.post_newtonian            ? ""
               : p.pn_model == PnModel::EIH ? " + 1PN (EIH, every body)"
                                            : " + 1PN (Sun)",
               p.dt, u.time.c_str(),
               find_integrator(p.integrator).adaptive ? " (output interval; adaptive steps)" : "",
               p.softening, u.length.c_str());
  if (l.scene.epoch_jd > 0)
    std::fprintf(log, "date: JD %.6f TT (%s)\n", l.scene.epoch_jd,
                 sky::utc_string(l.scene.epoch_jd).c_str());
  std::fprintf(log, "GPU: %s\n", cuda_device_summary().c_str());
  double duration = 0;  // --duration in the scene's unit (0: none)
  const long long steps = run_steps(o, l.scene, p, log, duration);
  // about 20 reports in a long run, in multiples of the default interval
  const long long every = o.every.value_or(
      std::max(kDefaultEvery, (steps / 20 + kDefaultEvery - 1) / kDefaultEvery * kDefaultEvery));

  Simulation sim(std::move(l.scene), p);
  const std::size_t n = sim.size();
  // diagnostics: exact up to kExactDiagnostics bodies, then the potential from a sample
  const bool diag = !o.no_diagnostics;
  std::vector<std::size_t> sample;
  if (diag && n > kExactDiagnostics) {
    const std::size_t count = std::clamp<std::size_t>((std::size_t(1) << 28) / n, 16, 1024);
    sample = sample_indices(n, count);
    std::fprintf(log,
                 "N > %zu: the potential energy is estimated from %zu sampled bodies (E, dE/E0 "
                 "and 2K/|W| are estimates; --no-diagnostics skips them)\n",
                 kExactDiagnostics, sample.size());
  }
  auto diagnostics = [&]() -> Diagnostics {
    if (!diag) {
      Diagnostics d;
      for (double v : sim.bodies().x)
        if (!std::isfinite(v)) d.finite = false;
      return d;
    }
    if (sample.empty()) return sim.diagnostics(p);
    return compute_diagnostics(sim.bodies(), p.G, p.softening, &sample);
  };
  // structure of the galaxies (Lagrangian radii, disk thickness, v/sigma) at every report, per
  // group of bodies, where the scene has groups or a disk: O(N log N)
  const bool structure = diag && shows_structure(sim.scene());
  auto measure = [&] { return measure_structure(sim.bodies(), sim.scene().groups); };
  auto print_structure = [&](const std::vector<GroupStructure>& gs) {
    for (const GroupStructure& g : gs)
      std::fprintf(log, "%10s %s\n", "", structure_line(g, u).c_str());
  };
  // print in chunks of `every` steps
  p.steps_per_frame = 1;
  double e0 = 0;
  auto print = [&](const Diagnostics& d, double ms) {
    if (!diag) {
      std::fprintf(log, "%10lld %14s %10.3f\n", sim.steps_done(),
                   units::format_time(sim.time(), u).c_str(), ms);
      return;
    }
    std::fprintf(log, "%10lld %14s %16.9e %+12.4e %12.5e %12.5e %8.4f %10.3f\n", sim.steps_done(),
                 units::format_time(sim.time(), u).c_str(), d.total,
                 relative_energy_drift(e0, d.total), norm(d.momentum), norm(d.angular_momentum),
                 d.virial_ratio, ms);
  };
  if (diag)
    std::fprintf(log, "%10s %14s %16s %12s %12s %12s %8s %10s\n", "step", "time", "E", "dE/E0",
                 "|P|", "|L|", "2K/|W|", "ms/step");
  else
    std::fprintf(log, "%10s %14s %10s\n", "step", "time", "ms/step");
  const Diagnostics d0 = diagnostics();
  e0 = sample.empty() && diag ? sim.initial_energy() : d0.total;
  print(d0, 0.0);
  std::vector<GroupStructure> s0, s1;
  if (structure) {
    s0 = s1 = measure();
    print_structure(s0);
  }
  ProgressBar bar("simulate", double(steps));
  long long done = 0;
  const double t_end = sim.time() + std::copysign(duration, p.dt);  // with --duration
  while (done < steps) {
    const long long chunk = std::min(every, steps - done);
    p.steps_per_frame = static_cast<int>(chunk);
    if (duration > 0 && done + chunk == steps) {
      // the whole steps of the chunk, then the last one from where the time stands
      if (chunk > 1) {
        p.steps_per_frame = static_cast<int>(chunk - 1);
        sim.step(p);
      }
      SimParams last = p;
      last.dt = t_end - sim.time();
      last.steps_per_frame = 1;
      sim.step(last);
    } else {
      sim.step(p);
    }
    done += chunk;
    const Diagnostics d = diagnostics();
    bar.update(double(done));
    if (ProgressBar::enabled()) std::fprintf(stderr, "\r\033[K");
    print(d, sim.backend().last_step_ms());
    if (!d.finite)
      fail("the simulation produced NaN/Inf at step ", sim.steps_done(),
           " (try a smaller --dt or a larger --softening)");
    if (structure) {
      s1 = measure();
      print_structure(s1);
    }
  }
  bar.finish();
  if (structure) std::fprintf(log, "structure: %s\n", structure_summary(s0, s1, u).c_str());
  if (out_format && o.launch.process.rank != 0) {
    std::fprintf(log, "rank %d: %s is written by rank 0\n", o.launch.process.rank,
                 o.output.c_str());
  } else if (out_format) {
    io::SaveOptions so;
    so.run = run_record(sim, p, before);
    so.notice = [](const std::string& m) { std::fprintf(stderr, "nbody: note: %s\n", m.c_str()); };
    io::save(output_scene(sim, p), o.output, *out_format, so);
    std::fprintf(log, "wrote %s (%s)\n", o.output.c_str(), io::format_name(*out_format));
  }
  return 0;
}

}  // namespace

void register_simulate_command(CLI::App& app) {
  auto o = std::make_shared<SimulateOptions>();
  CLI::App* cmd =
      app.add_subcommand("simulate", "run a scene without a window, printing diagnostics");
  add_launch_options(*cmd, o->launch);
  cmd->add_option("--steps", o->steps,
                  "integrator steps (default: the scene's run length where it has one, e.g. a "
                  "collision through its first pericentre and tails; else 200)")
      ->check(CLI::Range(0LL, 2147483647LL));
  auto* duration =
      cmd->add_option("--duration", o->duration,
                      "simulated time to run, whatever the steps: a number and a unit (10yr, "
                      "365.25d, 2Myr) or a plain number in the scene's time unit; the last step "
                      "is shortened to land on it (adaptive integrators too)")
          ->check(non_empty());
  cmd->get_option("--steps")->excludes(duration);
  cmd->add_option("--every", o->every,
                  "print diagnostics every this many steps (default: 50, or about 20 reports in "
                  "a long run)")
      ->check(CLI::Range(1LL, 2147483647LL));
  auto* output =
      cmd->add_option("-o,--output", o->output,
                      "write the final state to this file ('-': CSV on standard output); units, G, "
                      "dt, softening, elapsed time, steps, kernel and integrator are recorded")
          ->check(non_empty());
  cmd->add_option("--format", o->output_format,
                  "format of --output (default: from its extension):" + io::format_help(true))
      ->check(CLI::IsMember(io::format_choices(true), CLI::ignore_case))
      ->needs(output);
  cmd->add_flag("--no-diagnostics", o->no_diagnostics,
                "skip energy, momentum and the galaxies' structure (above N = 65,536 the "
                "potential is otherwise estimated from a sample of bodies)");
  // one rank of a run of several processes, one GPU each (docs/SCALING.md)
  cmd->add_option("--world", o->launch.process.world,
                  "processes of a several-GPU run, one GPU each (start every rank with the same "
                  "options; NCCL between them)")
      ->check(CLI::Range(1, 4096))
      ->group("Several processes");
  cmd->add_option("--rank", o->launch.process.rank,
                  "this process's rank in [0, --world); it uses GPU rank modulo the devices it "
                  "sees, rank 0 writes --output")
      ->check(CLI::Range(0, 4095))
      ->group("Several processes");
  cmd->add_option("--nccl-id", o->launch.process.id,
                  "how the ranks meet: a file they all can read (rank 0 writes NCCL's id there) "
                  "or tcp:HOST:PORT (rank 0 listens on PORT of HOST)")
      ->check(non_empty())
      ->group("Several processes");
  cmd->add_flag("--list-scenes", o->list_scenes, "list the preset scenes and their parameters");
  cmd->add_flag("--list-kernels", o->list_kernels, "list the force kernels and their tunables");
  cmd->callback([o, cmd]() {
    if (o->list_scenes) return list_scenes();
    if (o->list_kernels) return list_kernels();
    // a launch option the headless run has no use for
    if (cmd->count("--steps-per-frame") > 0)
      fail(
          "--steps-per-frame applies to the window and render; simulate runs --steps steps "
          "(--every: how often it reports)");
    if (!o->launch.lesson.empty()) {
      if (!o->duration.empty())
        fail(
            "--duration does not apply to --lesson (the lesson's own duration runs; --steps "
            "shortens it)");
      // a lesson plays its events between the steps (app/core/lesson_run.hpp)
      if (o->no_diagnostics) fail("--no-diagnostics does not apply to --lesson");
      run_lesson({o->launch, o->steps, o->every, o->output, o->output_format});
      return;
    }
    const ProcessGroup& g = o->launch.process;
    if (g.world > 1 && g.id.empty())
      fail("--world ", g.world,
           ": give --nccl-id (a file path or tcp:HOST:PORT) so the ranks meet");
    if (g.world == 1 && (g.rank != 0 || !g.id.empty()))
      fail("--rank and --nccl-id apply to a run of several processes (--world >= 2)");
    if (g.rank >= g.world) fail("--rank ", g.rank, ": must be in [0, ", g.world - 1, "]");
    simulate(*o);
  });
}

int run_headless_default(const LaunchOptions& launch) {
  if (!launch.lesson.empty()) return run_lesson({launch, {}, {}, {}, {}});
  SimulateOptions o;
  o.launch = launch;
  return simulate(o);
}

}  // namespace nbody::app
