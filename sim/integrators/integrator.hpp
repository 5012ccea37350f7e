#pragma once
// Integrators as a table: each one is one file with one row (REBOUND's integrator_*.c and its
// `const struct` are the model). An integrator composes a step from the operations of a body
// store (StepOps): force evaluations, kicks and drifts. The store (host arrays or device memory,
// in the CPU and GPU backend bases) does them around its force kernel, which computes
// accelerations only. A new integrator is one file here and one line in table.cpp.

#include <string>
#include <vector>

#include "sim/core/params.hpp"

namespace nbody {

/// What a body store does for an integrator. The accelerations of the current positions are
/// valid when run() is called and must be again when it returns.
class StepOps {
 public:
  virtual ~StepOps() = default;
  /// Accelerations of the current positions: the kernel's forces, then any external field
  /// (rigid halos); the work of the evaluation is counted.
  virtual void evaluate_forces(const SimParams& p) = 0;
  /// v += kick dt (a + a_1PN), then x += drift dt v (drift may be 0).
  virtual void kick_drift(const SimParams& p, double kick, double drift) = 0;
  /// The closing kick of the last step of a call: v += kick dt (a + a_1PN), then the store
  /// shows the new state (the GPU writes the interop buffer).
  virtual void closing_kick(const SimParams& p, double kick) = 0;
};

/// One row of the integrator table.
struct IntegratorRow {
  Integrator id = Integrator::Leapfrog;
  std::string name;                  ///< on the command line and in file headers: "leapfrog"
  std::vector<std::string> aliases;  ///< other accepted names: "kdk"
  std::string label;                 ///< for the panel: "leapfrog (2nd order)"
  std::string description;           ///< one line, with the reference
  int order = 2;                     ///< order of the error per unit time
  int force_evaluations = 1;         ///< per step
  bool symplectic = true;
  bool time_reversible = true;  ///< runs backwards with dt < 0
  /// Advances `steps` (>= 1) steps of p.dt.
  void (*run)(StepOps& ops, const SimParams& p, int steps) = nullptr;
};

/// Every integrator, in the order the panel lists them.
const std::vector<IntegratorRow>& integrator_table();
/// The row of `id` (every enum value has one).
const IntegratorRow& find_integrator(Integrator id);
/// The row named `name` or one of its aliases; throws nbody::Error naming `what` and the
/// names allowed.
const IntegratorRow& find_integrator(const std::string& name, const std::string& what);

/// A kick-drift composition: kick(k[0] dt) drift(d[0] dt) forces kick(k[1] dt) ... drift(d[m-1]
/// dt) forces kick(k[m] dt), kicks.size() == drifts.size() + 1.
struct Scheme {
  std::vector<double> kicks, drifts;
};
/// Runs `steps` steps of a composition. The closing kick of one step and the opening kick of the
/// next are two kicks, not one of their summed length, so that `steps` steps in one call give the
/// same bits as in several calls (the end of a call needs the closing kick alone).
void run_composition(StepOps& ops, const SimParams& p, int steps, const Scheme& s);

// the rows, one per file
IntegratorRow leapfrog_row();
IntegratorRow yoshida4_row();

}  // namespace nbody
