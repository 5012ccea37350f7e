#pragma once
// The visualizer without its window: the running simulation, the renderer and the per-frame
// logic shared by the GLFW window and the headless (EGL) renderer. The panel edits the public
// settings and raises flags in `pending`; frame() applies them at one point, then simulates
// (writing positions into the GL buffers through CUDA interop on the GPU path, uploading them
// on the CPU path) and draws into the bound framebuffer. Needs a current GL 4.5 context.

#include <deque>
#include <future>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "render/camera.hpp"
#include "render/interop.hpp"
#include "render/map_overlay.hpp"
#include "render/particle_renderer.hpp"
#include "render/timer.hpp"
#include "render/trails.hpp"
#include "sim/activity_map.hpp"
#include "sim/diagnostics.hpp"
#include "sim/io/io.hpp"
#include "sim/simulation.hpp"

namespace nbody::app {

/// A fixed-length history of values for the panel's plots.
class History {
 public:
  explicit History(std::size_t capacity = 240) : capacity_(capacity) {}
  void push(float v);
  void clear() { values_.clear(); }
  const std::vector<float>& values() const { return values_; }
  float last() const { return values_.empty() ? 0.0f : values_.back(); }
  /// Median of the stored values (0 when empty).
  float median() const;
  float max() const;

 private:
  std::size_t capacity_;
  std::vector<float> values_;
};

/// Structural changes asked for by widgets and keys; applied at one point in frame().
struct PendingRequest {
  bool make_preset = false;  ///< rebuild the scene from preset_name / preset_params
  bool load_file = false;    ///< load load_path with load_options
  bool switch_kernel = false;
  bool reset = false;
  bool single_step = false;
  bool fit_view = false;
  bool reset_view = false;
  bool fit_map = false;
  bool compare = false;  ///< start the kernel comparison
};

/// Activity-density map settings (the panel edits them).
struct MapSettings {
  bool enabled = true;
  bool overlay = false;
  float overlay_alpha = 0.5f;
  int every = 2;  ///< update every k frames
  ActivityMapParams params;
};

/// Where the positions come from each frame.
enum class DataPath { CpuUpload, Interop, HostCopyFallback };

/// Per-frame numbers.
struct FrameTimes {
  double frame_ms = 0;    ///< wall time between frames
  double sim_ms = 0;      ///< per step (CUDA events / wall)
  double interop_ms = 0;  ///< map + unmap (interop) or download + upload (other paths)
  double render_ms = 0;   ///< GL timer query
  int steps = 0;          ///< steps done this frame
};

/// One bar of the kernel comparison.
struct CompareResult {
  std::string kernel;
  double interactions_per_s = 0;
};

class Viewer {
 public:
  /// Starts on `scene` with `params`; `allow_interop` false forces host uploads.
  Viewer(Scene scene, const SimParams& params, bool allow_interop = true);
  ~Viewer();
  Viewer(const Viewer&) = delete;
  Viewer& operator=(const Viewer&) = delete;

  /// Applies pending requests, advances the simulation (unless paused) and draws into the bound
  /// framebuffer of size width×height.
  void frame(int width, int height);

  // settings the panel edits
  SimParams params;
  render::ParticleStyle style;
  MapSettings map;
  bool paused = false;
  bool trails_enabled = false;
  int trail_length = 400;
  int health_every = 30;     ///< frames between health checks
  float view_offset_px = 0;  ///< the 3D view's centre moves right by this many pixels (panel)
  PendingRequest pending;
  // scene requests
  std::string preset_name;
  SceneParams preset_params;
  std::string load_path;
  io::LoadOptions load_options;

  // state for the panel
  Simulation& sim() { return *sim_; }
  const Scene& scene() const { return sim_->scene(); }
  render::OrbitCamera& camera() { return camera_; }
  DataPath data_path() const { return path_; }
  const std::string& interop_note() const { return interop_note_; }
  const std::string& message() const { return message_; }
  const std::string& error() const { return error_; }
  void set_message(std::string m) { message_ = std::move(m); }
  const FrameTimes& times() const { return times_; }
  const History& frame_history() const { return frame_ms_; }
  const History& sim_history() const { return sim_ms_; }
  const History& render_history() const { return render_ms_; }
  const History& interop_history() const { return interop_ms_; }
  const History& drift_history() const { return drift_; }
  const std::optional<Diagnostics>& last_diagnostics() const { return diag_; }
  double initial_energy() const { return e0_; }
  const ActivityMap& activity() const { return activity_; }
  const render::DensityTexture& density() const { return *density_; }
  bool trails_possible() const { return sim_->size() <= kMaxTrailBodies; }
  const std::vector<CompareResult>& compare_results() const { return compare_results_; }
  bool comparing() const { return !compare_queue_.empty() || compare_active_; }
  std::string compare_status() const;
  double fps() const;
  /// Interactions per second of the current kernel (its counted work / sim time per step).
  double interactions_per_s() const;
  long long frames() const { return frames_; }

  static constexpr std::size_t kMaxTrailBodies = 2048;

 private:
  void apply_pending();
  void start_scene(Scene scene);
  void switch_kernel();
  void allocate_buffers();
  void upload_from_host();
  void refresh_host_cache();
  void simulate();
  void check_health();
  void update_map();
  void fit_map_bounds();
  void step_compare(double frame_ms);
  void draw(int width, int height);

  std::unique_ptr<Simulation> sim_;
  std::unique_ptr<render::ParticleRenderer> particles_;
  std::unique_ptr<render::Trails> trails_;
  std::unique_ptr<render::DensityTexture> density_;
  std::unique_ptr<render::GpuTimer> timer_;
  render::InteropBuffer interop_pos_, interop_speed_;
  render::OrbitCamera camera_;
  bool allow_interop_;
  DataPath path_ = DataPath::CpuUpload;
  std::string interop_note_, message_, error_;
  std::string current_kernel_;
  Precision current_precision_ = Precision::Float;

  // host copies for uploads, fits and trails
  std::vector<float> xyzm_, speed_;
  bool host_fresh_ = false;

  // timings and health
  FrameTimes times_;
  History frame_ms_, sim_ms_, render_ms_, interop_ms_, drift_{600};
  double last_frame_time_ = -1;
  long long frames_ = 0;
  double e0_ = 0;
  bool have_e0_ = false;
  std::optional<Diagnostics> diag_;
  std::future<Diagnostics> diag_future_;
  long long diag_generation_ = 0, future_generation_ = 0;

  ActivityMap activity_;

  // kernel comparison
  std::deque<std::string> compare_queue_;
  bool compare_active_ = false;
  std::string compare_restore_;
  double compare_elapsed_ms_ = 0, compare_sim_ms_ = 0;
  long long compare_steps_ = 0;
  std::vector<CompareResult> compare_results_;
};

/// Seconds on a monotonic clock.
double now_seconds();

}  // namespace nbody::app
