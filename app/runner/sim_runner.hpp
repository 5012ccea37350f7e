#pragma once
// The simulation beside the UI (MuJoCo `simulate` model): a physics thread owns the Simulation
// (and so the active kernel), applies the requests the UI queues under a lock between steps,
// paces the steps to the chosen speed, and publishes the latest finished state. The UI thread
// takes that state when it draws and never waits for a step.
//
// Data paths: small scenes and CPU kernels publish host positions (float x, y, z, mass and
// speed) that the UI uploads; GPU kernels whose output the UI can map write into device staging
// buffers (two, swapped at publish), which the UI copies into its mapped vertex buffers.
//
// Without a thread (`threaded` false: the headless renderer and tests) run_frame() applies the
// requests and runs one batch of params.steps_per_frame steps in the caller.

#include <array>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "app/runner/monitors.hpp"
#include "render/distance_scale.hpp"
#include "render/interop.hpp"
#include "sim/analysis/accuracy_probe.hpp"
#include "sim/analysis/activity_map.hpp"
#include "sim/analysis/diagnostics.hpp"
#include "sim/analysis/kernel_compare.hpp"
#include "sim/analysis/structure.hpp"
#include "sim/core/backend.hpp"
#include "sim/core/scene.hpp"
#include "sim/core/simulation.hpp"
#include "sim/edit/body_card.hpp"
#include "sim/edit/collisions.hpp"
#include "sim/edit/edit.hpp"
#include "sim/edit/preview.hpp"
#include "sim/edit/timeline.hpp"
#include "sim/lesson/lesson.hpp"

namespace nbody::app {

/// The simulation's part of the panel's settings (app/window/controls.hpp): continuous values,
/// no structural change. The window owns them inside its `Controls` and hands them over whole
/// every frame; the simulation thread reads its copy between batches.
struct SimControls {
  int steps_per_frame = 1;  ///< steps of an inline batch (the headless renderer, tests)
  bool paused = false;
  double speed = 0;        ///< simulated time per real second (threaded runs)
  bool max_speed = false;  ///< as many steps as the kernel manages (threaded runs)
  bool trails = false;     ///< sample host positions for trails (scenes up to 2,048 bodies)
  double trail_span = 0;   ///< simulated time a trail covers (trail_every() spaces the samples)
  bool map_enabled = false;
  bool map_follow = true;  ///< refit the map bounds to the bodies about once a second
  ActivityMapParams map;
  bool health = true;              ///< energy, NaN/Inf and structure checks about twice a second
  bool accuracy = true;            ///< force error vs the direct sum every few seconds
  bool tree_boxes = false;         ///< publish the tree kernel's cells for the wireframe
  int tree_depth = 4;              ///< deepest level of cells published
  double debug_step_delay_ms = 0;  ///< sleeps this long per batch (tests of a slow step)
  /// The window can map its buffers (device staging path allowed); set by the window when its
  /// data path changes, not by the panel.
  bool device_output_ok = false;
  // hands on (issue 19)
  std::vector<std::size_t> selection;  ///< selected bodies: highlighted, their cards published
  std::vector<std::size_t> pinned;     ///< bodies whose cards stay open
  bool merge = false;                  ///< merge bodies that touch, before every batch
  MergeRule merge_rule;
  std::optional<BodySpec> probe;  ///< a body being placed: its predicted path is published
  int timeline_budget_mb = 256;   ///< memory the timeline's snapshots may take
};

/// The bodies whose cards the simulation measures: the pinned, then the selected ones (at most
/// 16, no repeats).
std::vector<std::size_t> inspected(const SimControls& c);
/// Steps between trail samples so that kTrailLength samples cover `span` at step `dt`.
int trail_every(double span, double dt);
/// Samples a trail keeps.
inline constexpr int kTrailLength = 1000;

/// Which bodies a Select request chooses: the one drawn nearest a point, or all in a box, as
/// projected by `view_proj` into a width×height view (pixels, origin top-left).
struct Selector {
  bool box = false;
  float x0 = 0, y0 = 0, x1 = 0, y1 = 0;  ///< the point (x0, y0) or the box's corners
  float radius = 14;                     ///< pixels around the point
  std::array<float, 16> view_proj{};     ///< column-major, as glm::mat4
  int width = 1, height = 1;
  std::vector<bool> shown;   ///< per component, whether it is drawn (empty: all)
  render::DistanceMap dmap;  ///< where the bodies are drawn (true or log distances)
};

/// A structural change queued by the UI and applied by the simulation thread between steps.
/// Each kind carries its own payload; the simulation owns the physics (dt, ε, G, integrator,
/// 1PN) and the kernel choice, and changes them only by request.
struct SimRequest {
  enum class Kind {
    Scene,
    Reset,
    SwitchKernel,
    SetPhysics,
    SingleStep,
    Compare,
    Resume,
    FitMap,
    Edit,       ///< applies `edit` (undoable)
    Undo,       ///< restores the state before the last edit
    Redo,       ///< restores the state after the edit undone last
    Rewind,     ///< back (or forward) to the kept snapshot at or before `time`
    Select,     ///< publishes the bodies `selector` chooses (SimState::selection)
    Save,       ///< writes the whole state with `save`
    LoadState,  ///< starts the state saved in `path` (bodies, time, physics, kernel, view)
    Lesson      ///< plays `lesson` on the running scene (its events from the current time)
  };
  Kind kind = Kind::Reset;
  std::function<Scene()> make;  ///< Scene: builds the scene (on the simulation thread)
  std::string what;             ///< Scene: "scene plummer", "file a.csv" (messages)
  /// Scene: the values that replace the scene's dt, ε and G (the command line's, for the first
  /// scene; none for the panel's scenes).
  PhysicsOverride override;
  /// Scene: a scene chosen in the panel; a real-sky scene then starts with its best model
  /// (its integrator, double precision where the kernel has it, the 1PN term).
  bool scene_defaults = false;
  KernelChoice choice;                ///< SwitchKernel: kernel, precision, GPUs and tunables
  PhysicsParams physics;              ///< SetPhysics: the new physics (validated on arrival)
  std::vector<CompareEntry> entries;  ///< Compare: what to compare (empty: compare_entries())
  nbody::Edit edit;                   ///< Edit
  /// Edit: edits of one gesture (a drag moving bodies) share an id > 0 and are one undo step;
  /// the gesture's last edit has `gesture_end` set.
  long long gesture = 0;
  bool gesture_end = false;
  double time = 0;        ///< Rewind
  Selector selector;      ///< Select
  bool additive = false;  ///< Select: added to the current selection
  /// Save: writes the current bodies, the applied parameters, the time and the steps (the
  /// window's writer: app/core/state_file.hpp, with its camera); throws nbody::Error.
  std::function<void(const Scene&, const SimParams&, double, long long)> save;
  std::string path;                             ///< Save: for the message; LoadState: the file
  std::shared_ptr<const nbody::Lesson> lesson;  ///< Lesson (null: stop playing)

