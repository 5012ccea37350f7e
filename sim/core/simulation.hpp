#pragma once
// A running simulation: the scene's bodies and units, the current backend, the elapsed time and
// the reference energy. Switching the backend carries positions and velocities over.

#include <memory>
#include <string>

#include "sim/analysis/diagnostics.hpp"
#include "sim/core/backend.hpp"
#include "sim/core/scene.hpp"
#include "sim/edit/collisions.hpp"
#include "sim/edit/edit.hpp"
#include "sim/edit/timeline.hpp"

namespace nbody {

class Simulation {
 public:
  /// Takes the scene and makes the backend named in `params` (throws nbody::Error).
  Simulation(Scene scene, const SimParams& params);

  /// Advances params.steps_per_frame steps of params.dt (back in time when dt < 0), switching
  /// backend first when params.kernel, params.precision or params.gpus differ from the current
  /// backend's.
  void step(const SimParams& params);
  /// Replaces the backend, carrying the current positions and velocities over.
  void set_backend(const SimParams& params);
  /// Restores the scene's initial bodies and time 0 (edits are dropped).
  void reset();

  /// Current bodies (downloaded from the backend when it holds newer ones).
  const Bodies& bodies() const;
  /// The scene as edited now: the current bodies with their names, classes, groups and halos
  /// (scene() stays the scene as started).
  const Scene& current() const;
  /// Applies an edit to the current state (sim/edit/edit.hpp): downloads the bodies, edits them and
  /// hands them to the backend (a tree kernel rebuilds its tree at the next step); time and
  /// steps go on; the energy is referenced again at the next diagnostics(). Throws
  /// nbody::Error (the state unchanged) for a bad edit. O(N) plus the backend's upload.
  void apply_edit(const Edit& e);
  /// Merges the touching bodies of the current state (sim/edit/collisions.hpp) and hands the result
  /// to the backend when any merged (the energy is then referenced again). O(N log N) plus a
  /// download: call it every batch for small N, less often for large N.
  std::vector<MergeEvent> merge_touching(const MergeRule& rule, double softening);
  /// The current state (bodies, time, steps, the physics of the last step and the reference
  /// energy). Copies the bodies: O(N).
  Snapshot snapshot() const;
  /// Goes back (or forward) to `s`: its bodies, time, steps and reference energy (the caller
  /// applies s.physics to its own parameters). Throws nbody::Error when s has no scene or
  /// invalid bodies.
  void restore(const Snapshot& s);
  /// Diagnostics of the current state; energy drift is relative to the first call after
  /// construction or reset().
  Diagnostics diagnostics(const SimParams& params);
  double initial_energy() const { return e0_; }

  const Scene& scene() const { return scene_; }
  ForceBackend& backend() { return *backend_; }
  /// The active kernel and precision: the Simulation is their one owner (the viewer and the
  /// tools derive their data path and labels from these, not from their own copies).
  const std::string& kernel() const { return backend_name_; }
  Precision precision() const { return backend_precision_; }
  const KernelInfo& kernel_info() const { return backend_->info(); }
  double time() const { return time_; }
  long long steps_done() const { return steps_; }
  /// Current number of bodies (edits change it).
  std::size_t size() const { return current_.bodies.size(); }

 private:
  Scene scene_;
  /// The scene as edited; its bodies are the backend's when !current_stale_.
  mutable Scene current_;
  mutable bool current_stale_ = false;
  PhysicsParams last_physics_;  // of the last step (the scene's before any)
  std::unique_ptr<ForceBackend> backend_;
  std::string backend_name_;
  Precision backend_precision_ = Precision::Float;
  int backend_gpus_ = 1;  // params.gpus the backend was made for
  double time_ = 0;
  long long steps_ = 0;
  double e0_ = 0;
  bool have_e0_ = false;
};

}  // namespace nbody
