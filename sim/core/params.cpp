#include "sim/core/params.hpp"

#include <cmath>

#include "sim/core/error.hpp"
#include "sim/integrators/integrator.hpp"

namespace nbody {

const char* precision_name(Precision p) {
  return p == Precision::Double ? "double" : "float";
}

Precision parse_precision(const std::string& s, const std::string& what) {
  if (s == "float" || s == "single" || s == "fp32") return Precision::Float;
  if (s == "double" || s == "fp64") return Precision::Double;
  fail(what, ": unknown precision '", s, "' (allowed: float, double)");
}

// the integrators' names and costs are their rows' (sim/integrators/)
const char* integrator_name(Integrator i) {
  return find_integrator(i).name.c_str();
}

Integrator parse_integrator(const std::string& s, const std::string& what) {
  return find_integrator(s, what).id;
}

int force_evaluations(Integrator i) {
  return find_integrator(i).force_evaluations;
}

const char* post_newtonian_name(bool post_newtonian, PnModel m) {
  if (!post_newtonian) return "off";
  return m == PnModel::EIH ? "eih" : "sun";
}

void parse_post_newtonian(const std::string& s, bool& post_newtonian, PnModel& m,
                          const std::string& what) {
  if (s == "off" || s == "none" || s == "no" || s == "0") {
    post_newtonian = false;
    m = PnModel::Sun;
  } else if (s == "sun" || s == "1pn" || s == "on" || s == "yes" || s == "1") {
    post_newtonian = true;
    m = PnModel::Sun;
  } else if (s == "eih") {
    post_newtonian = true;
    m = PnModel::EIH;
  } else {
    fail(what, ": unknown 1PN term '", s,
         "' (allowed: off, sun (the Sun's field alone), eih (Einstein-Infeld-Hoffmann, every "
         "massive body))");
  }
}

void validate(const PhysicsParams& p) {
  if (!std::isfinite(p.dt) || p.dt == 0)
    fail("dt must be finite and not 0 (got ", p.dt, "; < 0 runs time backwards)");
  if (p.dt < 0 && !find_integrator(p.integrator).time_reversible)
    fail("dt < 0 (time backwards) needs a time-reversible integrator; ",
         find_integrator(p.integrator).name, " is not (got dt = ", p.dt, ")");
  if (!std::isfinite(p.softening) || p.softening < 0)
    fail("softening (epsilon) must be >= 0 (got ", p.softening, ")");
  if (!std::isfinite(p.G) || !(p.G > 0)) fail("G must be > 0 (got ", p.G, ")");
  (void)find_integrator(p.integrator);  // throws for a value with no row
  if (!std::isfinite(p.ias15_epsilon) || !(p.ias15_epsilon > 0) || p.ias15_epsilon >= 1)
    fail("ias15 epsilon must be in (0, 1) (got ", p.ias15_epsilon, "; 1e-9 is the default)");
  if (p.whfast_corrector != 0 && p.whfast_corrector != 3 && p.whfast_corrector != 5 &&
      p.whfast_corrector != 7 && p.whfast_corrector != 11)
    fail("whfast corrector order must be 0, 3, 5, 7 or 11 (got ", p.whfast_corrector, ")");
  if (p.post_newtonian && (!std::isfinite(p.speed_of_light) || !(p.speed_of_light > 0)))
    fail("post-Newtonian correction needs the speed of light > 0 in the scene's units (got ",
         p.speed_of_light, "); the solar units have it");
  if (p.pn_model != PnModel::Sun && p.pn_model != PnModel::EIH)
    fail("post-Newtonian model must be sun or eih (got ", static_cast<int>(p.pn_model), ")");
}

void validate(const SimParams& p) {
  validate(p.physics());
  if (p.gpus < 0) fail("gpus must be >= 0 (0 = all; got ", p.gpus, ")");
  if (p.steps_per_frame < 1) fail("steps per frame must be >= 1 (got ", p.steps_per_frame, ")");
}

}  // namespace nbody