  /// A request of kind `k` with no payload (Reset, SingleStep, Resume, FitMap, Undo, Redo).
  static SimRequest of(Kind k) {
    SimRequest r;
    r.kind = k;
    return r;
  }
};

/// The simulation's state as the UI sees it. The simulation thread keeps one, written in place
/// (each monitor writes its part: app/runner/monitors.hpp), and publishes a copy of it after
/// each batch; the positions move instead of being copied, and the large arrays (the map, the
/// tree's cells) are shared, immutable, between the copies.
struct SimState {
  long long version = 0;               ///< increments with every publish
  long long scene_serial = 0;          ///< increments with every new scene
  long long reset_serial = 0;          ///< increments with every new scene or reset
  std::shared_ptr<const Scene> scene;  ///< the scene as started (names, components, units)
  std::size_t n = 0;
  std::string kernel;  ///< the active kernel (Simulation owns it)
  Precision precision = Precision::Float;
  bool kernel_gpu = false;
  SimParams params;  ///< the applied physics and kernel choice (the simulation owns them)
  /// SetPhysics and SwitchKernel requests handled so far (applied or refused): a UI that sent
  /// k of them shows its own values until the count reaches k.
  long long physics_requests = 0, kernel_requests = 0;
  double time = 0;
  long long steps = 0;
  double step_ms = 0;       ///< per step of the last batch, the kernel's own timing
  int batch_steps = 0;      ///< steps of the last batch
  StepWork work;            ///< the kernel's own count of its last step (interactions, phases)
  double interactions = 0;  ///< force interactions per step (work.interactions)
  double flops_per_interaction = 20;
  bool behind = false;  ///< the kernel cannot keep up with the chosen speed
  // positions: host arrays or the device staging (copy_device_front())
  bool host_data = false;
  std::vector<float> xyzm, speed;
  bool device_data = false;
  // health
  bool health_paused = false;
  std::string pause_reason;
  std::optional<Diagnostics> diag;
  double e0 = 0;
  /// Structure of the groups (scenes with groups or disk bodies: `shows_structure`), measured
  /// with the health checks off this thread.
  bool shows_structure = false;
  std::optional<StructureSample> structure;
  // accuracy of the active kernel: per-body force error vs the direct sum on a sample
  std::optional<AccuracyReport> accuracy;
  double accuracy_wall = 0;  ///< monotonic seconds when it was measured
  // tree kernels: the cells of the last tree (when SimControls::tree_boxes; null: none)
  bool has_tree = false;
  long long tree_version = 0;
  std::shared_ptr<const std::vector<TreeCell>> tree;
  // activity map (null: none yet)
  long long map_version = 0;
  std::shared_ptr<const ActivityMap> map;
  ActivityMapParams map_params;  ///< bounds the map was computed with
  // kernel comparison
  bool comparing = false;
  std::string compare_status;
  std::vector<CompareOutcome> compare_results;
  // hands on (issue 19)
  long long edit_serial = 0;    ///< increments when bodies are added, removed or merged
  std::vector<BodyCard> cards;  ///< of SimControls::inspect (as the simulation last measured)
  std::vector<std::array<float, 3>> preview;          ///< predicted path of SimControls::probe
  long long selection_serial = 0;                     ///< increments with every Select handled
  std::vector<std::size_t> selection;                 ///< the bodies the last Select chose
  bool additive_selection = false;                    ///< the last Select adds to the selection
  std::vector<std::string> undo_labels, redo_labels;  ///< newest last
  std::vector<double> timeline;                       ///< times of the kept snapshots
  std::size_t timeline_bytes = 0;
  long long mergers = 0;  ///< bodies merged away since the scene started
  /// A loaded state's view (camera), applied by the UI once per serial.
  long long view_serial = 0;
  std::map<std::string, double> view;
  std::string lesson_title;  ///< the lesson playing ("" when none)
  // the latest error and message, with serials so the UI reports each once
  std::string error, message;
  long long error_serial = 0, message_serial = 0;

