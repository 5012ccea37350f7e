#pragma once
// The visualizer without its window: the UI side of the running simulation. The simulation runs
// in a SimRunner (its own thread in the window; inline, one batch per frame, in the headless
// renderer). The panel edits `controls` and queues requests with their payloads; frame() sends
// the requests and the simulation's controls, takes the latest finished state, puts its positions
// into the GL buffers (upload on the host path, device copy into the mapped buffers on the GPU
// path) and draws into an HDR target that is tone-mapped into the bound framebuffer. Needs a
// current GL 4.5 context; every GL call stays on this thread.

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/runner/sim_runner.hpp"
#include "app/window/controls.hpp"
#include "app/window/gui_logic.hpp"
#include "render/camera.hpp"
#include "render/cell_boxes.hpp"
#include "render/distance_scale.hpp"
#include "render/hdr.hpp"
#include "render/interop.hpp"
#include "render/map_overlay.hpp"
#include "render/orbit_lines.hpp"
#include "render/particle_renderer.hpp"
#include "render/timer.hpp"
#include "render/trails.hpp"
#include "sim/io/io.hpp"

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

/// One group's structure over time for the health section's plots (one point per measurement,
/// about twice a second while the simulation runs).
struct StructureHistory {
  std::string name;
  History r10{600}, r50{600}, r90{600};  ///< Lagrangian radii holding 10, 50, 90 % of the mass
  History thickness{600};                ///< median |z| of the disk bodies (none: empty)
};

/// Where the positions come from.
enum class DataPath { CpuUpload, Interop, HostCopyFallback };
const char* data_path_name(DataPath p);

/// Per-frame numbers.
struct FrameTimes {
  double frame_ms = 0;    ///< wall time between drawn frames
  double sim_ms = 0;      ///< per step of the newest batch (CUDA events / wall)
  double interop_ms = 0;  ///< device copy into the mapped buffers, or upload
  double render_ms = -1;  ///< GL timer query (negative: none valid)
  int steps = 0;          ///< steps of the newest batch (0 when no new state)
};

/// The start-up measurement that chose N and the kernel (shown in the panel).
struct StartupChoice {
  bool measured = false;
  std::string summary;  ///< "N = 4,096 on cpu-symmetric: 12 ms/step measured at start-up"
  std::string details;  ///< every candidate measured
};

class Viewer {
 public:
  /// Starts on `scene` with `params`; `allow_interop` false forces host uploads; `threaded`
  /// runs the simulation on its own thread.
  /// The scene's dt, ε and G apply, replaced by those `override` gives (the command line's).
  Viewer(Scene scene, const SimParams& params, bool allow_interop = true, bool threaded = false,
         const PhysicsOverride& override = {});
  ~Viewer();
  Viewer(const Viewer&) = delete;
  Viewer& operator=(const Viewer&) = delete;

  /// Sends requests and controls, takes the newest state (threaded) or runs one batch
  /// (inline), and draws into the framebuffer bound now, of size width×height.
  void frame(int width, int height);

  // the physics and the kernel are the simulation's: the panel asks for changes and shows
  // what it asked for until the simulation has handled it
  /// The applied parameters (the newest state's).
  const SimParams& params() const { return state_.params; }
  /// dt, ε, G, integrator and 1PN as the panel shows them.
  PhysicsParams physics() const;
  /// Asks the simulation for new physics (applied between steps; refused with a message when
  /// invalid).
  void set_physics(const PhysicsParams& p);
  /// The kernel, precision, GPUs and tunables as the panel shows them.
  KernelChoice kernel_choice() const;
  /// Asks the simulation to switch kernel (or to take new tunables).
  void set_kernel_choice(const KernelChoice& c);

  /// Everything the panel edits (its widgets bind to these fields; the simulation's part goes
  /// to the simulation thread whole, once per frame).
  Controls controls;
  /// Queues a request for the simulation (applied in order at the start of the next frame).
  void request(SimRequest r);
  /// Queues a camera action (applied after the simulation's requests in the next frame).
  void request(ViewRequest r) { view_requests_.push_back(r); }
  /// The log distance mapping of the last frame (controls.distance_scale; labels, picking and
  /// the scale bar use it).
  const render::DistanceMap& distance_map() const { return dmap_; }
  /// Whether this scene has orbits to draw (named bodies on closed orbits, host positions).
  bool has_orbits() const { return !orbit_defs_.empty(); }
  /// What controls.follow_group can be: "centre of mass" then the groups' names; empty when
  /// nothing can be followed (no host positions and no structure measured). The centre is exact
  /// from the host positions where the window has them, else from the structure measurements
  /// (twice a second) moved on at their velocity.
  std::vector<std::string> follow_choices() const;
  /// Follows "centre of mass", a group of the scene or a body by name; false with `why` when the
  /// scene has none of that name.
  bool follow_named(const std::string& what, std::string& why);
  StartupChoice startup;

