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
      else if (step + 1 < steps) {
        // the closing kick of this step and the opening kick of the next stay two kicks, as
        // they are across the end of a call: v + (k1 + k0) dt a rounds differently from
        // (v + k1 dt a) + k0 dt a, and a run's bits would depend on its batch sizes (a rewind
        // and replay in other batches must give the same bodies bitwise, issue 19), even where
        // a store does both in one pass
        ops.kick_drift_twice(p, s.kicks[stages], 0.0, s.kicks[0], s.drifts[0]);
      } else
        ops.closing_kick(p, s.kicks[stages]);
    }
  }
}

}  // namespace nbody