  /// Sets the error (the UI reports it once).
  void report_error(std::string e) {
    error = std::move(e);
    ++error_serial;
  }
  /// Sets the message (the UI shows it once).
  void report_message(std::string m) {
    message = std::move(m);
    ++message_serial;
  }
};

/// What accumulated since the UI's previous take(): trail samples and energy-drift points.
struct SimUpdate {
  bool fresh = false;        ///< the state is newer than the previous take
  std::vector<float> trail;  ///< trail_samples × n × 3 floats, oldest first
  int trail_samples = 0;
  std::vector<float> drift;                ///< |dE/E0| values
  std::vector<StructureSample> structure;  ///< structure measurements, oldest first
  /// The lesson's actions for the UI (pause, speed, follow, caption, collisions, end, error),
  /// oldest first; edits are applied by the simulation itself.
  std::vector<LessonAction> lesson;
};

class SimRunner {
 public:
  /// Starts on `scene` with the kernel choice, integrator and 1PN of `params` and the scene's
  /// dt, ε and G, replaced by those `override` gives (throws nbody::Error when the scene or
  /// kernel is bad); `threaded` starts the simulation thread.
  SimRunner(Scene scene, const SimParams& params, bool threaded,
            const PhysicsOverride& override = {});
  /// Stops and joins the thread.
  ~SimRunner();
  SimRunner(const SimRunner&) = delete;
  SimRunner& operator=(const SimRunner&) = delete;

  /// Replaces the controls (UI thread, once per frame).
  void set_controls(const SimControls& c);
  /// Queues a request.
  void request(SimRequest r);
  /// Moves the newest state into `state` when there is one (the UI's copy is recycled as the
  /// next buffer) and hands over what accumulated since the last take.
  SimUpdate take(SimState& state);
  /// Without a thread: applies requests, runs one batch of params.steps_per_frame steps (unless
  /// paused) and publishes.
  void run_frame();
  /// Copies the device staging of the newest state (float4 positions, float speeds of n bodies)
  /// to `positions` and `speeds` (device pointers, e.g. mapped GL buffers). False when the
  /// newest state is not on the device or has another N.
  bool copy_device_front(void* positions, void* speeds, std::size_t n);

  bool threaded() const { return threaded_; }
  /// The current bodies (double); only without a thread (throws nbody::Error otherwise).
  Bodies bodies_inline();
  /// Seconds the running batch has taken so far (0 when none runs), and its step count.
  double batch_running_s() const;
  int batch_running_steps() const;

  /// Bounds of the activity map fitted to the bodies in the map's plane: centred on the median,
  /// half-width the 90th percentile distance plus 10 %.
  static void fit_map_bounds(const Bodies& b, ActivityMapParams& p);