  // state for the panel (the newest finished state)
  const SimState& state() const { return state_; }
  const Scene& scene() const { return *state_.scene; }
  /// Whether body i is drawn: its component's gain is above 0 (a body the scene's component
  /// list does not reach, e.g. one added since, is).
  bool shown(std::size_t i) const {
    const std::vector<Component>* c = state_.scene ? &state_.scene->bodies.component : nullptr;
    return !c || i >= c->size() || controls.style.component_gain[static_cast<int>((*c)[i])] > 0;
  }
  std::size_t size() const { return state_.n; }
  render::OrbitCamera& camera() { return camera_; }
  DataPath data_path() const { return path_; }
  const std::string& interop_note() const { return interop_note_; }
  const std::string& message() const { return message_; }
  const std::string& error() const { return error_; }
  void set_message(std::string m) { message_ = std::move(m); }
  void clear_error() { error_.clear(); }
  bool is_paused() const { return controls.sim.paused || state_.health_paused; }
  bool threaded() const { return runner_->threaded(); }
  double batch_running_s() const { return runner_->batch_running_s(); }
  int batch_running_steps() const { return runner_->batch_running_steps(); }
  const FrameTimes& times() const { return times_; }
  const History& frame_history() const { return frame_ms_; }
  const History& sim_history() const { return sim_ms_; }
  const History& render_history() const { return render_ms_; }
  const History& interop_history() const { return interop_ms_; }
  const History& drift_history() const { return drift_; }
  /// Per group, since the last new scene or reset (empty when the scene has no groups or disk).
  const std::vector<StructureHistory>& structure_history() const { return structure_; }
  /// The newest activity map (empty before the first).
  const ActivityMap& activity() const;
  const ActivityMapParams& activity_params() const { return state_.map_params; }
  const render::DensityTexture& density() const { return *density_; }
  bool trails_possible() const { return state_.n <= kMaxTrailBodies; }
  const std::vector<CompareOutcome>& compare_results() const { return state_.compare_results; }
  /// A comparison runs, or one is queued.
  bool comparing() const;
  const std::string& compare_status() const { return state_.compare_status; }
  /// Frames drawn per second (median of the recent frame intervals); 0 before two frames.
  double fps() const;
  /// Interactions per second of the current kernel from its own step time; 0 when paused.
  double interactions_per_s() const;
  /// Simulated time per real second actually reached over the last seconds.
  double achieved_speed() const { return achieved_speed_; }
  long long frames() const { return frames_; }
  /// Whether GL timer queries measure the GPU's work here (not under a software rasterizer).
  bool render_timing_valid() const { return timer_valid_; }
  /// Whether a software rasterizer (llvmpipe) draws.
  bool software_rendering() const { return software_; }
  /// The cheaper pipeline (off by default; the window turns it on under a software
  /// rasterizer): the HDR frame at half resolution for each new scene, and a view that has not
  /// changed is not drawn again (its kept image is shown).
  void set_lite_render(bool on) {
    lite_ = keep_frames_ = on;
    controls.tone.resolution = on ? 0.5f : 1.0f;
  }
  bool lite_render() const { return lite_; }
  /// Whether controls.keep_in_view may move the camera (headless frames: no).
  void allow_keep_in_view(bool on) { keep_allowed_ = on; }
  /// Frames whose view had not changed and whose kept image was shown again (software
  /// rasterizers; app/window/viewer_draw.cpp).
  long long frames_reused() const { return frames_reused_; }
  /// What log distances are measured from: the followed body or centre, else the heaviest
  /// body ("the Sun"), else "the origin".
  std::string distance_centre_name() const;
  /// Statistics since the last new scene or reset (for --stats): every frame interval and
  /// every batch's per-step time.
  const std::vector<float>& all_frame_ms() const { return all_frame_ms_; }
  const std::vector<float>& all_step_ms() const { return all_step_ms_; }
  long long batches() const { return batches_; }

  /// The current bodies in double precision; inline runs only (throws nbody::Error when the
  /// simulation has its own thread).
  Bodies bodies_inline() { return runner_->bodies_inline(); }
  /// Host positions of the bodies (x, y, z, mass), when this path keeps them (small scenes).
  const std::vector<float>& host_positions() const { return xyzm_; }
  /// Screen position in pixels (origin top-left) of body i in a width×height view; false when
  /// behind the camera or unknown.
  bool project(std::size_t i, int width, int height, float& px, float& py) const;
  /// The body drawn nearest to (px, py) within `radius` pixels; -1 when none.
  int pick(float px, float py, int width, int height, float radius) const;
  /// Where `bodies` (shown components only) fall in the last frame of width×height: their
  /// mean screen position (pixels, origin top-left) over those inside it; `inside` counts them.
  struct ScreenCentre {
    double x = -1, y = -1;
    long inside = 0;
  };
  ScreenCentre screen_centre(const Bodies& bodies, int width, int height) const;
  /// The projection of the last frame (for labels and the scale bar).
  const glm::mat4& last_view_proj() const { return view_proj_; }
  int last_width() const { return last_w_; }
  int last_height() const { return last_h_; }

