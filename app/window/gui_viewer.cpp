#include "app/window/gui_viewer.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include <glm/gtc/matrix_transform.hpp>

#include "app/window/gui_logic.hpp"
#include "render/colormap.hpp"
#include "render/gl_check.hpp"
#include "sim/core/backend.hpp"
#include "sim/core/error.hpp"
#include "sim/core/units.hpp"

namespace nbody::app {

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

const char* data_path_name(DataPath p) {
  switch (p) {
    case DataPath::Interop:
      return "cuda-gl-interop";
    case DataPath::HostCopyFallback:
      return "device-host-gl-copy";
    default:
      return "cpu-upload";
  }
}

namespace {

float percentile(std::vector<float> v, float p) {
  if (v.empty()) return 0;
  auto k = std::min(v.size() - 1, static_cast<std::size_t>(p * static_cast<float>(v.size())));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k];
}

// a software rasterizer's timer queries measure command submission, not drawing
bool software_gl() {
  const char* r = reinterpret_cast<const char*>(glGetString(GL_RENDERER));
  if (!r) return true;
  std::string s = r;
  return s.find("llvmpipe") != std::string::npos || s.find("softpipe") != std::string::npos ||
         s.find("SwiftShader") != std::string::npos;
}

}  // namespace

Viewer::Viewer(Scene scene, const SimParams& p, bool allow_interop, bool threaded,
               const PhysicsOverride& override)
    : particles_(std::make_unique<render::ParticleRenderer>()),
      trails_(std::make_unique<render::Trails>()),
      boxes_(std::make_unique<render::CellBoxes>()),
      orbit_lines_(std::make_unique<render::OrbitLines>()),
      density_(std::make_unique<render::DensityTexture>()),
      timer_(std::make_unique<render::GpuTimer>()),
      hdr_(std::make_unique<render::HdrTarget>()),
      allow_interop_(allow_interop) {
  GLint bits = 0;
  glGetQueryiv(GL_TIME_ELAPSED, GL_QUERY_COUNTER_BITS, &bits);
  software_ = software_gl();
  timer_valid_ = bits > 0 && !software_;
  controls.sim.steps_per_frame = std::max(1, p.steps_per_frame);
  controls.sim.map_enabled = true;
  controls.preset_name = scene.name;
  runner_ = std::make_unique<SimRunner>(std::move(scene), p, threaded, override);
  SimUpdate u = runner_->take(state_);
  adopt_state(u);
  runner_->set_controls(controls.sim);
}

Viewer::~Viewer() {
  // the simulation thread stops before the GL objects go (runner_ is declared last, but the
  // interop buffers must not be mapped while it copies: stop it explicitly first)
  runner_.reset();
  interop_speed_.reset();
  interop_pos_.reset();
}

PhysicsParams Viewer::physics() const {
  return shown_physics_ ? *shown_physics_ : state_.params.physics();
}

void Viewer::set_physics(const PhysicsParams& p) {
  shown_physics_ = p;
  SimRequest q;
  q.kind = SimRequest::Kind::SetPhysics;
  q.physics = p;
  request(std::move(q));
}

KernelChoice Viewer::kernel_choice() const {
  return shown_choice_ ? *shown_choice_ : state_.params.choice();
}

void Viewer::set_kernel_choice(const KernelChoice& c) {
  shown_choice_ = c;
  SimRequest q;
  q.kind = SimRequest::Kind::SwitchKernel;
  q.choice = c;
  request(std::move(q));
}

const ActivityMap& Viewer::activity() const {
  static const ActivityMap none;
  return state_.map ? *state_.map : none;
}

double Viewer::fps() const {
  float ms = frame_ms_.median();
  return ms > 0 ? 1000.0 / ms : 0.0;
}

double Viewer::interactions_per_s() const {
  if (is_paused() && !state_.comparing) return 0;
  double ms = times_.sim_ms;
  float med = sim_ms_.median();
  if (med > 0) ms = med;
  return ms > 0 ? state_.interactions / (ms * 1e-3) : 0.0;
}

