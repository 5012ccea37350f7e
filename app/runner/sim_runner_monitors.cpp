// The simulation thread's monitors (SimRunner's, split from sim_runner.cpp): the health checks
// (energy, NaN/Inf) and the groups' structure in the background, the activity map, the kernel's
// accuracy against the direct sum, a tree kernel's cells, the map's bounds.
#include "app/runner/sim_runner.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fstream>
#include <iterator>
#include <sstream>
#include <utility>

#include "app/window/gui_logic.hpp"
#include "sim/core/backend.hpp"
#include "sim/core/error.hpp"
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

SimRunner::SimRunner(Scene scene, const SimParams& params, bool threaded,
                     const PhysicsOverride& override)
    : threaded_(threaded) {
  active_ = params;
  start_scene(std::move(scene), override, "");
  if (!last_error_.empty()) throw Error(last_error_);
  std::unique_lock lk(mutex_);
  fill_back(controls_, true);
  publish(lk);
  lk.unlock();
  if (threaded_) thread_ = std::thread([this] { loop(); });
}

SimRunner::~SimRunner() {
  {
    std::lock_guard lk(mutex_);
    quit_ = true;
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
  if (diag_future_.valid()) diag_future_.wait();
  if (structure_future_.valid()) structure_future_.wait();
  if (sim_) sim_->backend().set_device_output({});
}

void SimRunner::check_health(const SimControls& c, bool force) {
  poll_structure();
  // a finished energy computation
  if (diag_future_.valid() &&
      diag_future_.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
    Diagnostics d = diag_future_.get();
    diag_cost_ = now_seconds() - diag_started_;
    if (!have_e0_) {
      e0_ = d.total;
      have_e0_ = true;
    }
    diag_ = d;
    if (!std::isfinite(d.total) || !d.finite) {
      if (!health_paused_) {
        health_paused_ = true;
        std::ostringstream os;
        os << "paused: the total energy is not finite (E = " << d.total
           << ") at t = " << units::format_time(sim_->time(), scene_->units)
           << "; G, dt or the softening may be extreme. Press Reset.";
        pause_reason_ = os.str();
        set_error(pause_reason_);
      }
    } else {
      drift_local_.push_back(static_cast<float>(std::abs(relative_energy_drift(e0_, d.total))));
    }
  }
  if (!c.health && (have_e0_ || sim_->size() > kMaxDiagnosticsN)) return;
  double now = now_seconds();
  if (!force && now - last_health_ < 0.5 && have_e0_) return;
  last_health_ = now;
  // NaN/Inf positions or velocities: pause and say which body
  const Bodies& b = sim_->bodies();
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (!std::isfinite(b.x[i]) || !std::isfinite(b.y[i]) || !std::isfinite(b.z[i]) ||
        !std::isfinite(b.vx[i]) || !std::isfinite(b.vy[i]) || !std::isfinite(b.vz[i])) {
      if (!health_paused_) {
        health_paused_ = true;
        std::ostringstream os;
        os << "paused: body " << i;
        if (i < b.name.size() && !b.name[i].empty()) os << " (" << b.name[i] << ")";
        os << " has a NaN/Inf position or velocity at t = "
           << units::format_time(sim_->time(), scene_->units)
           << " (dt too large or softening too small?). Press Reset.";
        pause_reason_ = os.str();
        set_error(pause_reason_);
      }
      return;
    }
  }
  if (!diag_future_.valid() && b.size() <= kMaxDiagnosticsN &&
      (!have_e0_ || now - diag_started_ >= 8 * diag_cost_)) {
    diag_started_ = now;
    diag_future_ = std::async(std::launch::async, [snapshot = b, G = active_params(c).G,
                                                   eps = active_params(c).softening] {
      return compute_diagnostics(snapshot, G, eps);
    });
  }
  start_structure();
}

