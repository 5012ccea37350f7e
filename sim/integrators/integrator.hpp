#pragma once
// Integrators as a table: each one is one file with one row (REBOUND's integrator_*.c and its
// `const struct` are the model). An integrator composes a step from the operations of a body
// store (StepOps): force evaluations, kicks and drifts. The store (host arrays or device memory,
// in the CPU and GPU backend bases) does them around its force kernel, which computes
// accelerations only. Integrators that are not kick-drift compositions (IAS15, WHFast) read and
// write the bodies themselves, in double on the host, through StateOps; a store that offers it
// (HostStore) says so by returning it from StepOps::state(), and the row says it needs it
// (`needs_state`). A new integrator is one file here and one line in table.cpp.

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "sim/core/params.hpp"

namespace nbody {

/// The bodies in double on the host, in the user's order (the order of Bodies), with the
/// accelerations of their positions: kernel forces, the rigid halos' field and the 1PN term.
struct HostState {
  std::vector<double> x, y, z, vx, vy, vz, m, ax, ay, az;
  std::size_t size() const { return m.size(); }
  void resize(std::size_t n);
};

/// What an integrator keeps from one call to the next (IAS15's step and predictor); its own
/// type derives from this. The store drops it when the bodies are replaced (set_bodies(): an
/// edit, a restore, a reset) or another integrator runs, so a run restarts from the state alone.
struct IntegratorMemory {
  virtual ~IntegratorMemory() = default;
};

/// The state of a body store, for integrators that are not kick-drift compositions.
class StateOps {
 public:
  virtual ~StateOps() = default;
  /// s = the stored positions, velocities and masses in double, and their accelerations
  /// (forces + external field + 1PN at the stored velocities).
  virtual void read(const SimParams& p, HostState& s) = 0;
  /// s.ax, s.ay, s.az = the accelerations at s's positions (and, for the velocity-dependent
  /// 1PN term, velocities): the kernel's forces, the rigid halos' field and 1PN. Counts the
  /// evaluation's work. The store holds s's positions (rounded to its precision) afterwards.
  virtual void accelerations(const SimParams& p, HostState& s) = 0;
  /// Stores s's positions and velocities; `accelerations_current`: the last accelerations() call
  /// was at exactly these positions and velocities (the store keeps its forces, else it
  /// evaluates them again before the next step).
  virtual void write(const HostState& s, bool accelerations_current) = 0;
  /// The memory of this integrator (null at first).
  virtual std::unique_ptr<IntegratorMemory>& memory() = 0;
};

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
  /// kick_drift(kick1, drift1) then kick_drift(kick2, drift2) from the same accelerations, bit
  /// for bit (each kick and drift rounded on its own); a store may do both in one pass over the
  /// bodies (the closing kick of a step and the opening kick and drift of the next).
  virtual void kick_drift_twice(const SimParams& p, double kick1, double drift1, double kick2,
                                double drift2) {
    kick_drift(p, kick1, drift1);
    kick_drift(p, kick2, drift2);
  }
  /// The closing kick of the last step of a call: v += kick dt (a + a_1PN), then the store
  /// shows the new state (the GPU writes the interop buffer).
  virtual void closing_kick(const SimParams& p, double kick) = 0;
  /// The bodies' state in double on the host, or null where the store cannot give it (the GPU
  /// store: its bodies stay in device memory between steps).
  virtual StateOps* state() { return nullptr; }
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
  /// Reads and writes the state (StateOps): runs only on a store that gives it (the CPU
  /// kernels; "host only"), never on a GPU kernel (validate_integrator() says so).
  bool needs_state = false;
  /// Needs double precision (its tolerance is below float's rounding).
  bool needs_double = false;
  /// Adaptive: chooses its own steps inside each step of p.dt, the last one shortened to end on
  /// it; p.dt is then the output interval (and the largest step), not the step.
  bool adaptive = false;
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

/// Checks that integrator p.integrator (and p's 1PN term: EIH is host only) can run with p's
/// precision on a kernel (gpu: a GPU kernel); throws nbody::Error naming the integrator and
/// what to change.
void validate_integrator(const SimParams& p, bool gpu_kernel);
/// The state of `ops` for `row`; throws nbody::Error when the store gives none.
StateOps& require_state(StepOps& ops, const IntegratorRow& row);

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
IntegratorRow ias15_row();
IntegratorRow whfast_row();

}  // namespace nbody
