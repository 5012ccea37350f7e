#pragma once
// Kept states of a run (issue 19): the timeline of snapshots the window rewinds to, within a
// memory budget, and the undo stack of edits. A Snapshot is the whole state a run goes on from:
// the bodies with their per-body data, the time, the step count and the physics.

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "sim/core/params.hpp"
#include "sim/core/scene.hpp"

namespace nbody {

/// The state of a run at one time.
struct Snapshot {
  double time = 0;      ///< simulated time, in the scene's time unit
  long long steps = 0;  ///< steps done since the start (or the last reset)
  /// The bodies and per-body data (names, classes, groups, halos) at that time; shared, never
  /// changed (copies of a Snapshot are cheap).
  std::shared_ptr<const Scene> scene;
  PhysicsParams physics;  ///< the physics the run used then
  /// The reference energy of the run then (when has_initial_energy), so that a rewind keeps the
  /// energy drift measured from the same start.
  double initial_energy = 0;
  bool has_initial_energy = false;
  /// Memory held by the scene (bodies, names, classes), in bytes (0 without a scene).
  std::size_t bytes() const;
};

/// Snapshots of one run sorted by time, within a memory budget: when over it, the older half is
/// thinned evenly (every other snapshot dropped) so that the span kept stays as long as possible;
/// the first and the newest are never dropped.
class Timeline {
 public:
  /// The default budget: 256 MiB.
  static constexpr std::size_t kDefaultBudget = std::size_t{256} << 20;
  /// Sets the budget in bytes (thins at once when over it).
  void set_budget(std::size_t bytes);
  std::size_t budget() const { return budget_; }
  /// Adds `s` at its place in time (replacing a snapshot of the same time), then thins while
  /// over budget. A snapshot without a scene is ignored.
  void record(Snapshot s);
  /// The latest snapshot at or before time t, or null.
  const Snapshot* at_or_before(double t) const;
  /// Drops every snapshot after time t (a rewind followed by play or an edit rewrites the
  /// future).
  void truncate_after(double t);
  /// Times of the kept snapshots, ascending.
  std::vector<double> times() const;
  /// Time of the first and of the last snapshot (0 when empty).
  double first() const { return snaps_.empty() ? 0 : snaps_.front().time; }
  double last() const { return snaps_.empty() ? 0 : snaps_.back().time; }
  std::size_t size() const { return snaps_.size(); }
  bool empty() const { return snaps_.empty(); }
  /// Memory held by the kept snapshots.
  std::size_t bytes() const { return bytes_; }
  void clear();
  /// Whether a snapshot is due at `time` for a cadence of `interval` (simulated time): true when
  /// nothing was recorded yet or |time - time of the last record()| >= interval.
  bool due(double time, double interval) const;

 private:
  void thin();
  std::vector<Snapshot> snaps_;
  std::size_t budget_ = kDefaultBudget;
  std::size_t bytes_ = 0;
  bool recorded_ = false;
  double last_recorded_ = 0;
};

/// Undo and redo of edits: each entry holds the state before and after one edit, within a memory
/// budget (the oldest entries are dropped first).
class UndoStack {
 public:
  /// The default budget: 64 MiB.
  static constexpr std::size_t kDefaultBudget = std::size_t{64} << 20;
  void set_budget(std::size_t bytes);
  std::size_t budget() const { return budget_; }
  /// Records an edit: the entries after the cursor (undone ones) are dropped, then the oldest
  /// while over budget (the newest is always kept).
  void push(std::string label, Snapshot before, Snapshot after);
  bool can_undo() const { return cursor_ > 0; }
  bool can_redo() const { return cursor_ < entries_.size(); }
  /// The state before the last applied edit (null when none); moves the cursor back.
  const Snapshot* undo();
  /// The state after the next undone edit (null when none); moves the cursor forward.
  const Snapshot* redo();
  /// Labels of every entry, oldest first; entries [0, cursor()) are applied.
  std::vector<std::string> labels() const;
  std::size_t cursor() const { return cursor_; }
  /// Label of the edit undo() would undo / redo() would redo ("" when none).
  std::string undo_label() const;
  std::string redo_label() const;
  std::size_t size() const { return entries_.size(); }
  /// Memory held by the entries (a scene shared by several snapshots counts once: pass the
  /// last edit's `after` as the next `before` when nothing ran in between).
  std::size_t bytes() const;
  void clear();

 private:
  struct Entry {
    std::string label;
    Snapshot before, after;
  };
  void trim();
  std::size_t bytes_from(std::size_t first) const;
  std::vector<Entry> entries_;
  std::size_t cursor_ = 0;
  std::size_t budget_ = kDefaultBudget;
};

}  // namespace nbody
