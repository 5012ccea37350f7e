#include "app/core/lesson_run.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "sim/core/error.hpp"
#include "sim/core/simulation.hpp"
#include "sim/edit/collisions.hpp"
#include "sim/io/format_table.hpp"
#include "sim/lesson/lesson.hpp"

namespace nbody::app {

namespace {

// "[   1.0000 yr] caption: ..." : the event's log line with its time
void log_action(std::FILE* log, const LessonAction& a, const UnitSystem& u) {
  const char* what = "";
  switch (a.kind) {
    case LessonAction::Kind::Edit:
      what = "edit";
      break;
    case LessonAction::Kind::Collisions:
      what = "collisions";
      break;
    case LessonAction::Kind::Pause:
      what = "pause (the window pauses; this run goes on)";
      break;
    case LessonAction::Kind::Speed:
      what = "speed";
      break;
    case LessonAction::Kind::Follow:
      what = "follow";
      break;
    case LessonAction::Kind::Caption:
      what = "caption";
      break;
    case LessonAction::Kind::End:
      what = "end";
      break;
    case LessonAction::Kind::Error:
      what = "error";
      break;
  }
  std::fprintf(log, "[%14s] %s: %s\n", units::format_time(a.time, u).c_str(), what, a.text.c_str());
}

// merges the touching bodies of `sim` (as Edit::Kind::Merge does); logs each merger
long long collide(Simulation& sim, const MergeRule& rule, double softening, std::FILE* log) {
  const std::vector<MergeEvent> events = sim.merge_touching(rule, softening);
  for (const MergeEvent& m : events) {
    std::string absorbed;
    for (const std::string& a : m.absorbed)
      absorbed += (absorbed.empty() ? "" : ", ") + (a.empty() ? std::string("a body") : a);
    std::fprintf(log, "[%14s] collision: %s absorbed %s\n",
                 units::format_time(sim.time(), sim.scene().units).c_str(),
                 m.survivor.empty() ? "a body" : m.survivor.c_str(), absorbed.c_str());
  }
  return static_cast<long long>(events.size());
}

double norm3(const std::array<double, 3>& v) {
  return std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
}

}  // namespace

int run_lesson(const LessonRunOptions& opt) {
  // the output is checked before the run, so a bad -o loses no work
  std::optional<io::Format> out_format;
  if (!opt.output.empty()) {
    out_format = opt.output == "-" ? io::Format::Csv : io::format_from_extension(opt.output);
    if (!opt.output_format.empty()) out_format = io::parse_format(opt.output_format, "--format");
    if (!out_format)
      fail("--output ", opt.output, ": cannot tell the format from the name (",
           io::extension_help(), "; or give --format)");
    io::check_output(opt.output, *out_format);
  }
  std::FILE* log = opt.output == "-" ? stderr : stdout;
  Launch l = make_launch(opt.launch);
  const Lesson& lesson = *l.lesson;
  SimParams p = l.params;
  const UnitSystem u = l.scene.units;
  LessonPlayer player(lesson, u);
  const double end = player.end_time(l.scene);
  if (!(end > 0))
    fail(lesson.source,
         ": the lesson never ends: give an \"end\" event or a \"duration\" (the scene has none)");
  std::fprintf(log, "lesson: %s (%s)\n", lesson.title.c_str(), lesson.source.c_str());
  std::fprintf(log, "scene %s: %zu bodies, units %s, kernel %s (%s), integrator %s, dt = %g %s\n",
               l.scene.name.c_str(), l.scene.bodies.size(), u.name.c_str(), p.kernel.c_str(),
               precision_name(p.precision), integrator_name(p.integrator), p.dt, u.time.c_str());
  std::fprintf(log,
               "events happen at the first step boundary at or after their time; the lesson "
               "ends at %s\n",
               units::format_time(end, u).c_str());
  Simulation sim(std::move(l.scene), p);
  const long long cap = opt.steps.value_or(std::numeric_limits<long long>::max());
  const long long every =
      opt.every.value_or(std::max(1LL, static_cast<long long>(std::ceil(end / p.dt / 20.0))));
  bool collisions = sim.scene().merge_on_touch;  // a scene may start with them on
  MergeRule rule;
  long long merges = 0, next_report = 0;
  std::fprintf(log, "%10s %14s %8s %16s %12s\n", "step", "time", "N", "E", "|P|");
  auto report = [&] {
    const Diagnostics d = sim.diagnostics(p);
    std::fprintf(log, "%10lld %14s %8zu %16.9e %12.5e\n", sim.steps_done(),
                 units::format_time(sim.time(), u).c_str(), sim.size(), d.total, norm3(d.momentum));
    if (!d.finite)
      fail("the lesson's run produced NaN/Inf at step ", sim.steps_done(),
           " (try a smaller dt or a larger softening)");
    next_report = sim.steps_done() + every;
  };
  report();
  bool ended = false;
  while (!ended) {
    // the events now due, applied before the next step
    while (const std::optional<LessonAction> due =
               player.next_due(sim.time(), sim.current(), p.G)) {
      const LessonAction& a = *due;
      log_action(log, a, u);
      switch (a.kind) {
        case LessonAction::Kind::Edit:
          sim.apply_edit(a.edit);
          break;
        case LessonAction::Kind::Collisions:
          collisions = a.on;
          rule.use_softening = !(a.density > 0);
          if (a.density > 0) rule.density_kg_m3 = a.density;
          break;
        case LessonAction::Kind::End:
          ended = true;
          break;
        case LessonAction::Kind::Error:
          fail(a.text);
        default:
          break;  // pause, speed, follow, caption: the window's
      }
    }
    if (ended || sim.time() >= end - 1e-9 * end || sim.steps_done() >= cap) break;
    // steps up to the next event, the end, the next report or the cap (one at a time while
    // collisions are on: touching bodies merge after every step)
    const double target = std::min(player.next_time().value_or(end), end);
    long long k = static_cast<long long>(std::ceil((target - sim.time()) / p.dt - 1e-9));
    k = std::clamp(k, 1LL, std::max(1LL, next_report - sim.steps_done()));
    k = std::min({k, cap - sim.steps_done(), collisions ? 1LL : k, 1000000LL});
    p.steps_per_frame = static_cast<int>(k);
    sim.step(p);
    if (collisions) merges += collide(sim, rule, p.softening, log);
    if (sim.steps_done() >= next_report) report();
  }
  if (sim.steps_done() + every != next_report) report();
  if (merges > 0) std::fprintf(log, "mergers: %lld\n", merges);
  if (out_format) {
    io::SaveOptions so;
    so.run = run_record(sim, p, l.loaded_run);
    so.notice = [](const std::string& m) { std::fprintf(stderr, "nbody: note: %s\n", m.c_str()); };
    Scene out = sim.current();
    out.dt = p.dt;
    out.softening = p.softening;
    out.units.G = p.G;
    io::save(out, opt.output, *out_format, so);
    std::fprintf(log, "wrote %s (%s)\n", opt.output.c_str(), io::format_name(*out_format));
  }
  return 0;
}

}  // namespace nbody::app
