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

double now_seconds() {
  using clock = std::chrono::steady_clock;
  return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

double seconds_since_process_start() {
  // field 22 of /proc/self/stat: start time in clock ticks after boot; the command name (field
  // 2) is in parentheses and may hold spaces, so count from its closing parenthesis
  std::ifstream stat("/proc/self/stat");
  std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
  const std::size_t close = text.rfind(')');
  std::ifstream uptime_file("/proc/uptime");
  double uptime = -1;
  if (close == std::string::npos || !(uptime_file >> uptime)) return -1;
  std::istringstream rest(text.substr(close + 1));
  std::string field;
  for (int i = 3; i <= 22 && rest >> field; ++i)
    if (i == 22) {
      const long ticks = sysconf(_SC_CLK_TCK);
      if (ticks <= 0) return -1;
      return uptime - std::stod(field) / static_cast<double>(ticks);
    }
  return -1;
}

SimParams params_for_kernel(const SimParams& p, const std::string& kernel) {
  SimParams q = p;
  const KernelInfo& k = find_kernel(kernel);
  q.kernel = k.name;
  // the new kernel starts from its own defaults
  for (const Tunable& t : k.tunables)
    q.tunables.erase(t.key);
  if (!k.supports_float) q.precision = Precision::Double;
  if (!k.supports_double) q.precision = Precision::Float;
  return q;
}

std::vector<std::size_t> inspected(const SimControls& c) {
  std::vector<std::size_t> out;
  for (const auto* list : {&c.pinned, &c.selection})
    for (std::size_t i : *list)
      if (out.size() < 16 && std::find(out.begin(), out.end(), i) == out.end()) out.push_back(i);
  return out;
}

int trail_every(double span, double dt) {
  dt = std::abs(dt);
  if (!(span > 0) || !(dt > 0)) return 1;
  return std::max(1, static_cast<int>(std::lround(span / (kTrailLength * dt))));
}

namespace {

// scenes up to this size publish host positions (trails, labels, follow, picking)
constexpr std::size_t kHostPathMaxN = 2048;
// a batch aims at this much wall time, so the picture updates at least this often
constexpr double kBatchBudgetS = 1.0 / 30.0;
// more than this behind the chosen speed: drop the debt and say the kernel cannot keep up
constexpr double kMaxDebtS = 0.5;

}  // namespace

// the UI side -------------------------------------------------------------------------------

SimRunner::SimRunner(Scene scene, const SimParams& params, bool threaded,
                     const PhysicsOverride& override)
    : threaded_(threaded) {
  live_.params = params;
  start_scene(std::move(scene), override, "");
  if (!sim_) throw Error(live_.error);
  std::unique_lock lk(mutex_);
  fill_from_simulation(controls_, true);
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
  if (sim_) sim_->backend().set_device_output({});
}

void SimRunner::set_controls(const SimControls& c) {
  {
    std::lock_guard lk(mutex_);
    controls_ = c;
  }
  cv_.notify_all();
}

void SimRunner::request(SimRequest r) {
  {
    std::lock_guard lk(mutex_);
    requests_.push_back(std::move(r));
  }
  cv_.notify_all();
}

SimUpdate SimRunner::take(SimState& state) {
  SimUpdate u;
  std::lock_guard lk(mutex_);
  if (fresh_) {
    std::swap(state, front_);
    fresh_ = false;
    u.fresh = true;
    if (state.host_data) positions_unseen_ = false;
  }
  u.trail.swap(trail_pending_);
  u.trail_samples = std::exchange(trail_pending_samples_, 0);
  u.drift.swap(drift_pending_);
  u.structure.swap(structure_pending_);
  u.lesson.swap(lesson_pending_);
  lesson_pending_.clear();
  trail_pending_.clear();
  drift_pending_.clear();
  structure_pending_.clear();
  return u;
}

bool SimRunner::copy_device_front(void* positions, void* speeds, std::size_t n) {
  std::lock_guard lk(mutex_);
  const auto& pos = staging_pos_[front_dev_];
  const auto& spd = staging_speed_[front_dev_];
  if (!pos.get() || pos.bytes() < n * 16 || spd.bytes() < n * 4) return false;
  render::copy_device(positions, pos.get(), n * 16);
  render::copy_device(speeds, spd.get(), n * 4);
  return true;
}

Bodies SimRunner::bodies_inline() {
  if (threaded_) fail("SimRunner::bodies_inline(): the simulation runs on its own thread");
  return sim_->bodies();
}

double SimRunner::batch_running_s() const {
  std::lock_guard lk(mutex_);
  return batch_started_ > 0 ? now_seconds() - batch_started_ : 0.0;
}

int SimRunner::batch_running_steps() const {
  std::lock_guard lk(mutex_);
  return batch_started_ > 0 ? batch_steps_ : 0;
}

void SimRunner::run_frame() {
  std::unique_lock lk(mutex_);
  apply_requests(lk);
  SimControls c = controls_;
  bool single = single_steps_ > 0;
  bool run = (!c.paused && !live_.health_paused) || single;
  lk.unlock();
  if (run && !compare_.running()) {
    long long k = single && (c.paused || live_.health_paused) ? 1 : std::max(1, c.steps_per_frame);
    if (single) --single_steps_;
    run_batch(c, std::max(1LL, k));
  } else {
    // paused, or a comparison runs (one entry per turn; the simulation waits meanwhile)
    monitor(c);
    fill_from_simulation(c, std::exchange(positions_dirty_, false));
  }
  lk.lock();
  publish(lk);
}

// the simulation thread ---------------------------------------------------------------------

void SimRunner::loop() {
  std::unique_lock lk(mutex_);
  while (!quit_) {
    apply_requests(lk);
    if (quit_) break;
    SimControls c = controls_;
    bool single = single_steps_ > 0;
    bool run = (!c.paused && !live_.health_paused) || single;
    if (!run || compare_.running()) {
      running_ = false;
      // paused or comparing: the monitors keep the panel current (a comparison runs one entry
      // per turn, the simulation waits meanwhile); paused, wait for a change
      lk.unlock();
      monitor(c);
      fill_from_simulation(c, std::exchange(positions_dirty_, false));
      lk.lock();
      publish(lk);
      if (!run && !compare_.running()) cv_.wait_for(lk, std::chrono::milliseconds(100));
      continue;
    }
    lk.unlock();
    double wait_s = 0;
    long long k = plan_batch(c, single, wait_s);
    if (k == 0) {
      lk.lock();
      cv_.wait_for(lk, std::chrono::duration<double>(std::clamp(wait_s, 0.001, 0.05)));
      continue;
    }
    if (single && (c.paused || live_.health_paused)) k = 1;
    if (single) --single_steps_;
    run_batch(c, k);
    lk.lock();
    publish(lk);
  }
}

void SimRunner::apply_requests(std::unique_lock<std::mutex>& lk) {
  while (!requests_.empty()) {
    SimRequest r = std::move(requests_.front());
    requests_.pop_front();
    // the work runs unlocked: the UI keeps drawing while a large file loads
    lk.unlock();
    apply(r);
    lk.lock();
  }
}

void SimRunner::apply(const SimRequest& r) {
  switch (r.kind) {
    case SimRequest::Kind::Scene: {
      try {
        Scene s = r.make();
        start_scene(std::move(s), r.override, r.what, r.scene_defaults);
      } catch (const std::exception& e) {
        set_error(r.what + " failed, old scene kept: " + e.what());
      }
      break;
    }
    case SimRequest::Kind::Reset:
      apply_reset();
      break;
    case SimRequest::Kind::SwitchKernel:
      apply_switch_kernel(r);
      break;
    case SimRequest::Kind::SetPhysics: {
      ++live_.physics_requests;
      try {
        validate(r.physics);
        SimParams with = live_.params;
        with.physics() = r.physics;
        validate_kernel_params(with);  // e.g. IAS15 on a GPU kernel, or in float
        live_.params.physics() = r.physics;
      } catch (const std::exception& e) {
        set_error(std::string("physics refused, kept as it was: ") + e.what());
      }
      break;
    }
    case SimRequest::Kind::SingleStep:
      ++single_steps_;
      break;
    case SimRequest::Kind::Resume:
      live_.health_paused = false;
      live_.pause_reason.clear();
      reset_pacing();
      break;
    case SimRequest::Kind::FitMap:
      map_.refit();
      break;
    case SimRequest::Kind::Edit:
      apply_edit_request(r);
      break;
    case SimRequest::Kind::Undo:
    case SimRequest::Kind::Redo:
      apply_undo(r.kind == SimRequest::Kind::Redo);
      break;
    case SimRequest::Kind::Rewind:
      apply_rewind(r.time);
      break;
    case SimRequest::Kind::Select:
      apply_select(r);
      break;
    case SimRequest::Kind::Save:
      apply_save(r);
      break;
    case SimRequest::Kind::LoadState:
      apply_load_state(r);
      break;
    case SimRequest::Kind::Lesson:
      lesson_.reset();
      live_.lesson_title.clear();
      if (r.lesson) {
        try {
          lesson_ = std::make_unique<LessonPlayer>(*r.lesson, sim_->current().units);
          live_.lesson_title = r.lesson->title.empty() ? r.lesson->source : r.lesson->title;
          set_message("lesson: " + live_.lesson_title);
          play_lesson();
        } catch (const std::exception& e) {
          set_error(std::string("lesson refused: ") + e.what());
        }
      }
      break;
    case SimRequest::Kind::Compare:
      // on a copy of the current bodies with the applied dt, G and ε
      compare_.start(sim_->bodies(), live_.params, r.entries, live_);
      break;
  }
}

void SimRunner::apply_reset() {
  forget(Forget::Reset);
  sim_->reset();
  forget_edits();
  live_.params.dt = start_physics_.dt;
  live_.params.softening = start_physics_.softening;
  live_.params.G = start_physics_.G;
  ++live_.reset_serial;
  trail_phase_ = 0;
  positions_dirty_ = true;
  reset_pacing();
  std::ostringstream os;
  os << "reset to t = 0; dt, G and softening restored to the start's (dt = " << start_physics_.dt
     << " " << scene_->units.time << ", G = " << start_physics_.G
     << ", eps = " << start_physics_.softening << " " << scene_->units.length << ")";
  set_message(os.str());
}

void SimRunner::apply_switch_kernel(const SimRequest& r) {
  ++live_.kernel_requests;
  SimParams p = live_.params;
  p.choice() = r.choice;
  const bool same = p.kernel == live_.params.kernel && p.precision == live_.params.precision &&
                    p.gpus == live_.params.gpus;
  try {
    if (same) {
      // new tunables only: the backend reads them at its next step
      validate_kernel_params(p);
      live_.params = p;
      return;
    }
    sim_->set_backend(p);
    live_.params = p;
    forget(Forget::Kernel);
    est_step_s_ = 0;
    reset_pacing();
    set_message("kernel " + p.kernel + " (" + precision_name(p.precision) + ")");
  } catch (const std::exception& e) {
    set_error(std::string(same ? "tunables refused, " : "kernel switch failed, ") +
              live_.params.kernel + " kept: " + e.what());
  }
}

void SimRunner::forget(Forget what) {
  for (Monitor* m : monitors_)
    m->forget(what, live_);
}

void SimRunner::monitor(const SimControls& c) {
  update_cards(c, false);
  const bool comparing = compare_.running();
  const SimParams p = active_params(c);
  const MonitorContext ctx{*sim_, *scene_, p, c, live_, drift_local_, structure_local_};
  for (Monitor* m : monitors_)
    m->update(ctx);
  // a comparison finished: the live kernel did not change; only the time spent is not owed
  if (comparing && !compare_.running()) reset_pacing();
}

void SimRunner::start_scene(Scene scene, const PhysicsOverride& override, const std::string& what,
                            bool scene_defaults) {
  // the scene's dt, ε and G (or the command line's); the kernel, integrator and 1PN go on,
  // but for a real-sky scene chosen in the panel, which starts with its best model
  SimParams p = live_.params;
  p.dt = scene.dt;
  p.softening = scene.softening;
  p.G = scene.units.G;
  override.apply(p.physics());
  if (scene_defaults && (scene.precision == Precision::Double || scene.post_newtonian)) {
    p.integrator = scene.integrator;
    p.post_newtonian = scene.post_newtonian;
    p.pn_model = scene.pn_model;
    if (scene.precision == Precision::Double && find_kernel(p.kernel).supports_double)
      p.precision = Precision::Double;
  }
  const UnitSystem& u = scene.units;
  p.speed_of_light = u.physical() ? 299792458.0 * u.time_s / u.length_m : 0.0;
  std::string note;
  if (p.post_newtonian && !u.physical()) {
    p.post_newtonian = false;
    note = " (1PN off: these units have no speed of light)";
  }
  if (p.post_newtonian && p.pn_model == PnModel::EIH && find_kernel(p.kernel).gpu) {
    p.pn_model = PnModel::Sun;
    note = " (1PN: the Sun's term; EIH runs on CPU kernels only)";
  }
  auto scene_ptr = std::make_shared<Scene>(std::move(scene));
  std::unique_ptr<Simulation> sim;
  try {
    sim = std::make_unique<Simulation>(*scene_ptr, p);
  } catch (const std::exception& e) {
    set_error((what.empty() ? std::string("scene") : what) +
              " failed, old scene kept: " + e.what());
    return;
  }
  if (sim_) sim_->backend().set_device_output({});
  sim_ = std::move(sim);
  scene_ = std::move(scene_ptr);
  forget(Forget::Scene);
  forget_edits();
  lesson_.reset();  // a lesson plays on its own scene (its Lesson request follows the scene)
  live_.lesson_title.clear();
  live_.shows_structure = shows_structure(*scene_);
  live_.params = p;
  start_physics_ = p.physics();
  ++live_.scene_serial;
  ++live_.reset_serial;
  est_step_s_ = 0;
  trail_phase_ = 0;
  trail_local_.clear();
  trail_local_samples_ = 0;
  positions_dirty_ = true;
  reset_pacing();
  // the real sky's fit residual (the first scene's notes were printed by the command)
  std::string notes;
  for (const std::string& n : scene_->notes)
    notes += "; " + n;
  if (!what.empty())
    set_message(what + ": " + std::to_string(sim_->size()) + " bodies, kernel " + p.kernel + note +
                notes);
  live_.error.clear();
}

SimParams SimRunner::active_params(const SimControls& c) const {
  SimParams p = live_.params;
  p.steps_per_frame = std::max(1, c.steps_per_frame);
  return p;
}

void SimRunner::reset_pacing() {
  anchor_real_ = now_seconds();
  anchor_sim_ = sim_ ? sim_->time() : 0;
  live_.behind = false;
}

long long SimRunner::plan_batch(const SimControls& c, bool single, double& wait_s) {
  SimParams p = active_params(c);
  // a changed speed, dt or mode starts the pacing over
  if (!running_ || c.speed != last_speed_ || p.dt != last_dt_ || c.max_speed != last_max_)
    reset_pacing();
  running_ = true;
  last_speed_ = c.speed;
  last_dt_ = p.dt;
  last_max_ = c.max_speed;
  // steps that fit the batch budget at the measured step time (one step to measure first)
  long long cap =
      est_step_s_ > 0 ? std::max(1LL, static_cast<long long>(kBatchBudgetS / est_step_s_)) : 1LL;
  cap = std::min(cap, 100000LL);
  if (single || c.max_speed) return cap_for_lesson(cap);
  double now = now_seconds();
  // |time|: a run backwards (dt < 0) paces like a forward one
  double done = std::abs(sim_->time() - anchor_sim_);
  long long k = steps_due(c.speed, p.dt, now - anchor_real_, done, cap_for_lesson(cap));
  if (k == 0) {
    // the next step is due when the simulated time falls behind by one dt
    wait_s = (done + std::abs(p.dt)) / std::max(c.speed, 1e-300) - (now - anchor_real_);
    return 0;
  }
  // far behind: the kernel cannot keep up; drop the debt instead of running in bursts
  double debt_s = (c.speed * (now - anchor_real_) - done) / std::max(c.speed, 1e-300);
  if (debt_s > kMaxDebtS) {
    live_.behind = true;
    anchor_real_ = now;
    anchor_sim_ = sim_->time();
  } else if (debt_s < 0.05) {
    live_.behind = false;
  }
  return k;
}

void SimRunner::run_batch(const SimControls& c, long long steps) {
  // bodies that touch merge before the steps (a body placed on another merges at once)
  merge_touching_bodies(c);
  bool device = sim_->size() > kHostPathMaxN && c.device_output_ok && !staging_failed_ &&
                sim_->backend().supports_device_output();
  if (device) {
    const std::size_t n = sim_->size();
    try {
      for (int i = 0; i < 2; ++i) {
        staging_pos_[i].allocate(n * 16);
        staging_speed_[i].allocate(n * 4);
      }
    } catch (const std::exception& e) {
      staging_failed_ = true;
      set_error(std::string("device staging unavailable, copying through the host: ") + e.what());
      device = false;
    }
  }
  {
    std::lock_guard lk(mutex_);
    batch_started_ = now_seconds();
    batch_steps_ = static_cast<int>(steps);
  }
  const double t0 = now_seconds();
  run_steps(c, steps, device);
  if (c.debug_step_delay_ms > 0)
    std::this_thread::sleep_for(std::chrono::duration<double, std::milli>(c.debug_step_delay_ms));
  const double per_step = (now_seconds() - t0) / static_cast<double>(steps);
  est_step_s_ = est_step_s_ > 0 ? 0.7 * est_step_s_ + 0.3 * per_step : per_step;
  {
    std::lock_guard lk(mutex_);
    batch_started_ = 0;
    batch_steps_ = 0;
  }
  live_.batch_steps = static_cast<int>(steps);
  live_.step_ms = sim_->backend().last_step_ms();
  live_.device_data = device;
  play_lesson();
  record_timeline(c);
  monitor(c);
  positions_dirty_ = false;
  fill_from_simulation(c, true);
}

void SimRunner::run_steps(const SimControls& c, long long steps, bool device) {
  SimParams p = active_params(c);
  const bool trails = c.trails && sim_->size() <= kHostPathMaxN;
  const int every = trail_every(c.trail_span, p.dt);
  if (trail_phase_ >= every) trail_phase_ = 0;
  try {
    if (device)
      sim_->backend().set_device_output(
          {staging_pos_[back_dev_].get(), staging_speed_[back_dev_].get()});
    else
      sim_->backend().set_device_output({});
    long long left = steps;
    while (left > 0) {
      long long m = trails ? std::min<long long>(left, every - trail_phase_) : left;
      p.steps_per_frame = static_cast<int>(std::min<long long>(m, 1 << 30));
      sim_->step(p);
      left -= m;
      if (!trails) continue;
      trail_phase_ += static_cast<int>(m);
      if (trail_phase_ < every) continue;
      trail_phase_ = 0;
      const Bodies& b = sim_->bodies();
      for (std::size_t i = 0; i < b.size(); ++i) {
        trail_local_.push_back(static_cast<float>(b.x[i]));
        trail_local_.push_back(static_cast<float>(b.y[i]));
        trail_local_.push_back(static_cast<float>(b.z[i]));
      }
      ++trail_local_samples_;
    }
    if (device) sim_->backend().set_device_output({});
  } catch (const std::exception& e) {
    sim_->backend().set_device_output({});
    live_.health_paused = true;
    live_.pause_reason = std::string("simulation stopped: ") + e.what();
    set_error(live_.pause_reason);
  }
}

void SimRunner::fill_from_simulation(const SimControls& c, bool positions) {
  // what the simulation, the undo stack and the timeline own, read as they are now
  SimState& s = live_;
  s.scene = current_ ? current_ : scene_;
  s.n = sim_->size();
  const KernelInfo& k = sim_->backend().info();
  s.kernel = k.name;
  s.precision = live_.params.precision;
  s.kernel_gpu = k.gpu;
  s.params.steps_per_frame = std::max(1, c.steps_per_frame);
  s.time = sim_->time();
  s.steps = sim_->steps_done();
  // the work the kernel counted in its last step (a tree kernel does fewer than N²)
  // (nothing before the first step: no assumed N²)
  s.work = sim_->backend().last_work();
  s.interactions = s.work.interactions;
  s.flops_per_interaction = s.work.flops_per_interaction;
  publish_undo();
  // host positions unless the last batch wrote the device staging; again while the UI has not
  // taken the last ones (a state it skipped must not lose the positions of a new scene, reset
  // or edit)
  if (positions_unseen_) positions = true;
  s.host_data = positions && !s.device_data;
  if (!s.host_data) return;
  const Bodies& b = sim_->bodies();
  s.xyzm.resize(4 * b.size());
  s.speed.resize(b.size());
  for (std::size_t i = 0; i < b.size(); ++i) {
    s.xyzm[4 * i + 0] = static_cast<float>(b.x[i]);
    s.xyzm[4 * i + 1] = static_cast<float>(b.y[i]);
    s.xyzm[4 * i + 2] = static_cast<float>(b.z[i]);
    s.xyzm[4 * i + 3] = static_cast<float>(b.m[i]);
    s.speed[i] =
        static_cast<float>(std::sqrt(b.vx[i] * b.vx[i] + b.vy[i] * b.vy[i] + b.vz[i] * b.vz[i]));
  }
}

void SimRunner::publish(std::unique_lock<std::mutex>& lk) {
  (void)lk;  // held by the caller
  ++live_.version;
  // the state is copied; the positions move (the older buffers come back to be filled again)
  std::vector<float> xyzm = std::move(live_.xyzm), speed = std::move(live_.speed);
  std::vector<float> old_xyzm = std::move(front_.xyzm), old_speed = std::move(front_.speed);
  front_ = live_;
  front_.xyzm = std::move(xyzm);
  front_.speed = std::move(speed);
  live_.xyzm = std::move(old_xyzm);
  live_.speed = std::move(old_speed);
  if (live_.device_data) std::swap(front_dev_, back_dev_);
  fresh_ = true;
  if (front_.host_data) positions_unseen_ = true;
  // the trail samples and drift points travel separately: none is lost when the UI skips a state
  trail_pending_.insert(trail_pending_.end(), trail_local_.begin(), trail_local_.end());
  trail_pending_samples_ += trail_local_samples_;
  trail_local_.clear();
  trail_local_samples_ = 0;
  drift_pending_.insert(drift_pending_.end(), drift_local_.begin(), drift_local_.end());
  drift_local_.clear();
  lesson_pending_.insert(lesson_pending_.end(), lesson_local_.begin(), lesson_local_.end());
  lesson_local_.clear();
  for (StructureSample& x : structure_local_)
    structure_pending_.push_back(std::move(x));
  structure_local_.clear();
  if (structure_pending_.size() > 4096)
    structure_pending_.erase(structure_pending_.begin(), structure_pending_.end() - 4096);
  // a UI that does not take for a long time keeps only the newest samples
  const std::size_t per_sample = 3 * std::max<std::size_t>(front_.n, 1);
  const std::size_t max_samples = 4096;
  if (trail_pending_samples_ > static_cast<int>(max_samples)) {
    std::size_t drop = static_cast<std::size_t>(trail_pending_samples_) - max_samples;
    trail_pending_.erase(trail_pending_.begin(),
                         trail_pending_.begin() + static_cast<std::ptrdiff_t>(drop * per_sample));
    trail_pending_samples_ = static_cast<int>(max_samples);
  }
  live_.device_data = false;
  live_.batch_steps = 0;
}

}  // namespace nbody::app
