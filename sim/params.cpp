#include "sim/params.hpp"

#include <cmath>

#include "sim/error.hpp"

namespace nbody {

const char* precision_name(Precision p) {
  return p == Precision::Double ? "double" : "float";
}

Precision parse_precision(const std::string& s, const std::string& what) {
  if (s == "float" || s == "single" || s == "fp32") return Precision::Float;
  if (s == "double" || s == "fp64") return Precision::Double;
  fail(what, ": unknown precision '", s, "' (allowed: float, double)");
}

const char* integrator_name(Integrator i) {
  return i == Integrator::Yoshida4 ? "yoshida4" : "leapfrog";
}

Integrator parse_integrator(const std::string& s, const std::string& what) {
  if (s == "leapfrog" || s == "kdk") return Integrator::Leapfrog;
  if (s == "yoshida4" || s == "yoshida") return Integrator::Yoshida4;
  fail(what, ": unknown integrator '", s, "' (allowed: leapfrog, yoshida4)");
}

int force_evaluations(Integrator i) {
  return i == Integrator::Yoshida4 ? 3 : 1;
}

void validate(const SimParams& p) {
  if (!std::isfinite(p.dt) || !(p.dt > 0)) fail("dt must be > 0 (got ", p.dt, ")");
  if (!std::isfinite(p.softening) || p.softening < 0)
    fail("softening (epsilon) must be >= 0 (got ", p.softening, ")");
  if (!std::isfinite(p.G) || !(p.G > 0)) fail("G must be > 0 (got ", p.G, ")");
  if (p.gpus < 0) fail("gpus must be >= 0 (0 = all; got ", p.gpus, ")");
  if (p.steps_per_frame < 1) fail("steps per frame must be >= 1 (got ", p.steps_per_frame, ")");
  if (p.integrator != Integrator::Leapfrog && p.integrator != Integrator::Yoshida4)
    fail("integrator: unknown value ", static_cast<int>(p.integrator));
  if (p.post_newtonian && (!std::isfinite(p.speed_of_light) || !(p.speed_of_light > 0)))
    fail("post-Newtonian correction needs the speed of light > 0 in the scene's units (got ",
         p.speed_of_light, "); the solar units have it");
}

}  // namespace nbody
