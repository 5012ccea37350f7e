// The simulation thread's monitors (app/runner/monitors.hpp): health, structure, activity map,
// accuracy, tree cells and the kernel comparison, each writing its part of the state in place.
#include "app/runner/monitors.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <sstream>
#include <utility>

#include "app/runner/sim_runner.hpp"
#include "sim/core/backend.hpp"
#include "sim/core/units.hpp"

namespace nbody::app {

namespace {

// the largest N for which the O(N²) energy check runs in the background
constexpr std::size_t kMaxDiagnosticsN = 262144;
// the structure is measured on at most this many bodies (every k-th body of each group above)
constexpr std::size_t kMaxStructureN = 262144;

// a copy of the bodies and groups for the structure measurement: all bodies up to
// kMaxStructureN, else every k-th body of each group with its mass times k (so the mass
// fractions of the Lagrangian radii stay those of the whole group)
void structure_copy(const Bodies& b, const std::vector<BodyGroup>& groups, Bodies& out,
                    std::vector<BodyGroup>& out_groups) {
  const std::size_t n = b.size();
  const std::size_t k = std::max<std::size_t>(1, (n + kMaxStructureN - 1) / kMaxStructureN);
  out.reserve(n / k + groups.size() + 1);
  auto take = [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < std::min(end, n); i += k)
      out.add(b.x[i], b.y[i], b.z[i], b.vx[i], b.vy[i], b.vz[i], b.m[i] * static_cast<double>(k),
              b.component[i]);
  };
  if (groups.empty()) take(0, n);
  for (const BodyGroup& g : groups) {
    BodyGroup h = g;
    h.begin = out.size();
    take(g.begin, g.end);
    h.end = out.size();
    out_groups.push_back(h);
  }
}

float percentile(std::vector<float> v, float p) {
  if (v.empty()) return 0;
  auto k = std::min(v.size() - 1, static_cast<std::size_t>(p * static_cast<float>(v.size())));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k];
}

template <class T>
bool ready(const std::future<T>& f) {
  return f.valid() && f.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
}

// pauses the simulation with `why` (once)
void health_pause(SimState& s, const std::string& why) {
  if (s.health_paused) return;
  s.health_paused = true;
  s.pause_reason = why;
  s.report_error(why);
}

}  // namespace

void SimRunner::fit_map_bounds(const Bodies& b, ActivityMapParams& p) {
  int a = p.plane == MapPlane::YZ ? 1 : 0;
  int c = p.plane == MapPlane::XY ? 1 : 2;
  const std::vector<double>* axis[3] = {&b.x, &b.y, &b.z};
  std::size_t n = b.size();
  if (n == 0) return;
  std::vector<float> u, v, r;
  std::size_t every = std::max<std::size_t>(1, n / 20000);
  for (std::size_t i = 0; i < n; i += every) {
    double x = (*axis[a])[i], y = (*axis[c])[i];
    if (!std::isfinite(x) || !std::isfinite(y)) continue;
    u.push_back(static_cast<float>(x));
    v.push_back(static_cast<float>(y));
  }
  if (u.empty()) return;
  float cu = percentile(u, 0.5f), cv = percentile(v, 0.5f);
  for (std::size_t i = 0; i < u.size(); ++i)
    r.push_back(std::max(std::abs(u[i] - cu), std::abs(v[i] - cv)));
  float h = std::max(percentile(r, n <= 64 ? 1.0f : 0.9f) * 1.1f, 1e-6f);
  p.u_min = cu - h;
  p.u_max = cu + h;
  p.v_min = cv - h;
  p.v_max = cv + h;
}

// health -------------------------------------------------------------------------------------

HealthMonitor::~HealthMonitor() {
  if (job_.valid()) job_.wait();
}