  // hands on (issue 19; app/window/viewer_edit.cpp): edits, undo, the timeline, selection,
  // saving (the selection, pinned bodies, probe and merging are in controls.sim)
  /// Queues an edit (applied between steps, undoable). Edits of one gesture (a drag) share a
  /// `gesture` id from new_gesture() and are one undo step; the last one sets `gesture_end`.
  void edit(Edit e, long long gesture = 0, bool gesture_end = false);
  long long new_gesture() { return ++gesture_ids_; }
  void undo();
  void redo();
  /// Back to the kept snapshot at or before simulated time t (state().timeline lists them).
  void rewind(double t);
  /// Selects the body drawn nearest (px, py) within `radius` pixels (none: clears), or every
  /// body in the box; `additive` adds to the selection. Answered by the simulation.
  /// Coordinates are pixels of a width×height view (origin top-left), as for project().
  void select_at(float px, float py, float radius, bool additive, int width, int height);
  void select_box(float x0, float y0, float x1, float y1, bool additive, int width, int height);
  /// Writes the whole state (bodies, time, physics, kernel) with `writer` (the window's: it
  /// adds the camera, view_values()); `path` names it in the message.
  void save_state(const std::string& path,
                  std::function<void(const Scene&, const SimParams&, double, long long)> writer);
  /// Starts the state saved in `path` (bodies, time, physics, kernel; the camera when the new
  /// scene arrives); a file that is not a native one goes through the usual load.
  void load_state(const std::string& path);
  /// Plays `lesson` on the running scene (null: stops); `restart` first starts its own scene
  /// with its dt and softening, and its speed.
  void play_lesson(std::shared_ptr<const Lesson> lesson, bool restart);
  /// The lesson's caption to show now ("" when none), and the lesson playing ("" when none).
  std::string caption() const;
  const std::string& lesson_title() const { return state_.lesson_title; }
  /// The camera as named values (stored in a saved state) and back.
  std::map<std::string, double> view_values() const;
  void apply_view_values(const std::map<std::string, double>& v);
  /// The point under (px, py) of the last frame (a width×height view) on the plane through
  /// `anchor` with `normal` (zero: the plane facing the camera), for placing and moving bodies.
  glm::vec3 unproject(float px, float py, const glm::vec3& anchor, int width, int height,
                      const glm::vec3& normal = glm::vec3(0.0f)) const;
  /// Screen position (pixels of a width×height view, origin top-left) of the point p through
  /// the last frame's projection; false when behind the camera.
  bool world_to_screen(const glm::vec3& p, int width, int height, float& px, float& py) const {
    return to_screen(p, width, height, px, py);
  }
  /// Position of body i as last drawn (host copy or its card); false when unknown.
  bool body_position(std::size_t i, glm::vec3& p) const;
  /// The card of body i, when the simulation has measured it.
  const BodyCard* card(std::size_t i) const;

  /// Diagnostics (--gl-debug): the next `frames` frames finish every pass and print its time
  /// and the lit pixels of the HDR frame after it (slow; for finding a broken pass).
  void probe_passes(int frames) { probe_frames_ = frames; }

  static constexpr std::size_t kMaxTrailBodies = 2048;
  static constexpr int kTrailLength = app::kTrailLength;