int Viewer::trail_every() const {
  return app::trail_every(controls.sim.trail_span, physics().dt);
}

// requests -----------------------------------------------------------------------------------

void Viewer::request(SimRequest r) {
  using K = SimRequest::Kind;
  // a slider dragged asks for new physics or tunables every frame: the newest replaces a queued
  // one of the same kind that nothing else follows
  if ((r.kind == K::SetPhysics || r.kind == K::SwitchKernel) && !queued_.empty() &&
      queued_.back().kind == r.kind) {
    queued_.back() = std::move(r);
    return;
  }
  queued_.push_back(std::move(r));
}

bool Viewer::comparing() const {
  return state_.comparing || std::any_of(queued_.begin(), queued_.end(), [](const SimRequest& q) {
           return q.kind == SimRequest::Kind::Compare;
         });
}

void Viewer::apply_requests() {
  // in the order the person made them
  for (SimRequest& q : queued_) {
    if (q.kind == SimRequest::Kind::SetPhysics) ++physics_sent_;
    if (q.kind == SimRequest::Kind::SwitchKernel) ++kernel_sent_;
    runner_->request(std::move(q));
  }
  queued_.clear();
  // unpausing after a health pause tells the simulation to go on
  if (!controls.sim.paused && state_.health_paused)
    runner_->request(SimRequest::of(SimRequest::Kind::Resume));
  for (ViewRequest r : view_requests_)
    apply_view_request(r);
  view_requests_.clear();
}

// state --------------------------------------------------------------------------------------

void Viewer::adopt_state(const SimUpdate& u) {
  if (state_.scene_serial != seen_scene_) on_new_scene();
  if (state_.reset_serial != seen_reset_) on_reset();
  adopt_edits();
  lesson_actions(u);
  // the simulation owns the physics and the kernel: the panel shows what runs once the
  // simulation has handled every request this viewer sent
  auto queued = [this](SimRequest::Kind k) {
    return std::any_of(queued_.begin(), queued_.end(),
                       [k](const SimRequest& q) { return q.kind == k; });
  };
  if (state_.physics_requests >= physics_sent_ && !queued(SimRequest::Kind::SetPhysics))
    shown_physics_.reset();
  if (state_.kernel_requests >= kernel_sent_ && !queued(SimRequest::Kind::SwitchKernel))
    shown_choice_.reset();
  if (state_.error_serial != seen_error_) {
    seen_error_ = state_.error_serial;
    error_ = state_.error;
    if (!error_.empty()) std::fprintf(stderr, "nbody: %s\n", error_.c_str());
  }
  if (state_.message_serial != seen_message_) {
    seen_message_ = state_.message_serial;
    message_ = state_.message;
  }
  // a health pause pauses the panel once; unpausing then resumes
  if (state_.health_paused && !health_paused_seen_) controls.sim.paused = true;
  health_paused_seen_ = state_.health_paused;
  if (u.fresh) {
    if (state_.host_data) {
      xyzm_.swap(state_.xyzm);
      speed_.swap(state_.speed);
      positions_new_ = true;
    } else if (state_.device_data) {
      positions_new_ = true;
    }
    if (state_.batch_steps > 0 && state_.version > 0) {
      times_.steps = state_.batch_steps;
      times_.sim_ms = state_.step_ms;
      sim_ms_.push(static_cast<float>(state_.step_ms));
      all_step_ms_.push_back(static_cast<float>(state_.step_ms));
      ++batches_;
      state_.batch_steps = 0;
    } else {
      times_.steps = 0;
    }
  } else {
    times_.steps = 0;
  }
  for (float d : u.drift)
    drift_.push(d);
  for (const StructureSample& sample : u.structure) {
    if (sample.reset_serial != seen_reset_) continue;  // measured before a reset or new scene
    if (structure_.size() != sample.groups.size()) structure_.assign(sample.groups.size(), {});
    for (std::size_t i = 0; i < sample.groups.size(); ++i) {
      const GroupStructure& g = sample.groups[i];
      StructureHistory& h = structure_[i];
      h.name = g.name;
      h.r10.push(static_cast<float>(g.lagrangian[0]));
      h.r50.push(static_cast<float>(g.lagrangian[2]));
      h.r90.push(static_cast<float>(g.lagrangian[4]));
      if (g.disk_bodies > 0 && std::isfinite(g.disk_thickness))
        h.thickness.push(static_cast<float>(g.disk_thickness));
    }
  }
  if (trails_on_ && u.trail_samples > 0 &&
      u.trail.size() == static_cast<std::size_t>(u.trail_samples) * state_.n * 3)
    trails_->push_many(u.trail.data(), u.trail_samples);
  if (state_.map_version != seen_map_ && state_.map && state_.map->size > 0) {
    density_->update(state_.map->image.data(), state_.map->size);
    seen_map_ = state_.map_version;
    if (controls.sim.map_follow) {
      ActivityMapParams& mp = controls.sim.map;
      mp.u_min = state_.map_params.u_min;
      mp.u_max = state_.map_params.u_max;
      mp.v_min = state_.map_params.v_min;
      mp.v_max = state_.map_params.v_max;
    }
  }
  // the speed reached, over windows of about a second
  double now = now_seconds();
  if (speed_t0_ == 0 || is_paused()) {
    speed_t0_ = now;
    speed_sim0_ = state_.time;
  } else if (now - speed_t0_ > 1.0) {
    achieved_speed_ = (state_.time - speed_sim0_) / (now - speed_t0_);
    speed_t0_ = now;
    speed_sim0_ = state_.time;
  }
}