void HealthMonitor::update(const MonitorContext& ctx) {
  SimState& s = ctx.state;
  Simulation& sim = ctx.sim;
  // a finished energy computation
  if (ready(job_)) {
    Diagnostics d = job_.get();
    cost_ = now_seconds() - started_;
    if (!have_e0_) {
      s.e0 = d.total;
      have_e0_ = true;
    }
    s.diag = d;
    if (!std::isfinite(d.total) || !d.finite) {
      std::ostringstream os;
      os << "paused: the total energy is not finite (E = " << d.total
         << ") at t = " << units::format_time(sim.time(), ctx.scene.units)
         << "; G, dt or the softening may be extreme. Press Reset.";
      health_pause(s, os.str());
    } else {
      ctx.drift.push_back(static_cast<float>(std::abs(relative_energy_drift(s.e0, d.total))));
    }
  }
  if (!ctx.controls.health && (have_e0_ || sim.size() > kMaxDiagnosticsN)) return;
  const double now = now_seconds();
  if (now - last_ < 0.5 && have_e0_) return;
  last_ = now;
  // NaN/Inf positions or velocities: pause and say which body
  const Bodies& b = sim.bodies();
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (!std::isfinite(b.x[i]) || !std::isfinite(b.y[i]) || !std::isfinite(b.z[i]) ||
        !std::isfinite(b.vx[i]) || !std::isfinite(b.vy[i]) || !std::isfinite(b.vz[i])) {
      std::ostringstream os;
      os << "paused: body " << i;
      if (i < b.name.size() && !b.name[i].empty()) os << " (" << b.name[i] << ")";
      os << " has a NaN/Inf position or velocity at t = "
         << units::format_time(sim.time(), ctx.scene.units)
         << " (dt too large or softening too small?). Press Reset.";
      health_pause(s, os.str());
      return;
    }
  }
  if (!job_.valid() && b.size() <= kMaxDiagnosticsN && (!have_e0_ || now - started_ >= 8 * cost_)) {
    started_ = now;
    job_ = std::async(std::launch::async,
                      [snapshot = b, G = ctx.params.G, eps = ctx.params.softening] {
                        return compute_diagnostics(snapshot, G, eps);
                      });
  }
}

void HealthMonitor::forget(Forget what, SimState& s) {
  if (what == Forget::Kernel) return;
  if (job_.valid()) job_.wait();
  job_ = {};
  have_e0_ = false;
  s.diag.reset();
  if (what == Forget::Bodies) return;  // an edit does not end a health pause
  s.health_paused = false;
  s.pause_reason.clear();
}

// structure ----------------------------------------------------------------------------------

StructureMonitor::~StructureMonitor() {
  if (job_.valid()) job_.wait();
}

void StructureMonitor::poll(const MonitorContext& ctx) {
  if (!ready(job_)) return;
  try {
    StructureSample sample = job_.get();
    ctx.structure.push_back(sample);
    ctx.state.structure = std::move(sample);
  } catch (const std::exception& e) {
    ctx.state.report_error(std::string("structure diagnostics: ") + e.what());
  }
}

void StructureMonitor::update(const MonitorContext& ctx) {
  poll(ctx);
  // with the health checks, at most twice a second, once per state (not again while paused),
  // one at a time, off this thread: O(N log N)
  const SimState& s = ctx.state;
  Simulation& sim = ctx.sim;
  if (!ctx.controls.health || s.health_paused || !s.shows_structure || job_.valid() ||
      steps_ == sim.steps_done())
    return;
  const double now = now_seconds();
  if (steps_ >= 0 && now - last_ < 0.5) return;
  last_ = now;
  steps_ = sim.steps_done();
  auto bodies = std::make_shared<Bodies>();
  auto groups = std::make_shared<std::vector<BodyGroup>>();
  structure_copy(sim.bodies(), ctx.scene.groups, *bodies, *groups);
  job_ = std::async(std::launch::async, [bodies, groups, serial = s.reset_serial, t = sim.time()] {
    StructureSample sample;
    sample.reset_serial = serial;
    sample.time = t;
    sample.groups = measure_structure(*bodies, *groups);
    return sample;
  });
}

void StructureMonitor::forget(Forget what, SimState& s) {
  if (what == Forget::Kernel) return;
  // a measurement of the previous scene or run is not shown for the new one
  if (job_.valid()) job_.wait();
  job_ = {};
  s.structure.reset();
  steps_ = -1;
}

// activity map -------------------------------------------------------------------------------

void MapMonitor::update(const MonitorContext& ctx) {
  const SimControls& c = ctx.controls;
  SimState& s = ctx.state;
  if (!c.map_enabled) return;
  // a new size, plane or scale is drawn at once (also while paused)
  const bool changed = !s.map || s.map_params.size != c.map.size ||
                       s.map_params.plane != c.map.plane || s.map_params.scale != c.map.scale;
  const double now = now_seconds();
  if (!changed && !fit_pending_ && now - last_ < 0.1) return;
  last_ = now;
  ActivityMapParams p = c.map;
  // bounds: fitted about once a second when following, else the panel's
  const bool refit =
      fit_pending_ || (c.map_follow && now - last_fit_ > 1.0) || p.plane != s.map_params.plane;
  if (refit) {
    SimRunner::fit_map_bounds(ctx.sim.bodies(), p);
    last_fit_ = now;
    fit_pending_ = false;
  } else if (c.map_follow) {
    p.u_min = s.map_params.u_min;
    p.u_max = s.map_params.u_max;
    p.v_min = s.map_params.v_min;
    p.v_max = s.map_params.v_max;
  }
  try {
    validate(p);
    auto map = std::make_shared<ActivityMap>();
    if (!ctx.sim.backend().activity_map(p, *map))
      *map = compute_activity_map_cpu(ctx.sim.bodies(), p);
    s.map = std::move(map);
    s.map_params = p;
    ++s.map_version;
  } catch (const std::exception& e) {
    s.report_error(std::string("activity map: ") + e.what());
  }
}