 private:
  /// The centre follow_group names, now; false when it cannot be told.
  bool follow_centre(glm::dvec3& c);
  void apply_requests();
  void apply_view_request(ViewRequest r);
  // keeping the bodies in view (controls.keep_in_view; app/window/viewer_view.cpp)
  /// At most `most` of the shown bodies' positions as drawn (x, y, z, 1 interleaved; the
  /// distance map applied), spread over all of them: from the host copy, or read back from the
  /// vertex buffer on the device path. Empty when there are none.
  std::vector<float> drawn_sample(std::size_t most) const;
  /// The camera turned to frame `sample` in the part of the window the panel leaves free.
  render::OrbitCamera fitted(const std::vector<float>& sample) const;
  /// The share of `sample` that the last frame drew in the part of the window the panel leaves.
  float inside_share(const std::vector<float>& sample) const;
  /// Twice a second: is the picture still framed? If not, the camera eases towards the fit.
  void keep_in_view(double now);
  struct KeepView {
    bool moving = false;  ///< easing towards target/distance
    glm::vec3 target{0.0f};
    float distance = 0;
    float floor = 0;  ///< never nearer than the view it was handed (home, or F's fit)
    float base = -1;  ///< the sample's share in the picture at the hand-over (-1: not yet)
    double checked = -1, last = -1;  ///< the last check, the last frame (seconds)
  } keep_;
  bool keep_allowed_ = true;
  void adopt_state(const SimUpdate& u);
  void on_new_scene();
  void body_looks();
  void on_bodies_changed();
  void adopt_edits();
  void on_reset();
  void allocate_buffers();
  /// The data path, and whether the simulation may write the device staging.
  void set_path(DataPath p) {
    path_ = p;
    controls.sim.device_output_ok = p == DataPath::Interop;
  }
  void upload_positions();
  void draw(int width, int height);
  /// Screen position (pixels, origin top-left) of p through the last frame's projection.
  bool to_screen(const glm::vec3& p, int width, int height, float& px, float& py) const;
  int trail_every() const;
  /// The distance mapping for this frame (after the camera follows).
  render::DistanceMap frame_distance_map() const;
  // app/window/viewer_draw.cpp: what a frame's picture depends on (equal: the kept image is
  // still right), and the --gl-debug pass diagnostics
  std::vector<double> draw_key(int width, int height) const;
  void probe_begin(int width, int height, GLint target);
  void probe_mark(const char* pass, double& since);
  void probe_end(int width, int height, GLint target);

  std::unique_ptr<render::ParticleRenderer> particles_;
  std::unique_ptr<render::Trails> trails_;
  std::unique_ptr<render::CellBoxes> boxes_;
  std::unique_ptr<render::OrbitLines> orbit_lines_;
  // the orbits of the scene as started (dropped when bodies are added or removed)
  std::vector<OrbitOutline> orbit_defs_;
  std::vector<glm::vec3> orbit_colors_;
  long long boxes_version_ = -1;
  std::unique_ptr<render::DensityTexture> density_;
  std::unique_ptr<render::GpuTimer> timer_;
  std::unique_ptr<render::HdrTarget> hdr_;
  render::InteropBuffer interop_pos_, interop_speed_;
  render::OrbitCamera camera_;
  bool allow_interop_;
  bool timer_valid_ = true;
  int probe_frames_ = 0;
  DataPath path_ = DataPath::CpuUpload;
  std::string interop_note_, message_, error_;

  SimState state_;
  long long seen_scene_ = 0, seen_reset_ = 0, seen_error_ = 0, seen_message_ = 0;
  std::optional<PhysicsParams> shown_physics_;  // asked for, not yet handled
  std::optional<KernelChoice> shown_choice_;
  long long physics_sent_ = 0, kernel_sent_ = 0;  // requests sent (see SimState)
  long long seen_map_ = -1;
  long long seen_edit_ = 0, seen_selection_ = 0, gesture_ids_ = 0, seen_view_ = 0;
  std::string caption_;
  double caption_until_ = 0;  // monotonic seconds
  void lesson_actions(const SimUpdate& u);
  std::vector<SimRequest> queued_;  // sent in frame(), in the order they were made
  std::vector<ViewRequest> view_requests_;
  std::vector<float> xyzm_, speed_;  // host copy (host path)
  // the last two structure samples' centres (device path), for moving the followed centre on
  struct FollowTrack {
    double t0 = 0, t1 = 0;
    glm::dvec3 c0{0}, c1{0};
    int samples = 0, group = -1;
    double sample_time = -1;
  } follow_track_;
  bool positions_new_ = false;
  bool health_paused_seen_ = false;
  bool trails_on_ = false;
  int trail_every_used_ = 1;

  FrameTimes times_;
  History frame_ms_, sim_ms_, render_ms_, interop_ms_, drift_{600};
  std::vector<StructureHistory> structure_;
  std::vector<float> all_frame_ms_, all_step_ms_;
  long long batches_ = 0;
  double last_frame_time_ = -1;
  long long frames_ = 0;
  double achieved_speed_ = 0, speed_t0_ = 0, speed_sim0_ = 0;
  glm::mat4 view_proj_{1.0f};
  render::DistanceMap dmap_;
  render::DistanceScale drawn_scale_ = render::DistanceScale::True;
  float log_reference_ = 1;  // R of the log map: the scene's outer bodies (set per scene)
  int dominant_ = -1;        // the body with most of the mass (the Sun), -1: none
  bool refit_keeps_follow_ = false;
  // software rasterizers: the last drawn frame is kept and shown again while nothing changed
  bool software_ = false, lite_ = false, keep_frames_ = false;
  std::vector<double> drawn_key_;
  long long uploads_ = 0, frames_reused_ = 0;
  int last_w_ = 1, last_h_ = 1;

  std::unique_ptr<SimRunner> runner_;  // last: joined first
};

}  // namespace nbody::app