// the per-body buffers and looks (component, colour and size by name or small-body class), for
// a new scene and after bodies were added, removed or merged
void Viewer::body_looks() {
  allocate_buffers();
  const Scene& s = *state_.scene;
  const std::size_t n = state_.n;
  std::vector<float> comp(n), looks(4 * n, 0.0f);
  // the real sky: planets by name, asteroids and comets small and coloured by their SBDB class
  const bool sky = s.body_class.size() == n && n > 0;
  const bool named = !s.bodies.name.empty() && (n <= 64 || sky);
  // the named bodies' orbits as the scene starts, each in its body's colour
  orbit_defs_ = orbit_outlines(s.bodies, s.body_class, s.units.G, 256);
  orbit_colors_.clear();
  for (const OrbitOutline& o : orbit_defs_) {
    glm::vec3 c(0.6f);
    body_color(s.bodies.name[o.body], c);
    orbit_colors_.push_back(c);
  }
  std::vector<glm::vec3> trail_colors;
  for (std::size_t i = 0; i < n; ++i) {
    comp[i] = static_cast<float>(s.bodies.component[i]);
    if (named) {
      glm::vec3 c = render::component_color(static_cast<int>(s.bodies.component[i]));
      float size = 0;
      std::string legend;
      if (sky && !s.body_class[i].empty()) {
        small_body_color(s.body_class[i], c, legend);
        size = 3.0f;
      } else if (i < s.bodies.name.size() && body_color(s.bodies.name[i], c)) {
        size = body_size_px(s.bodies.name[i]);
      }
      if (size == 0) size = 8.0f;
      looks[4 * i] = c.r;
      looks[4 * i + 1] = c.g;
      looks[4 * i + 2] = c.b;
      looks[4 * i + 3] = size;
      trail_colors.push_back(c);
    }
  }
  particles_->upload_components(comp.data(), n);
  particles_->upload_body_looks(looks.data(), n);
  trails_->set_colors(trail_colors);
}

