#include "app/gui_viewer.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <sstream>

#include <glm/gtc/matrix_transform.hpp>

#include "render/gl_check.hpp"
#include "sim/backend.hpp"
#include "sim/error.hpp"
#include "sim/units.hpp"

namespace nbody::app {

double now_seconds() {
  using clock = std::chrono::steady_clock;
  return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

void History::push(float v) {
  if (values_.size() >= capacity_) values_.erase(values_.begin());
  values_.push_back(v);
}

float History::median() const {
  if (values_.empty()) return 0;
  std::vector<float> v = values_;
  std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
  return v[v.size() / 2];
}

float History::max() const {
  return values_.empty() ? 0.0f : *std::max_element(values_.begin(), values_.end());
}

namespace {

// the largest N for which the O(N²) energy check runs in the background
constexpr std::size_t kMaxDiagnosticsN = 262144;

// percentile of a sample of v (p in [0, 1])
float percentile(std::vector<float> v, float p) {
  if (v.empty()) return 0;
  auto k = std::min(v.size() - 1, static_cast<std::size_t>(p * static_cast<float>(v.size())));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k];
}

}  // namespace

Viewer::Viewer(Scene scene, const SimParams& p, bool allow_interop)
    : params(p),
      particles_(std::make_unique<render::ParticleRenderer>()),
      trails_(std::make_unique<render::Trails>()),
      density_(std::make_unique<render::DensityTexture>()),
      timer_(std::make_unique<render::GpuTimer>()),
      allow_interop_(allow_interop) {
  preset_name = scene.name;
  start_scene(std::move(scene));
}

Viewer::~Viewer() {
  // reverse order of start-up: finish background work, unregister interop before the buffers
  if (diag_future_.valid()) diag_future_.wait();
  if (sim_) sim_->backend().set_device_output({});
  interop_speed_.reset();
  interop_pos_.reset();
}

std::string Viewer::compare_status() const {
  if (!comparing()) return {};
  return "comparing: " + params.kernel + " (" + std::to_string(compare_queue_.size()) + " more)";
}

double Viewer::fps() const {
  float ms = frame_ms_.median();
  return ms > 0 ? 1000.0 / ms : 0.0;
}

double Viewer::interactions_per_s() const {
  // as the kernel counted them (a tree kernel does fewer than N²)
  const double per_step = sim_->backend().last_work().interactions;
  double ms = sim_ms_.median();
  return ms > 0 ? per_step / (ms * 1e-3) : 0.0;
}

// scene ------------------------------------------------------------------------------------

void Viewer::start_scene(Scene scene) {
  // the new simulation first: on error nothing changes
  SimParams p = params;
  p.dt = scene.dt;
  p.softening = scene.softening;
  p.G = scene.units.G;
  auto sim = std::make_unique<Simulation>(std::move(scene), p);
  if (diag_future_.valid()) diag_future_.wait();
  diag_future_ = {};
  if (sim_) sim_->backend().set_device_output({});
  sim_ = std::move(sim);
  params = p;
  current_kernel_ = p.kernel;
  current_precision_ = p.precision;

  allocate_buffers();
  const Bodies& b = sim_->bodies();
  std::vector<float> comp(b.size());
  for (std::size_t i = 0; i < b.size(); ++i)
    comp[i] = static_cast<float>(b.component[i]);
  particles_->upload_components(comp.data(), comp.size());
  upload_from_host();

  // look: colour scale from the initial speeds, mass range, sizes by N
  style.speed_max = std::max(percentile(speed_, 0.98f) * 1.1f, 1e-30f);
  float mmin = 1e30f, mmax = 0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    auto m = static_cast<float>(b.m[i]);
    if (m > 0) mmin = std::min(mmin, m), mmax = std::max(mmax, m);
  }
  style.log_mass_min = std::log10(std::max(mmin, 1e-30f));
  style.log_mass_max = std::log10(std::max(mmax, 1e-30f));
  bool small = b.size() <= 64;
  style.mass_size = small ? 1.0f : 0.0f;
  style.point_size = small ? 7.0f : (b.size() <= 20000 ? 2.5f : 2.0f);
  style.brightness = small ? 1.0f : std::clamp(std::sqrt(16384.0f / b.size()), 0.15f, 1.0f);
  style.color = small ? render::ColorMode::Component : render::ColorMode::Speed;

