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

#include "sim/backend.hpp"

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
  std::string error;                   ///< non-empty when the entry was refused or failed
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
  /// "tiled rsqrt=exact (3 more)" while entries remain, else "".
  std::string status() const;

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
  Reference ref_float_, ref_double_;
  std::vector<CompareOutcome> results_;
};

}  // namespace nbody