 private:
  void loop();
  void apply_requests(std::unique_lock<std::mutex>& lk);
  void apply(const SimRequest& r);
  void apply_reset();
  void apply_switch_kernel(const SimRequest& r);
  void start_scene(Scene scene, const PhysicsOverride& override, const std::string& what,
                   bool scene_defaults = false);
  long long plan_batch(const SimControls& c, bool single, double& wait_s);
  void run_batch(const SimControls& c, long long steps);
  void run_steps(const SimControls& c, long long steps, bool device);
  /// Calls every monitor (and measures the inspected bodies' cards).
  void monitor(const SimControls& c);
  /// Every monitor forgets the previous scene, run or kernel.
  void forget(Forget what);
  /// Writes what the simulation, the undo stack and the timeline own into live_ (and the host
  /// positions when `positions`).
  void fill_from_simulation(const SimControls& c, bool positions);
  void publish(std::unique_lock<std::mutex>& lk);
  void set_error(const std::string& e) { live_.report_error(e); }
  void set_message(const std::string& m) { live_.report_message(m); }
  void reset_pacing();
  SimParams active_params(const SimControls& c) const;
  // hands on (sim_runner_edit.cpp)
  void apply_edit_request(const SimRequest& r);
  void apply_undo(bool redo);
  void apply_rewind(double time);
  void apply_select(const SimRequest& r);
  void apply_save(const SimRequest& r);
  void restore_snapshot(const Snapshot& s, const std::string& what);
  void bodies_changed();
  void merge_touching_bodies(const SimControls& c);
  void record_timeline(const SimControls& c);
  void update_cards(const SimControls& c, bool force);
  void publish_undo();
  void forget_edits();
  void apply_load_state(const SimRequest& r);
  void play_lesson();
  long long cap_for_lesson(long long k) const;

  bool threaded_;
  // guarded by mutex_
  mutable std::mutex mutex_;
  std::condition_variable cv_;
  bool quit_ = false;
  SimControls controls_;
  std::deque<SimRequest> requests_;
  SimState front_;  // the newest published copy of live_
  bool fresh_ = false;
  std::atomic<bool> positions_unseen_{false};  // host positions published, not yet taken
  std::vector<float> trail_pending_, drift_pending_;
  std::vector<StructureSample> structure_pending_;
  std::vector<LessonAction> lesson_pending_, lesson_local_;
  int trail_pending_samples_ = 0;
  int front_dev_ = 0;
  double batch_started_ = 0;  // monotonic seconds, 0 when idle
  int batch_steps_ = 0;

  // simulation-thread state
  std::unique_ptr<Simulation> sim_;
  std::shared_ptr<const Scene> scene_;
  // what the UI sees, written in place (published by copy; the positions move); its `params`
  // are the one owner of the physics and the kernel choice (changed by requests only)
  SimState live_;
  PhysicsParams start_physics_;  // of the current scene as started (Reset restores it)
  std::vector<float> trail_local_;
  int trail_local_samples_ = 0, trail_phase_ = 0;
  std::vector<float> drift_local_;
  std::vector<StructureSample> structure_local_;
  render::DeviceStaging staging_pos_[2], staging_speed_[2];
  int back_dev_ = 1;
  bool staging_failed_ = false;
  bool positions_dirty_ = false;  // a new scene or reset: publish positions even when paused
  int single_steps_ = 0;
  // pacing
  double anchor_real_ = 0, anchor_sim_ = 0, est_step_s_ = 0;
  double last_speed_ = -1, last_dt_ = -1;
  bool last_max_ = false, running_ = false;
  // the monitors, called in one loop (monitors_ lists them all)
  HealthMonitor health_;
  StructureMonitor structure_;
  MapMonitor map_;
  AccuracyMonitor accuracy_;
  TreeMonitor tree_;
  CompareMonitor compare_;
  std::array<Monitor*, 6> monitors_{&health_, &structure_, &map_, &accuracy_, &tree_, &compare_};
  // hands on: undo, the timeline, cards, the preview, mergers
  UndoStack undo_;
  std::shared_ptr<const Scene> current_;  // the scene as edited (null: as started, scene_)
  Timeline timeline_;
  long long gesture_ = 0;  // the gesture in progress (its first edit's state is gesture_before_)
  std::optional<Snapshot> gesture_before_;
  std::string gesture_label_;
  std::vector<std::size_t> cards_of_;
  double last_cards_ = 0, last_preview_ = 0, last_record_ = 0, record_cost_s_ = 0, last_merge_ = 0;
  std::optional<BodySpec> preview_of_;
  std::unique_ptr<PreviewField> preview_field_;  // the frozen field of the drag in progress
  double preview_field_made_ = 0;
  std::unique_ptr<LessonPlayer> lesson_;

  std::thread thread_;  // last: started after everything above exists
};

/// The kernel's parameters for `kernel` with its tunables at their defaults, other fields of `p`
/// kept; float/double forced where the kernel supports only one.
SimParams params_for_kernel(const SimParams& p, const std::string& kernel);

/// Seconds on a monotonic clock.
double now_seconds();
/// Seconds since this process started (from /proc: includes loading the program and its
/// libraries; 10 ms resolution); negative where /proc cannot tell.
double seconds_since_process_start();

}  // namespace nbody::app