void Viewer::on_new_scene() {
  seen_scene_ = state_.scene_serial;
  seen_edit_ = state_.edit_serial;
  controls.sim.selection.clear();
  controls.sim.pinned.clear();
  controls.sim.probe.reset();
  body_looks();
  const Scene& s = *state_.scene;
  const std::size_t n = state_.n;
  const bool sky = s.body_class.size() == n && n > 0;
  const bool named = !s.bodies.name.empty() && (n <= 64 || sky);

  // look: colour scale from the initial speeds, mass range, sizes by N, components shown
  const Bodies& b = s.bodies;
  std::vector<float> speeds(n);
  for (std::size_t i = 0; i < n; ++i)
    speeds[i] =
        static_cast<float>(std::sqrt(b.vx[i] * b.vx[i] + b.vy[i] * b.vy[i] + b.vz[i] * b.vz[i]));
  controls.style.speed_max = std::max(percentile(speeds, 0.98f) * 1.1f, 1e-30f);
  float mmin = 1e30f, mmax = 0;
  int present[kComponentCount] = {};
  for (std::size_t i = 0; i < n; ++i) {
    auto m = static_cast<float>(b.m[i]);
    if (m > 0) mmin = std::min(mmin, m), mmax = std::max(mmax, m);
    ++present[static_cast<int>(b.component[i])];
  }
  int kinds = 0;
  for (int c = 0; c < kComponentCount; ++c)
    kinds += present[c] > 0;
  controls.style.log_mass_min = std::log10(std::max(mmin, 1e-30f));
  controls.style.log_mass_max = std::log10(std::max(mmax, 1e-30f));
  bool small = n <= 64 || sky;
  controls.style.mass_size = small ? 1.0f : 0.0f;
  // beyond a million bodies the sprites shrink as N^(1/4), to 1 pixel at 16.8M: the brightness
  // is at its floor there, so a crowded frame's light stays nearer the 1M look, and the few
  // raster units of an H100/H200 blend fewer fragments
  const float crowded = std::max(1.0f, 2.0f * std::pow(1048576.0f / static_cast<float>(n), 0.25f));
  controls.style.point_size = small ? 7.0f : (n <= 20000 ? 2.5f : std::min(2.0f, crowded));
  controls.style.brightness = small ? 1.0f : std::clamp(std::sqrt(16384.0f / n), 0.1f, 1.0f) * 0.6f;
  controls.style.color =
      named ? render::ColorMode::Body
            : (small || kinds > 1 ? render::ColorMode::Component : render::ColorMode::Speed);
  // galaxies: the dark halo hidden (it is most of the bodies and no one sees it)
  for (int c = 0; c < kComponentCount; ++c)
    controls.style.component_gain[c] = 1.0f;
  controls.style.component_gain[static_cast<int>(Component::Dark)] = 0.0f;
  controls.tone = {};
  if (lite_) controls.tone.resolution = 0.5f;  // a quarter of the pixels for a CPU rasterizer
  controls.tone.gamma = small ? 1.0f : 1.4f;

  controls.sim.trails = s.trails && trails_possible();
  controls.sim.trail_span = kTrailLength * s.dt;
  camera_.set_home(glm::vec3(0), static_cast<float>(s.camera_distance),
                   static_cast<float>(s.camera_yaw), static_cast<float>(s.camera_pitch));
  camera_.reset();
  controls.follow = controls.follow_group = -1;
  controls.keep_in_view = true;
  keep_ = {};
  keep_.floor = camera_.distance();
  follow_track_ = {};
  controls.labels = named;
  dominant_ = dominant_body(b);
  log_reference_ = static_cast<float>(log_reference_radius(s.bodies, s.body_class, dominant_));
  if (!dmap_.identity()) request(ViewRequest::Fit);  // the home view is for true distances
  controls.sim.merge = s.merge_on_touch;
  // speed: the scene's, or one step per frame at 60 frames/s
  controls.sim.speed = s.speed > 0 ? s.speed : 60.0 * s.dt;
  controls.sim.steps_per_frame = std::max(1, controls.sim.steps_per_frame);
  seen_map_ = -1;
}