  trails_enabled = sim_->scene().trails && trails_possible();
  if (trails_possible()) trails_->reset(b.size(), trail_length, xyzm_.data(), 4);
  camera_.set_home(glm::vec3(0), static_cast<float>(sim_->scene().camera_distance));

  // health and histories start over
  have_e0_ = false;
  diag_.reset();
  ++diag_generation_;
  drift_.clear();
  sim_ms_.clear();
  interop_ms_.clear();
  fit_map_bounds();
  error_.clear();
}

void Viewer::allocate_buffers() {
  // fresh buffers: unregister the old ones first, register the new ones on the GPU path
  interop_pos_.reset();
  interop_speed_.reset();
  particles_->resize(sim_->size());
  switch_kernel();
}

// picks the data path for the current backend, registering the buffers when needed
void Viewer::switch_kernel() {
  if (params.kernel != current_kernel_ || params.precision != current_precision_) {
    try {
      sim_->set_backend(params);
      current_kernel_ = params.kernel;
      current_precision_ = params.precision;
      // positions the panel will see carry over; new backend's first step rewrites the buffer
      host_fresh_ = false;
    } catch (const std::exception& e) {
      error_ = std::string("kernel switch failed: ") + e.what();
      params.kernel = current_kernel_;
      params.precision = current_precision_;
    }
  }
  ForceBackend& be = sim_->backend();
  if (be.supports_device_output() && allow_interop_) {
    if (!interop_pos_.registered()) {
      std::string why;
      bool ok = interop_pos_.register_buffer(particles_->position_buffer(), why) &&
                interop_speed_.register_buffer(particles_->speed_buffer(), why);
      if (!ok) {
        interop_pos_.reset();
        interop_speed_.reset();
        interop_note_ = "interop unavailable (" + why + "): copying device -> host -> GL";
      } else {
        interop_note_ = "CUDA-GL interop: kernels write the vertex buffers";
      }
    }
    path_ = interop_pos_.registered() ? DataPath::Interop : DataPath::HostCopyFallback;
  } else {
    path_ = be.info().gpu ? DataPath::HostCopyFallback : DataPath::CpuUpload;
    if (be.info().gpu && !allow_interop_)
      interop_note_ = "interop off: copying device -> host -> GL";
    if (!be.info().gpu && cuda_available()) interop_note_ = "CPU kernel: positions uploaded";
  }
}

// host copies ------------------------------------------------------------------------------

void Viewer::refresh_host_cache() {
  const Bodies& b = sim_->bodies();
  std::size_t n = b.size();
  xyzm_.resize(4 * n);
  speed_.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    xyzm_[4 * i + 0] = static_cast<float>(b.x[i]);
    xyzm_[4 * i + 1] = static_cast<float>(b.y[i]);
    xyzm_[4 * i + 2] = static_cast<float>(b.z[i]);
    xyzm_[4 * i + 3] = static_cast<float>(b.m[i]);
    speed_[i] =
        static_cast<float>(std::sqrt(b.vx[i] * b.vx[i] + b.vy[i] * b.vy[i] + b.vz[i] * b.vz[i]));
  }
  host_fresh_ = true;
}

void Viewer::upload_from_host() {
  refresh_host_cache();
  particles_->upload_positions(xyzm_.data(), sim_->size());
  particles_->upload_speeds(speed_.data(), sim_->size());
}

// requests ---------------------------------------------------------------------------------

void Viewer::apply_pending() {
  PendingRequest r = pending;
  pending = {};
  if (r.make_preset) {
    try {
      start_scene(make_scene(preset_name, preset_params));
      camera_.reset();
      message_ = "scene " + preset_name + ": " + std::to_string(sim_->size()) + " bodies";
    } catch (const std::exception& e) {
      error_ = std::string("scene not changed: ") + e.what();
    }
  }
  if (r.load_file) {
    try {
      start_scene(io::load(load_path, load_options));
      camera_.reset();
      r.fit_view = true;
      message_ = "loaded " + load_path + ": " + std::to_string(sim_->size()) + " bodies";
    } catch (const std::exception& e) {
      error_ = std::string("load failed, old scene kept: ") + e.what();
    }
  }
  if (r.switch_kernel) switch_kernel();
  if (r.reset) {
    if (diag_future_.valid()) diag_future_.wait();
    diag_future_ = {};
    sim_->reset();
    upload_from_host();
    if (trails_possible()) trails_->reset(sim_->size(), trail_length, xyzm_.data(), 4);
    have_e0_ = false;
    diag_.reset();
    ++diag_generation_;
    drift_.clear();
    error_.clear();
    message_ = "reset to t = 0";
  }
  if (r.reset_view) camera_.reset();
  if (r.fit_view) {
    if (!host_fresh_) refresh_host_cache();
    camera_.fit(xyzm_.data(), sim_->size(), 4);
  }
  if (r.fit_map) fit_map_bounds();
  if (r.compare && !comparing()) {
    compare_results_.clear();
    bool gpu = cuda_available();
    for (const KernelInfo& k : kernel_table())
      if (k.gpu == gpu && (gpu || sim_->size() <= 65536 || k.name != "cpu-reference"))
        compare_queue_.push_back(k.name);
    compare_restore_ = params.kernel;
  }
  if (r.single_step) pending.single_step = true;  // consumed by simulate()
}