void SimRunner::poll_structure() {
  if (!structure_future_.valid() ||
      structure_future_.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
    return;
  try {
    StructureSample s = structure_future_.get();
    structure_local_.push_back(s);
    structure_ = std::move(s);
  } catch (const std::exception& e) {
    set_error(std::string("structure diagnostics: ") + e.what());
  }
}

void SimRunner::start_structure() {
  // at most twice a second, once per state (not again while paused), one at a time, off this
  // thread: O(N log N)
  if (!shows_structure_ || structure_future_.valid() || structure_steps_ == sim_->steps_done())
    return;
  const double now = now_seconds();
  if (structure_steps_ >= 0 && now - last_structure_ < 0.5) return;
  last_structure_ = now;
  structure_steps_ = sim_->steps_done();
  auto bodies = std::make_shared<Bodies>();
  auto groups = std::make_shared<std::vector<BodyGroup>>();
  structure_copy(sim_->bodies(), scene_->groups, *bodies, *groups);
  structure_future_ =
      std::async(std::launch::async, [bodies, groups, serial = reset_serial_, t = sim_->time()] {
        StructureSample s;
        s.reset_serial = serial;
        s.time = t;
        s.groups = measure_structure(*bodies, *groups);
        return s;
      });
}

void SimRunner::forget_structure() {
  // a measurement of the previous scene or run is not shown for the new one
  if (structure_future_.valid()) structure_future_.wait();
  structure_future_ = {};
  structure_.reset();
  structure_local_.clear();
  structure_steps_ = -1;
}

void SimRunner::update_map(const SimControls& c, bool force) {
  if (!c.map_enabled) return;
  double now = now_seconds();
  if (!force && !map_fit_pending_ && now - last_map_ < 0.1) return;
  last_map_ = now;
  ActivityMapParams p = c.map;
  // bounds: fitted about once a second when following, else the panel's
  bool refit =
      map_fit_pending_ || (c.map_follow && now - last_fit_ > 1.0) || p.plane != map_params_.plane;
  if (refit) {
    fit_map_bounds(sim_->bodies(), p);
    last_fit_ = now;
    map_fit_pending_ = false;
  } else if (c.map_follow) {
    p.u_min = map_params_.u_min;
    p.u_max = map_params_.u_max;
    p.v_min = map_params_.v_min;
    p.v_max = map_params_.v_max;
  }
  try {
    validate(p);
    if (!sim_->backend().activity_map(p, map_)) map_ = compute_activity_map_cpu(sim_->bodies(), p);
    map_params_ = p;
    ++map_version_;
  } catch (const std::exception& e) {
    set_error(std::string("activity map: ") + e.what());
  }
}

void SimRunner::forget_kernel_views() {
  // a report or tree of the previous kernel or scene is not shown for the new one
  accuracy_.reset();
  ++probe_serial_;
  last_accuracy_ = 0;
  has_tree_ = false;
  tree_.clear();
  ++tree_version_;
}

void SimRunner::update_accuracy(const SimControls& c) {
  // a finished check, if it belongs to the current kernel and scene
  if (auto r = probe_.poll(); r && accuracy_serial_ == probe_serial_) {
    accuracy_ = *r;
    accuracy_wall_ = now_seconds();
  }
  if (!c.accuracy || sim_->size() < 2) return;
  // new tunables (theta, leaf size, ...): the old report no longer applies; check again now
  const SimParams p = active_params(c);
  if (p.tunables != accuracy_tunables_) {
    accuracy_tunables_ = p.tunables;
    accuracy_.reset();
    ++probe_serial_;
    last_accuracy_ = 0;
  }
  if (probe_.busy()) return;
  // every 3 s, or every 20 steps' time when a step is slow (the check costs one force
  // evaluation here and a sampled direct sum on a worker thread)
  const double now = now_seconds();
  const double every = std::max(3.0, 20.0 * sim_->backend().last_step_ms() * 1e-3);
  if (last_accuracy_ > 0 && now - last_accuracy_ < every) return;
  last_accuracy_ = now;
  try {
    std::vector<double> ax, ay, az;
    sim_->backend().compute_accelerations(p, ax, ay, az);
    accuracy_serial_ = probe_serial_;
    probe_.start(sim_->bodies(), ax, ay, az, p.G, p.softening, 256, sim_->kernel(), sim_->time());
  } catch (const std::exception& e) {
    set_error(std::string("accuracy check: ") + e.what());
  }
}

void SimRunner::update_tree(const SimControls& c) {
  if (!c.tree_boxes) return;
  const double now = now_seconds();
  if (now - last_tree_ < 0.25) return;
  last_tree_ = now;
  has_tree_ = sim_->backend().tree_cells(std::clamp(c.tree_depth, 0, 10), tree_);
  // at most 100,000 boxes (2.4 million line vertices)
  if (tree_.size() > 100000) tree_.resize(100000);
  ++tree_version_;
}

}  // namespace nbody::app