void Viewer::on_reset() {
  seen_reset_ = state_.reset_serial;
  // statistics start over
  frame_ms_.clear();
  sim_ms_.clear();
  render_ms_.clear();
  interop_ms_.clear();
  drift_.clear();
  structure_.clear();
  all_frame_ms_.clear();
  all_step_ms_.clear();
  batches_ = 0;
  achieved_speed_ = 0;
  speed_t0_ = 0;
  trails_on_ = false;  // restarted from the first positions that arrive
}

void Viewer::allocate_buffers() {
  // fresh buffers: unregister the old ones first, register the new ones when CUDA can map them
  interop_pos_.reset();
  interop_speed_.reset();
  particles_->resize(state_.n);
  set_path(DataPath::CpuUpload);
  interop_note_.clear();
  if (!cuda_available()) return;
  if (!allow_interop_) {
    set_path(DataPath::HostCopyFallback);
    interop_note_ = "interop off: positions copied device -> host -> GL";
    return;
  }
  std::string why;
  // interop only where GL draws on the simulation's GPU (else it is slow or undefined)
  bool ok = render::gl_on_cuda_device(why) &&
            interop_pos_.register_buffer(particles_->position_buffer(), why) &&
            interop_speed_.register_buffer(particles_->speed_buffer(), why);
  if (!ok) {
    interop_pos_.reset();
    interop_speed_.reset();
    set_path(DataPath::HostCopyFallback);
    interop_note_ = "interop unavailable (" + why + "): positions copied device -> host -> GL";
  } else {
    set_path(DataPath::Interop);
    interop_note_ =
        "CUDA-GL interop: GPU kernels write a device buffer, copied into the vertex buffer on "
        "the device when a step has finished";
  }
}

void Viewer::upload_positions() {
  times_.interop_ms = 0;
  if (!positions_new_) return;
  positions_new_ = false;
  ++uploads_;
  double t0 = now_seconds();
  if (state_.device_data && path_ == DataPath::Interop) {
    try {
      render::InteropMapping mapping({&interop_pos_, &interop_speed_});
      runner_->copy_device_front(mapping.pointer(0), mapping.pointer(1), state_.n);
    } catch (const std::exception& e) {
      error_ = std::string("interop copy failed, copying through the host: ") + e.what();
      set_path(DataPath::HostCopyFallback);
    }
  } else if (xyzm_.size() == 4 * state_.n && particles_->size() == state_.n) {
    particles_->upload_positions(xyzm_.data(), state_.n);
    particles_->upload_speeds(speed_.data(), state_.n);
    // trails start from the first positions of a scene or reset
    if (!trails_on_ && trails_possible()) {
      trails_->reset(state_.n, kTrailLength, xyzm_.data(), 4);
      trail_every_used_ = trail_every();
      trails_on_ = true;
    }
  }
  times_.interop_ms = (now_seconds() - t0) * 1e3;
  interop_ms_.push(static_cast<float>(times_.interop_ms));
}

// picking and labels -------------------------------------------------------------------------

bool Viewer::to_screen(const glm::vec3& p, int width, int height, float& px, float& py) const {
  glm::vec4 c = view_proj_ * glm::vec4(render::map_point(dmap_, p), 1.0f);
  if (!(c.w > 0)) return false;
  px = (c.x / c.w * 0.5f + 0.5f) * static_cast<float>(width);
  py = (1.0f - (c.y / c.w * 0.5f + 0.5f)) * static_cast<float>(height);
  return std::isfinite(px) && std::isfinite(py);
}

bool Viewer::project(std::size_t i, int width, int height, float& px, float& py) const {
  if (4 * i + 3 >= xyzm_.size()) return false;
  return to_screen(glm::vec3(xyzm_[4 * i], xyzm_[4 * i + 1], xyzm_[4 * i + 2]), width, height, px,
                   py);
}

