#pragma once
// A background accuracy check for the window: the per-body force error of the running kernel
// against the double-precision direct sum on a sample of bodies, computed on a worker thread
// so that neither the UI nor the simulation waits for it.

#include <cstddef>
#include <future>
#include <optional>
#include <vector>

#include "sim/core/backend.hpp"

namespace nbody {

/// The result of one check: the error measures and what they were measured on.
struct AccuracyReport {
  AccelError error;        ///< per-body relative error: median, p99, max; and norm-wise
  std::size_t sample = 0;  ///< bodies compared
  std::size_t n = 0;       ///< bodies in the system
  std::string kernel;      ///< kernel whose accelerations were checked
  double sim_time = 0;     ///< simulation time of the snapshot
};

class AccuracyProbe {
 public:
  AccuracyProbe() = default;
  ~AccuracyProbe();
  AccuracyProbe(const AccuracyProbe&) = delete;
  AccuracyProbe& operator=(const AccuracyProbe&) = delete;

  /// Whether a check is running.
  bool busy() const;
  /// Starts a check of accelerations (ax, ay, az: the kernel's, G included, in the order of
  /// `bodies`) against the direct sum on `sample` bodies spread over the system (at least 256
  /// when N allows). Returns false and does nothing while a check is running.
  bool start(const Bodies& bodies, const std::vector<double>& ax, const std::vector<double>& ay,
             const std::vector<double>& az, double G, double softening, std::size_t sample,
             std::string kernel, double sim_time);
  /// The result of the last finished check, once (empty while running or when none finished
  /// since the last call). Never blocks.
  std::optional<AccuracyReport> poll();

 private:
  std::future<AccuracyReport> job_;
};

}  // namespace nbody
