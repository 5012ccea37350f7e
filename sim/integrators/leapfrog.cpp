// Leapfrog kick-drift-kick: second order, symplectic, time-reversible, one force evaluation per
// step (seed 000 eq. 3-5; Hut, Makino & McMillan, ApJ 443, L93, 1995).
#include "sim/integrators/integrator.hpp"

namespace nbody {
namespace {

void run(StepOps& ops, const SimParams& p, int steps) {
  static const Scheme kdk{{0.5, 0.5}, {1.0}};
  run_composition(ops, p, steps, kdk);
}

}  // namespace

IntegratorRow leapfrog_row() {
  IntegratorRow r;
  r.id = Integrator::Leapfrog;
  r.name = "leapfrog";
  r.aliases = {"kdk", "leapfrog-kdk"};
  r.label = "leapfrog (2nd order)";
  r.description = "kick-drift-kick leapfrog: 2nd order, symplectic, one force evaluation a step";
  r.order = 2;
  r.force_evaluations = 1;
  r.run = run;
  return r;
}

}  // namespace nbody