Viewer::ScreenCentre Viewer::screen_centre(const Bodies& b, int width, int height) const {
  ScreenCentre c;
  double sx = 0, sy = 0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (i < b.component.size() &&
        controls.style.component_gain[static_cast<int>(b.component[i])] <= 0)
      continue;
    float px = 0, py = 0;
    const glm::vec3 p(static_cast<float>(b.x[i]), static_cast<float>(b.y[i]),
                      static_cast<float>(b.z[i]));
    if (!to_screen(p, width, height, px, py) || px < 0 || py < 0 || px >= width || py >= height)
      continue;
    sx += px;
    sy += py;
    ++c.inside;
  }
  if (c.inside > 0)
    c.x = sx / static_cast<double>(c.inside), c.y = sy / static_cast<double>(c.inside);
  return c;
}

int Viewer::pick(float px, float py, int width, int height, float radius) const {
  int best = -1;
  float best_d2 = radius * radius;
  std::size_t n = xyzm_.size() / 4;
  for (std::size_t i = 0; i < n; ++i) {
    if (!shown(i)) continue;
    float x = 0, y = 0;
    if (!project(i, width, height, x, y)) continue;
    float d2 = (x - px) * (x - px) + (y - py) * (y - py);
    if (d2 < best_d2) best_d2 = d2, best = static_cast<int>(i);
  }
  return best;
}

// frame --------------------------------------------------------------------------------------

void Viewer::draw(int width, int height) {
  GLint target = 0;
  glGetIntegerv(GL_DRAW_FRAMEBUFFER_BINDING, &target);
  float aspect = static_cast<float>(width) / static_cast<float>(std::max(height, 1));
  // shift the projection centre right of the panel
  glm::mat4 shift = glm::translate(
      glm::mat4(1.0f), glm::vec3(controls.view_offset_px / static_cast<float>(width), 0, 0));
  glm::mat4 view = camera_.view(), proj = shift * camera_.projection(aspect);
  view_proj_ = proj * view;
  last_w_ = width;
  last_h_ = height;

  // diagnostics: each pass finished, timed and its lit HDR pixels counted
  const bool probe = probe_frames_ > 0;
  double probe_t = now_seconds();
  auto mark = [&](const char* pass) {
    if (probe) probe_mark(pass, probe_t);
  };
  if (probe) probe_begin(width, height, target);
  // a frame like the last one (software rasterizers): the kept image is shown again
  const bool keep = keep_frames_ && controls.tone.hdr && !probe;
  std::vector<double> key;
  if (keep) {
    key = draw_key(width, height);
    if (key == drawn_key_ && hdr_->present(static_cast<GLuint>(target))) {
      ++frames_reused_;
      return;
    }
  }
  drawn_key_ = key;

  const glm::vec3 background(0.006f, 0.006f, 0.014f);
  if (controls.tone.hdr) {
    hdr_->begin(width, height, background, controls.tone.resolution);
  } else {
    glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(target));
    glViewport(0, 0, width, height);
    glClearColor(background.r, background.g, background.b, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
  }
  mark("clear");
  // the density overlay and the tree's cells are drawn at true distances only
  if (controls.sim.map_enabled && controls.map_overlay && density_->size() > 0 &&
      dmap_.identity()) {
    const auto& mp = state_.map_params;
    glm::vec4 bounds(mp.u_min, mp.u_max, mp.v_min, mp.v_max);
    density_->draw_overlay(view_proj_, static_cast<int>(mp.plane), bounds,
                           controls.map_overlay_alpha);
    mark("map");
  }
  if (controls.sim.trails && trails_on_) {
    trails_->draw(view_proj_, 1.0f, dmap_);
    mark("trails");
  }
  // sprite sizes follow the frame drawn into (the HDR frame may be smaller than the target)
  const int drawn_h = controls.tone.hdr ? hdr_->height() : height;
  particles_->draw(view, proj, camera_.distance(), static_cast<float>(drawn_h), controls.style,
                   dmap_);
  mark("particles");
  if (controls.sim.tree_boxes && state_.has_tree && dmap_.identity()) {
    boxes_->draw(view_proj_, 0.35f, controls.sim.tree_depth);
    mark("tree cells");
  }
  // orbits about where their attractors are now
  if (controls.orbits && !orbit_defs_.empty() && xyzm_.size() == 4 * state_.n) {
    std::vector<render::Outline> lines;
    for (std::size_t k = 0; k < orbit_defs_.size(); ++k) {
      const OrbitOutline& o = orbit_defs_[k];
      if (4 * o.centre + 2 >= xyzm_.size()) continue;
      const glm::vec3 c(xyzm_[4 * o.centre], xyzm_[4 * o.centre + 1], xyzm_[4 * o.centre + 2]);
      render::Outline l;
      l.color = orbit_colors_[k];
      for (const glm::dvec3& p : o.points)
        l.points.push_back(c + glm::vec3(p));
      lines.push_back(std::move(l));
    }
    orbit_lines_->set(lines);
    orbit_lines_->draw(view_proj_, 0.45f, dmap_);
    mark("orbits");
  }
  if (controls.tone.hdr) {
    hdr_->resolve(static_cast<GLuint>(target), controls.tone, keep);
    mark("tonemap");
  }
  if (probe) probe_end(width, height, target);
}

