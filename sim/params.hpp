#pragma once
// Simulation parameters, kept apart from the state: the panel edits a SimParams, the simulation
// reads it once per frame and passes fields by value to the kernels.

#include <cstddef>
#include <string>

namespace nbody {

enum class Precision { Float, Double };
const char* precision_name(Precision p);
/// "float" or "double"; throws nbody::Error naming `what` otherwise.
Precision parse_precision(const std::string& s, const std::string& what = "precision");

struct SimParams {
  double dt = 1e-3;                   ///< time step, in the scene's time unit (> 0)
  double softening = 0.05;            ///< Plummer softening length ε (>= 0); ε² is added to r²
  double G = 1.0;                     ///< gravitational constant in the scene's units (> 0)
  std::string kernel = "cpu-openmp";  ///< name from the kernel table
  Precision precision = Precision::Float;
  int steps_per_frame = 1;  ///< leapfrog steps per rendered frame (>= 1)

  // tunables; which ones a kernel reads is listed in its KernelInfo
  int threads = 0;       ///< CPU threads (0 = all hardware threads)
  int block_size = 256;  ///< GPU threads per block (multiple of 32, 32..1024)
  int block_y = 0;       ///< tiled2d: bodies per thread kept in registers (0 = auto from N)
  int luf = 0;     ///< tiled2d: splits of each body's j-sum, reduced in a second pass (0 = auto)
  int unroll = 8;  ///< tiled: inner-loop unroll factor
};

/// Checks every field; throws nbody::Error naming the parameter and the bad value
/// ("dt must be > 0 (got -1)"). Does not check the kernel name (see make_backend()).
void validate(const SimParams& p);

}  // namespace nbody
