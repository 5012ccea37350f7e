#pragma once
// The simulation thread's monitors: each watches the running simulation in its own way and
// writes its part of the published state (SimState) in place. The runner calls them in one loop
// after every batch, and while paused; each decides itself whether it is due.
//   health     energy (in the background), NaN/Inf: pauses the simulation
//   structure  the groups' Lagrangian radii and disk thickness (in the background)
//   map        the activity-density map and its bounds
//   accuracy   the kernel's force error against the direct sum (in the background)
//   tree       a tree kernel's cells for the wireframe
//   compare    the kernel comparison: one entry per call while one runs (the simulation waits)

#include <future>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sim/analysis/accuracy_probe.hpp"
#include "sim/analysis/activity_map.hpp"
#include "sim/analysis/diagnostics.hpp"
#include "sim/analysis/kernel_compare.hpp"
#include "sim/analysis/structure.hpp"
#include "sim/core/scene.hpp"
#include "sim/core/simulation.hpp"

namespace nbody::app {

struct SimControls;
struct SimState;

/// The structure of the scene's groups of bodies at one simulated time
/// (sim/analysis/structure.hpp).
struct StructureSample {
  long long reset_serial = 0;  ///< SimState::reset_serial it belongs to
  double time = 0;
  std::vector<GroupStructure> groups;
};

/// What a monitor sees, and where it writes.
struct MonitorContext {
  Simulation& sim;
  const Scene& scene;       ///< the scene as started (groups, units)
  const SimParams& params;  ///< the applied physics and kernel choice
  const SimControls& controls;
  SimState& state;                          ///< the simulation thread's state, written in place
  std::vector<float>& drift;                ///< |dE/E0| points for the UI, appended
  std::vector<StructureSample>& structure;  ///< structure samples for the UI, appended
};

/// What a monitor forgets: a new scene, a reset to the start, bodies added, removed or merged,
/// a new kernel (or tunables).
enum class Forget { Scene, Reset, Bodies, Kernel };

class Monitor {
 public:
  virtual ~Monitor() = default;
  /// Measures when due and writes its part of ctx.state.
  virtual void update(const MonitorContext& ctx) = 0;
  /// Drops what belongs to the previous scene, run or kernel (waits for background work).
  virtual void forget(Forget what, SimState& state) = 0;
};

/// Energy about twice a second on a copy in the background, NaN/Inf positions and velocities:
/// pauses the simulation (state.health_paused) with the reason.
class HealthMonitor final : public Monitor {
 public:
  ~HealthMonitor() override;
  void update(const MonitorContext& ctx) override;
  void forget(Forget what, SimState& state) override;

 private:
  std::future<Diagnostics> job_;
  bool have_e0_ = false;
  double last_ = 0;
  // the energy's O(N²) sum takes at most about 1/8 of the time: the next one starts no sooner
  // than 8 times the last one's duration after it started (at most twice a second)
  double started_ = 0, cost_ = 0;
};

/// The structure of the scene's groups (scenes where state.shows_structure), at most twice a
/// second with the health checks, one measurement in flight on a (strided) copy.
class StructureMonitor final : public Monitor {
 public:
  ~StructureMonitor() override;
  void update(const MonitorContext& ctx) override;
  void forget(Forget what, SimState& state) override;

 private:
  void poll(const MonitorContext& ctx);
  std::future<StructureSample> job_;
  long long steps_ = -1;  // steps_done() of the last measurement started
  double last_ = 0;       // monotonic seconds when it started
};

/// The activity map, about ten times a second; its bounds refitted to the bodies about once a
/// second when they follow, at once after refit() or a new plane.
class MapMonitor final : public Monitor {
 public:
  void update(const MonitorContext& ctx) override;
  void forget(Forget what, SimState& state) override;
  /// The bounds are fitted again at the next update.
  void refit() { fit_pending_ = true; }

 private:
  double last_ = 0, last_fit_ = 0;
  bool fit_pending_ = true;
};

/// The active kernel's per-body force error against the direct sum on a sample, every few
/// seconds on a worker thread.
class AccuracyMonitor final : public Monitor {
 public:
  void update(const MonitorContext& ctx) override;
  void forget(Forget what, SimState& state) override;

 private:
  AccuracyProbe probe_;
  double last_ = 0;
  long long serial_ = 0, started_serial_ = 0;  // a report of an older kernel is dropped
  std::map<std::string, double> tunables_;
};

/// A tree kernel's cells (when SimControls::tree_boxes), four times a second.
class TreeMonitor final : public Monitor {
 public:
  void update(const MonitorContext& ctx) override;
  void forget(Forget what, SimState& state) override;

 private:
  double last_ = 0;
};

/// The kernel comparison: start() takes a copy of the bodies; each update runs one entry.
class CompareMonitor final : public Monitor {
 public:
  void update(const MonitorContext& ctx) override;
  void forget(Forget what, SimState& state) override;
  /// Starts comparing `entries` (empty: compare_entries()) on a copy of `bodies` with the dt,
  /// G and ε of `params`; nothing when one runs.
  void start(const Bodies& bodies, const SimParams& params, std::vector<CompareEntry> entries,
             SimState& state);
  /// Whether a comparison runs (the simulation waits meanwhile).
  bool running() const { return compare_ != nullptr; }

 private:
  std::unique_ptr<KernelComparison> compare_;
};

}  // namespace nbody::app
