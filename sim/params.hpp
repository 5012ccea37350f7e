#pragma once
// Simulation parameters, kept apart from the state: the panel edits a SimParams, the simulation
// reads it once per frame and passes fields by value to the kernels.

#include <cstddef>
#include <map>
#include <string>

namespace nbody {

enum class Precision { Float, Double };
const char* precision_name(Precision p);
/// "float" or "double"; throws nbody::Error naming `what` otherwise.
Precision parse_precision(const std::string& s, const std::string& what = "precision");

/// The time integrator; every one calls the same force kernels once per stage.
enum class Integrator {
  Leapfrog,  ///< kick-drift-kick, 2nd order, one force evaluation per step
  Yoshida4,  ///< Yoshida's (1990) 4th-order symplectic composition of three leapfrogs (3 forces)
};
const char* integrator_name(Integrator i);
/// "leapfrog" or "yoshida4"; throws nbody::Error naming `what` otherwise.
Integrator parse_integrator(const std::string& s, const std::string& what = "integrator");
/// Force evaluations per step of `i` (for equal-cost comparisons).
int force_evaluations(Integrator i);

struct SimParams {
  double dt = 1e-3;                   ///< time step, in the scene's time unit (> 0)
  double softening = 0.05;            ///< Plummer softening length ε (>= 0); ε² is added to r²
  double G = 1.0;                     ///< gravitational constant in the scene's units (> 0)
  std::string kernel = "cpu-openmp";  ///< name from the kernel table
  Precision precision = Precision::Float;
  int steps_per_frame = 1;  ///< leapfrog steps per rendered frame (>= 1)
  /// GPUs a GPU kernel runs on (0 = every device; >= 0): the bodies are split into one slice per
  /// GPU and the updated positions exchanged with NCCL each step. CPU kernels ignore it.
  int gpus = 1;
  Integrator integrator = Integrator::Leapfrog;
  /// 1PN correction of the gravity of the most massive body (the Sun), in the test-particle
  /// (Schwarzschild, harmonic gauge) form REBOUNDx calls "gr"; needs speed_of_light > 0.
  bool post_newtonian = false;
  /// c in the scene's units (AU/day for the solar units: 173.1446...); used by post_newtonian.
  double speed_of_light = 0;

  /// Kernel tunables by key ("block_size", "theta", ...): which keys a kernel reads, their
  /// ranges and defaults are in its KernelInfo row; an absent key takes the row's default.
  /// A Choice tunable stores the index of its choice.
  std::map<std::string, double> tunables;
};

/// Checks every field; throws nbody::Error naming the parameter and the bad value
/// ("dt must be > 0 (got -1)"). Does not check the kernel name (see make_backend()).
void validate(const SimParams& p);

}  // namespace nbody
