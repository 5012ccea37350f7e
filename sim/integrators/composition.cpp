#include "sim/integrators/integrator.hpp"

namespace nbody {

void run_composition(StepOps& ops, const SimParams& p, int steps, const Scheme& s) {
  const std::size_t stages = s.drifts.size();
  ops.kick_drift(p, s.kicks[0], s.drifts[0]);
  for (int step = 0; step < steps; ++step) {
    for (std::size_t j = 1; j <= stages; ++j) {
      ops.evaluate_forces(p);
      if (j < stages)
        ops.kick_drift(p, s.kicks[j], s.drifts[j]);
      else if (step + 1 < steps)
        ops.kick_drift(p, s.kicks[stages] + s.kicks[0], s.drifts[0]);
      else
        ops.closing_kick(p, s.kicks[stages]);
    }
  }
}

}  // namespace nbody