// simulation -------------------------------------------------------------------------------

void Viewer::simulate() {
  bool single = pending.single_step;
  pending.single_step = false;
  bool run = (!paused || comparing()) || single;
  times_.steps = 0;
  times_.interop_ms = 0;
  if (!run) {
    if (!host_fresh_) upload_from_host();
    return;
  }
  SimParams p = params;
  if (single && paused) p.steps_per_frame = 1;

  try {
    if (path_ == DataPath::Interop) {
      // map, let the last kernel write the buffers, unmap before drawing
      double t0 = now_seconds();
      {
        render::InteropMapping mapping({&interop_pos_, &interop_speed_});
        sim_->backend().set_device_output({mapping.pointer(0), mapping.pointer(1)});
        sim_->step(p);
        sim_->backend().set_device_output({});
      }
      times_.interop_ms =
          (now_seconds() - t0) * 1e3 - sim_->backend().last_step_ms() * p.steps_per_frame;
      times_.interop_ms = std::max(times_.interop_ms, 0.0);
      host_fresh_ = false;
    } else {
      sim_->step(p);
      double t0 = now_seconds();
      upload_from_host();
      times_.interop_ms = (now_seconds() - t0) * 1e3;
    }
  } catch (const std::exception& e) {
    sim_->backend().set_device_output({});
    paused = true;
    error_ = std::string("simulation stopped: ") + e.what();
    return;
  }
  times_.steps = p.steps_per_frame;
  times_.sim_ms = sim_->backend().last_step_ms();
  sim_ms_.push(static_cast<float>(times_.sim_ms));
  interop_ms_.push(static_cast<float>(times_.interop_ms));

  // trails sample the host positions (small scenes only)
  if (trails_enabled && trails_possible()) {
    if (!host_fresh_) refresh_host_cache();
    trails_->push(xyzm_.data(), 4);
  }
}

void Viewer::check_health() {
  // collect a finished energy computation
  if (diag_future_.valid() &&
      diag_future_.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
    Diagnostics d = diag_future_.get();
    if (future_generation_ == diag_generation_) {
      if (!have_e0_) {
        e0_ = d.total;
        have_e0_ = true;
      }
      diag_ = d;
      drift_.push(static_cast<float>(std::abs(relative_energy_drift(e0_, d.total))));
    }
  }
  if (health_every <= 0) return;  // off (headless timing runs)
  bool due = frames_ % health_every == 0 || !have_e0_;
  if (!due) return;
  // NaN/Inf check on the positions: cheap, every k frames
  const Bodies& b = sim_->bodies();
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (!std::isfinite(b.x[i]) || !std::isfinite(b.y[i]) || !std::isfinite(b.z[i]) ||
        !std::isfinite(b.vx[i]) || !std::isfinite(b.vy[i]) || !std::isfinite(b.vz[i])) {
      if (!paused) {
        paused = true;
        std::ostringstream os;
        os << "paused: body " << i << " has a NaN/Inf position or velocity at t = "
           << units::format_time(sim_->time(), sim_->scene().units)
           << " (dt too large or softening too small?); press Reset";
        error_ = os.str();
      }
      return;
    }
  }
  // energy in the background on a snapshot
  if (!diag_future_.valid() && b.size() <= kMaxDiagnosticsN) {
    future_generation_ = diag_generation_;
    diag_future_ =
        std::async(std::launch::async, [snapshot = b, G = params.G, eps = params.softening] {
          return compute_diagnostics(snapshot, G, eps);
        });
  }
}

// activity map -----------------------------------------------------------------------------