void MapMonitor::forget(Forget what, SimState& s) {
  if (what == Forget::Kernel || what == Forget::Bodies) return;
  fit_pending_ = true;
  if (what == Forget::Scene) s.map.reset();
}

// accuracy -----------------------------------------------------------------------------------

void AccuracyMonitor::update(const MonitorContext& ctx) {
  SimState& s = ctx.state;
  Simulation& sim = ctx.sim;
  // a finished check, if it belongs to the current kernel and scene
  if (auto r = probe_.poll(); r && started_serial_ == serial_) {
    s.accuracy = *r;
    s.accuracy_wall = now_seconds();
  }
  if (!ctx.controls.accuracy || sim.size() < 2) return;
  // new tunables (theta, leaf size, ...): the old report no longer applies; check again now
  const SimParams& p = ctx.params;
  if (p.tunables != tunables_) {
    tunables_ = p.tunables;
    forget(Forget::Kernel, s);
  }
  if (probe_.busy()) return;
  // every 3 s, or every 20 steps' time when a step is slow (the check costs one force
  // evaluation here and a sampled direct sum on a worker thread)
  const double now = now_seconds();
  const double every = std::max(3.0, 20.0 * sim.backend().last_step_ms() * 1e-3);
  if (last_ > 0 && now - last_ < every) return;
  last_ = now;
  try {
    std::vector<double> ax, ay, az;
    sim.backend().compute_accelerations(p, ax, ay, az);
    started_serial_ = serial_;
    probe_.start(sim.bodies(), ax, ay, az, p.G, p.softening, 256, sim.kernel(), sim.time());
  } catch (const std::exception& e) {
    s.report_error(std::string("accuracy check: ") + e.what());
  }
}

void AccuracyMonitor::forget(Forget what, SimState& s) {
  // a report of the previous kernel or scene is not shown for the new one
  if (what == Forget::Reset) return;
  s.accuracy.reset();
  ++serial_;
  last_ = 0;
}

// tree cells ---------------------------------------------------------------------------------

void TreeMonitor::update(const MonitorContext& ctx) {
  if (!ctx.controls.tree_boxes) return;
  const double now = now_seconds();
  if (now - last_ < 0.25) return;
  last_ = now;
  SimState& s = ctx.state;
  auto cells = std::make_shared<std::vector<TreeCell>>();
  s.has_tree = ctx.sim.backend().tree_cells(std::clamp(ctx.controls.tree_depth, 0, 10), *cells);
  // at most 100,000 boxes (2.4 million line vertices)
  if (cells->size() > 100000) cells->resize(100000);
  s.tree = std::move(cells);
  ++s.tree_version;
}

void TreeMonitor::forget(Forget what, SimState& s) {
  // the tree of the previous kernel or scene is not shown for the new one
  if (what == Forget::Reset) return;
  s.has_tree = false;
  s.tree.reset();
  ++s.tree_version;
}

// kernel comparison --------------------------------------------------------------------------

void CompareMonitor::start(const Bodies& bodies, const SimParams& params,
                           std::vector<CompareEntry> entries, SimState& s) {
  if (compare_) return;
  s.compare_results.clear();
  if (entries.empty()) entries = compare_entries(cuda_available());
  compare_ = std::make_unique<KernelComparison>(bodies, params, std::move(entries));
  s.comparing = true;
  s.compare_status = "comparing: " + compare_->status();
}

void CompareMonitor::update(const MonitorContext& ctx) {
  if (!compare_) return;
  // one entry per call, on the comparison's own copy of the bodies
  SimState& s = ctx.state;
  compare_->run_next();
  s.compare_results = compare_->results();
  s.compare_status = compare_->done() ? std::string() : "comparing: " + compare_->status();
  if (!compare_->done()) return;
  compare_.reset();
  s.comparing = false;
  s.report_message("comparison done: " + std::to_string(s.compare_results.size()) +
                   " kernels and variants on " + std::to_string(ctx.sim.size()) + " bodies");
}

void CompareMonitor::forget(Forget what, SimState& s) {
  if (what != Forget::Scene) return;
  compare_.reset();
  s.comparing = false;
  s.compare_status.clear();
}

}  // namespace nbody::app
