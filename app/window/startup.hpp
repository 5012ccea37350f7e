#pragma once
// Defaults that fit the machine: a short measurement at start-up picks the kernel and the number
// of bodies of a generated scene so that a step takes well under the frame budget here.

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace nbody::app {

struct StartupMeasurement {
  std::string kernel;
  std::size_t n = 0;
  double step_ms = 0;  ///< measured at n with kernel
  /// every candidate measured: "cpu-symmetric 4,096: 12.1 ms/step"
  std::vector<std::string> lines;
  std::string summary;  ///< "N = 4,096 on cpu-symmetric: 12 ms/step measured at start-up"
};

/// Measures a few steps of `scene` with each kernel in `kernels`: for each, the largest
/// power-of-two N in [n_min, n_max] whose measured step stays under `target_ms`; the kernel that
/// reaches the largest N wins (ties: the faster step), so Barnes-Hut wins where it overtakes the
/// direct sum on this machine. Throws nbody::Error when no kernel runs.
/// `values` are the scene's parameters (e.g. halo=1), as the scene will run.
StartupMeasurement measure_startup(const std::string& scene,
                                   const std::vector<std::string>& kernels, std::size_t n_min,
                                   std::size_t n_max, double target_ms,
                                   const std::map<std::string, double>& values = {});

/// The CPU default, the same every run: `kernel` at `n` (a fixed size for the machine's
/// cores), measured once and halved only while a step takes over 5 `target_ms` (fewer than
/// 10 steps/s at the default 20 ms: a much
/// slower machine than the size was chosen for), down to `n_min`.
StartupMeasurement measure_fixed_start(const std::string& scene, const std::string& kernel,
                                       std::size_t n, std::size_t n_min, double target_ms,
                                       const std::map<std::string, double>& values = {});

/// "4,096"
std::string with_commas(std::size_t n);

}  // namespace nbody::app