std::vector<std::string> Viewer::follow_choices() const {
  std::vector<std::string> out;
  const bool host = xyzm_.size() == 4 * state_.n && state_.n > 0;
  const bool measured = state_.structure && !state_.structure->groups.empty();
  if (!host && !measured) return out;
  out.push_back("centre of mass");
  for (const BodyGroup& g : scene().groups)
    out.push_back(g.name);
  return out;
}

bool Viewer::follow_named(const std::string& what, std::string& why) {
  const Scene& s = scene();
  if (what == "centre of mass" || what == "center of mass") {
    controls.follow_group = 0;
    controls.follow = -1;
    return true;
  }
  std::string groups;
  for (std::size_t g = 0; g < s.groups.size(); ++g) {
    if (s.groups[g].name == what) {
      controls.follow_group = static_cast<int>(g) + 1;
      controls.follow = -1;
      return true;
    }
    groups += ", '" + s.groups[g].name + "'";
  }
  for (std::size_t i = 0; i < s.bodies.name.size(); ++i)
    if (s.bodies.name[i] == what) {
      controls.follow = static_cast<int>(i);
      controls.follow_group = -1;
      return true;
    }
  why = "scene '" + s.name + "' has nothing named '" + what + "' to follow: 'centre of mass'" +
        groups + (s.bodies.name.empty() ? "" : " or a body's name");
  return false;
}

bool Viewer::follow_centre(glm::dvec3& c) {
  const std::vector<BodyGroup>& groups = scene().groups;
  const int g = controls.follow_group - 1;  // -1: all bodies
  if (g >= static_cast<int>(groups.size())) return false;
  // exact, from the host copy
  if (xyzm_.size() == 4 * state_.n && state_.n > 0) {
    const std::size_t begin = g < 0 ? 0 : groups[static_cast<std::size_t>(g)].begin;
    const std::size_t end =
        g < 0 ? state_.n : std::min(groups[static_cast<std::size_t>(g)].end, state_.n);
    return mass_centre(xyzm_, begin, end, c);
  }
  // from the structure samples: the group's centre (all: the groups' centres by their bodies)
  if (!state_.structure || state_.structure->reset_serial != state_.reset_serial) return false;
  const StructureSample& s = *state_.structure;
  if (s.groups.empty()) return false;
  glm::dvec3 measured(0);
  if (g >= 0) {
    if (static_cast<std::size_t>(g) >= s.groups.size()) return false;
    const auto& m = s.groups[static_cast<std::size_t>(g)].centre;
    measured = glm::dvec3(m[0], m[1], m[2]);
  } else {
    double count = 0;
    for (const GroupStructure& gs : s.groups) {
      const double w = static_cast<double>(gs.bodies);
      measured += w * glm::dvec3(gs.centre[0], gs.centre[1], gs.centre[2]);
      count += w;
    }
    if (!(count > 0)) return false;
    measured /= count;
  }
  FollowTrack& t = follow_track_;
  if (t.group != controls.follow_group) t = FollowTrack{}, t.group = controls.follow_group;
  if (s.time != t.sample_time) {
    t.t0 = t.t1;
    t.c0 = t.c1;
    t.t1 = s.time;
    t.c1 = measured;
    t.sample_time = s.time;
    ++t.samples;
  }
  c = t.samples >= 2 ? moved_centre(t.t0, t.c0, t.t1, t.c1, state_.time) : t.c1;
  return true;
}