void Viewer::fit_map_bounds() {
  if (!host_fresh_) refresh_host_cache();
  int a = map.params.plane == MapPlane::YZ ? 1 : 0;
  int c = map.params.plane == MapPlane::XY ? 1 : 2;
  std::size_t n = sim_->size();
  std::vector<float> u, v, r;
  std::size_t every = std::max<std::size_t>(1, n / 20000);
  for (std::size_t i = 0; i < n; i += every) {
    u.push_back(xyzm_[4 * i + a]);
    v.push_back(xyzm_[4 * i + c]);
  }
  float cu = percentile(u, 0.5f), cv = percentile(v, 0.5f);
  for (std::size_t i = 0; i < u.size(); ++i)
    r.push_back(std::max(std::abs(u[i] - cu), std::abs(v[i] - cv)));
  float h = std::max(percentile(r, 0.9f) * 1.1f, 1e-6f);
  map.params.u_min = cu - h;
  map.params.u_max = cu + h;
  map.params.v_min = cv - h;
  map.params.v_max = cv + h;
}

void Viewer::update_map() {
  if (!map.enabled || frames_ % std::max(map.every, 1) != 0) return;
  try {
    validate(map.params);
    if (!sim_->backend().activity_map(map.params, activity_))
      activity_ = compute_activity_map_cpu(sim_->bodies(), map.params);
    density_->update(activity_.image.data(), activity_.size);
  } catch (const std::exception& e) {
    error_ = std::string("activity map: ") + e.what();
    map.enabled = false;
  }
}

// comparison -------------------------------------------------------------------------------

void Viewer::step_compare(double frame_ms) {
  if (!comparing()) return;
  if (compare_active_) {
    // the first frame of each kernel is warm-up
    if (compare_elapsed_ms_ > 0) {
      compare_sim_ms_ += times_.sim_ms * times_.steps;
      compare_steps_ += times_.steps;
    }
    compare_elapsed_ms_ += std::max(frame_ms, 1.0);
    if (compare_elapsed_ms_ >= 1000.0) {
      const double work = sim_->backend().last_work().interactions;
      double per_step = compare_steps_ > 0 ? compare_sim_ms_ / compare_steps_ : 0;
      compare_results_.push_back({params.kernel, per_step > 0 ? work / (per_step * 1e-3) : 0});
      compare_active_ = false;
      // the last kernel is done: back to the one the person had chosen
      if (compare_queue_.empty()) {
        params.kernel = compare_restore_;
        switch_kernel();
        message_ = "comparison done";
      }
    }
    return;
  }
  params.kernel = compare_queue_.front();
  compare_queue_.pop_front();
  switch_kernel();
  compare_active_ = true;
  compare_elapsed_ms_ = 0;
  compare_sim_ms_ = 0;
  compare_steps_ = 0;
}

// frame ------------------------------------------------------------------------------------

void Viewer::draw(int width, int height) {
  glViewport(0, 0, width, height);
  glClearColor(0.015f, 0.015f, 0.03f, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
  float aspect = static_cast<float>(width) / static_cast<float>(std::max(height, 1));
  // shift the projection centre right of the panel
  glm::mat4 shift =
      glm::translate(glm::mat4(1.0f), glm::vec3(view_offset_px / static_cast<float>(width), 0, 0));
  glm::mat4 view = camera_.view(), proj = shift * camera_.projection(aspect);
  if (map.enabled && map.overlay && density_->size() > 0) {
    glm::vec4 bounds(map.params.u_min, map.params.u_max, map.params.v_min, map.params.v_max);
    density_->draw_overlay(proj * view, static_cast<int>(map.params.plane), bounds,
                           map.overlay_alpha);
  }
  if (trails_enabled && trails_possible()) trails_->draw(proj * view, 1.0f);
  particles_->draw(view, proj, camera_.distance(), static_cast<float>(height), style);
}

void Viewer::frame(int width, int height) {
  double t = now_seconds();
  if (last_frame_time_ > 0) {
    times_.frame_ms = (t - last_frame_time_) * 1e3;
    frame_ms_.push(static_cast<float>(times_.frame_ms));
  }
  last_frame_time_ = t;

  apply_pending();
  step_compare(times_.frame_ms);
  check_health();
  simulate();
  update_map();

  timer_->begin();
  draw(width, height);
  timer_->end();
  times_.render_ms = timer_->last_ms();
  if (times_.render_ms >= 0) render_ms_.push(static_cast<float>(times_.render_ms));
  ++frames_;
}

}  // namespace nbody::app
