// `nbody simulate`: run a scene without a window and print its diagnostics.
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>

#include "app/commands.hpp"
#include "app/launch.hpp"
#include "sim/backend.hpp"
#include "sim/error.hpp"
#include "sim/simulation.hpp"
#include "sim/sky/ephemeris.hpp"

namespace nbody::app {
namespace {

struct SimulateOptions {
  LaunchOptions launch;
  long long steps = 200;
  long long every = 50;
  std::string output;
  std::string output_format;
  bool list_scenes = false, list_kernels = false;
};

double norm(const std::array<double, 3>& v) {
  return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

void list_scenes() {
  std::printf("%-18s %-8s %s\n", "scene", "N", "description");
  for (const SceneInfo& s : scene_table()) {
    std::printf("%-18s %-8s %s\n", s.name.c_str(),
                s.has_n ? std::to_string(s.default_n).c_str() : "fixed", s.description.c_str());
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

int simulate(const SimulateOptions& o) {
  if (o.steps < 0) fail("--steps must be >= 0 (got ", o.steps, ")");
  if (o.every < 1) fail("--every must be >= 1 (got ", o.every, ")");
  Launch l = make_launch(o.launch);
  SimParams p = l.params;
  const UnitSystem u = l.scene.units;
  std::printf("scene %s: %zu bodies, units %s (length %s, mass %s, time %s), G = %.10g\n",
              l.scene.name.c_str(), l.scene.bodies.size(), u.name.c_str(), u.length.c_str(),
              u.mass.c_str(), u.time.c_str(), p.G);
  std::printf("kernel %s (%s), integrator %s%s, dt = %g %s, softening = %g %s\n", p.kernel.c_str(),
              precision_name(p.precision), integrator_name(p.integrator),
              p.post_newtonian ? " + 1PN" : "", p.dt, u.time.c_str(), p.softening,
              u.length.c_str());
  if (l.scene.epoch_jd > 0)
    std::printf("date: JD %.6f TT (%s)\n", l.scene.epoch_jd,
                sky::utc_string(l.scene.epoch_jd).c_str());
  std::printf("GPU: %s\n", cuda_device_summary().c_str());

  Simulation sim(std::move(l.scene), p);
  // print in chunks of `every` steps
  p.steps_per_frame = 1;
  auto print = [&](const Diagnostics& d, double ms) {
    std::printf("%10lld %14s %16.9e %+12.4e %12.5e %12.5e %8.4f %10.3f\n", sim.steps_done(),
                units::format_time(sim.time(), u).c_str(), d.total,
                relative_energy_drift(sim.initial_energy(), d.total), norm(d.momentum),
                norm(d.angular_momentum), d.virial_ratio, ms);
  };
  std::printf("%10s %14s %16s %12s %12s %12s %8s %10s\n", "step", "time", "E", "dE/E0", "|P|",
              "|L|", "2K/|W|", "ms/step");
  print(sim.diagnostics(p), 0.0);
  long long done = 0;
  while (done < o.steps) {
    const long long chunk = std::min(o.every, o.steps - done);
    p.steps_per_frame = static_cast<int>(chunk);
    sim.step(p);
    done += chunk;
    const Diagnostics d = sim.diagnostics(p);
    print(d, sim.backend().last_step_ms());
    if (!d.finite)
      fail("the simulation produced NaN/Inf at step ", sim.steps_done(),
           " (try a smaller --dt or a larger --softening)");
  }
  if (!o.output.empty()) {
    Scene out = sim.scene();
    out.bodies = sim.bodies();
    // the format from --format, else from the extension (.csv, .bin, .tipsy)
    std::optional<io::Format> f = io::format_from_extension(o.output);
    if (!o.output_format.empty()) f = io::parse_format(o.output_format, "--format");
    if (!f) fail("--output ", o.output, ": unknown extension, give --format");
    io::save(out, o.output, *f);
    std::printf("wrote %s (%s)\n", o.output.c_str(), io::format_name(*f));
  }
  return 0;
}

}  // namespace

void register_simulate_command(CLI::App& app) {
  auto o = std::make_shared<SimulateOptions>();
  CLI::App* cmd =
      app.add_subcommand("simulate", "run a scene without a window, printing diagnostics");
  add_launch_options(*cmd, o->launch);
  cmd->add_option("--steps", o->steps, "integrator steps")->capture_default_str();
  cmd->add_option("--every", o->every, "print diagnostics every this many steps")
      ->capture_default_str();
  cmd->add_option("-o,--output", o->output, "write the final state to this file");
  cmd->add_option("--format", o->output_format, "format of --output (default: from its extension)");
  cmd->add_flag("--list-scenes", o->list_scenes, "list the preset scenes and their parameters");
  cmd->add_flag("--list-kernels", o->list_kernels, "list the force kernels and their tunables");
  cmd->callback([o]() {
    if (o->list_scenes) return list_scenes();
    if (o->list_kernels) return list_kernels();
    simulate(*o);
  });
}

int run_headless_default(const LaunchOptions& launch) {
  SimulateOptions o;
  o.launch = launch;
  return simulate(o);
}

}  // namespace nbody::app
