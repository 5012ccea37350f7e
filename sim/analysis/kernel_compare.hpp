#pragma once
// The Classroom comparison: a chosen set of kernels and kernel variants run one at a time on a
// copy of the current scene's bodies (the running simulation is untouched), each reporting its
// time per step, interactions per second and force error against the double-precision direct
// sum on a sample of bodies. The caller runs one entry at a time (between frames, or on the
// simulation thread) so that it can keep drawing.

#include <cstddef>
#include <map>
#include <string>
#include <vector>

#include "sim/core/backend.hpp"

namespace nbody {

/// One kernel with some tunables set (the others at their defaults).
struct CompareEntry {
  std::string label;  ///< "tiled", "tiled rsqrt=exact", ...
  std::string kernel;
  std::map<std::string, double> tunables;
};

/// The entries the table offers: each kernel this machine runs (GPU kernels when there is a
/// device, else the CPU ones) at its defaults, followed by each non-default choice of each of
/// its Choice tunables on its own ("tiled rsqrt=exact", "tiled layout=soa", ...).
std::vector<CompareEntry> compare_entries(bool gpu);

/// What one entry measured, or why it did not run.
struct CompareOutcome {
  CompareEntry entry;
  double ms_per_step = 0;
  double interactions_per_s = 0;
  double err_median = 0, err_max = 0;  ///< per-body relative error vs the double direct sum
  double wall_s = 0;                   ///< how long the entry took, all in (wall clock)
  std::size_t n = 0;                   ///< bodies it ran on
  std::string error;                   ///< non-empty when the entry was refused or failed
};

/// How long a comparison of `entries` on `n` bodies will take, in seconds (wall clock), and
/// whether that is measured or a model's guess.
struct CompareEstimate {
  double seconds = 0;
  bool measured = false;  ///< every entry ran before at this N: the sum of their times
};

class KernelComparison {
 public:
  /// Copies `bodies`; `base` supplies precision, G, softening and dt (kernel and tunables come
  /// from each entry). Each entry takes about `seconds` of timed steps (at least one step).
  KernelComparison(Bodies bodies, const SimParams& base, std::vector<CompareEntry> entries,
                   std::size_t sample = 256, double seconds = 0.25);

  /// Whether every entry has run.
  bool done() const { return next_ >= entries_.size(); }
  /// Runs the next entry (blocking) and appends its outcome.
  void run_next();
  const std::vector<CompareOutcome>& results() const { return results_; }
  /// "tiled rsqrt=exact: 2 of 5, 6.1 s so far, about 9 s left" while entries remain, else "".
  /// The time left is the mean of the entries run so far times those left (the model's guess
  /// before the first).
  std::string status() const;
  /// Seconds since the first entry started.
  double elapsed_s() const;

  /// The time a comparison of `entries` on `n` bodies takes: an entry's own time when
  /// `earlier` holds it at this N, else a model: the live kernel's step time `live_step_ms`
  /// scaled by the work per step (N² for a direct sum, N·min(N, 150 log2 N) for a tree) and
  /// by CPU/GPU, with at least `seconds` of timed steps each (one step when a step is longer).
  static CompareEstimate estimate(const std::vector<CompareEntry>& entries, std::size_t n,
                                  const std::string& live_kernel, double live_step_ms,
                                  const std::vector<CompareOutcome>& earlier = {},
                                  double seconds = 0.25);

  /// The largest N at which CPU direct sums are compared (a step takes seconds above it).
  static constexpr std::size_t kCpuDirectMaxN = 16384;

 private:
  struct Reference {
    bool ready = false;
    std::vector<double> ax, ay, az;
  };
  const Reference& reference(Precision p);

  Bodies bodies_;
  SimParams base_;
  std::vector<CompareEntry> entries_;
  std::vector<std::size_t> idx_;
  double seconds_;
  std::size_t next_ = 0;
  double started_ = -1;  ///< steady clock at the first entry (s)
  Reference ref_float_, ref_double_;
  std::vector<CompareOutcome> results_;
};

}  // namespace nbody
