// Yoshida's 4th-order composition (H. Yoshida, Phys. Lett. A 150, 262, 1990; E. Forest & R. Ruth,
// Physica D 43, 105, 1990): the leapfrog with steps w1, w0, w1 of dt, w1 = 1 / (2 - 2^(1/3)),
// w0 = -2^(1/3) w1, its kicks fused: kicks {w1/2, (w1+w0)/2, (w0+w1)/2, w1/2}, drifts
// {w1, w0, w1}. Symplectic and time-reversible, three force evaluations a step.
#include <cmath>

#include "sim/integrators/integrator.hpp"

namespace nbody {
namespace {

Scheme yoshida4() {
  const double c = std::cbrt(2.0);
  const double w1 = 1.0 / (2.0 - c), w0 = -c * w1;
  return {{w1 / 2, (w1 + w0) / 2, (w0 + w1) / 2, w1 / 2}, {w1, w0, w1}};
}

void run(StepOps& ops, const SimParams& p, int steps) {
  static const Scheme s = yoshida4();
  run_composition(ops, p, steps, s);
}

}  // namespace

IntegratorRow yoshida4_row() {
  IntegratorRow r;
  r.id = Integrator::Yoshida4;
  r.name = "yoshida4";
  r.aliases = {"yoshida"};
  r.label = "Yoshida (4th order)";
  r.description =
      "Yoshida's 4th-order composition of three leapfrogs: symplectic, three force evaluations "
      "a step";
  r.order = 4;
  r.force_evaluations = 3;
  r.run = run;
  return r;
}

}  // namespace nbody