void Viewer::frame(int width, int height) {
  double t = now_seconds();
  if (last_frame_time_ > 0) {
    times_.frame_ms = (t - last_frame_time_) * 1e3;
    frame_ms_.push(static_cast<float>(times_.frame_ms));
    all_frame_ms_.push_back(static_cast<float>(times_.frame_ms));
  }
  last_frame_time_ = t;
  last_w_ = width;
  last_h_ = height;

  // a new distance scale: the view fits the bodies as they are now drawn
  if (controls.distance_scale != drawn_scale_) {
    drawn_scale_ = controls.distance_scale;
    dmap_ = frame_distance_map();
    refit_keeps_follow_ = true;
    request(ViewRequest::Fit);
  }
  apply_requests();
  // a changed trail sampling starts the trails over (old samples had another spacing)
  if (trails_on_ && trail_every() != trail_every_used_) trails_on_ = false;
  runner_->set_controls(controls.sim);
  if (!runner_->threaded()) runner_->run_frame();
  SimUpdate u = runner_->take(state_);
  adopt_state(u);
  // the tree's cells, when the simulation published new ones
  if (state_.tree_version != boxes_version_) {
    std::vector<render::Box> boxes;
    const std::vector<TreeCell> none;
    const std::vector<TreeCell>& cells = state_.tree ? *state_.tree : none;
    boxes.reserve(cells.size());
    for (const TreeCell& t : cells)
      boxes.push_back({static_cast<float>(t.cx), static_cast<float>(t.cy), static_cast<float>(t.cz),
                       static_cast<float>(t.half), t.level});
    boxes_->set(boxes);
    boxes_version_ = state_.tree_version;
  }
  if (controls.sim.trails && !trails_on_ && !xyzm_.empty()) positions_new_ = true;
  upload_positions();
  // follow a body: the camera's target moves with it
  if (controls.follow >= 0 && 4 * static_cast<std::size_t>(controls.follow) + 2 < xyzm_.size()) {
    std::size_t i = static_cast<std::size_t>(controls.follow);
    camera_.set_target(glm::vec3(xyzm_[4 * i], xyzm_[4 * i + 1], xyzm_[4 * i + 2]));
  } else if (controls.follow >= 0) {
    controls.follow = -1;
  }
  // or a centre: of all the mass, or of one of the scene's groups (a galaxy)
  if (controls.follow >= 0) controls.follow_group = -1;
  if (controls.follow_group >= 0) {
    glm::dvec3 c;
    if (follow_centre(c)) camera_.set_target(glm::vec3(c));
  }
  dmap_ = frame_distance_map();
  keep_in_view(t);

  if (timer_valid_) timer_->begin();
  draw(width, height);
  if (timer_valid_) {
    timer_->end();
    times_.render_ms = timer_->last_ms();
    if (timer_->rejected() > 0) {
      // the driver's timer gave an impossible value: say "not measured" from now on
      timer_valid_ = false;
      times_.render_ms = -1;
      render_ms_.clear();
    }
    if (times_.render_ms >= 0) render_ms_.push(static_cast<float>(times_.render_ms));
  } else {
    times_.render_ms = -1;
  }
  ++frames_;
}

}  // namespace nbody::app
