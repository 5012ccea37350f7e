#include <sstream>

#include "sim/core/error.hpp"
#include "sim/integrators/integrator.hpp"

namespace nbody {

const std::vector<IntegratorRow>& integrator_table() {
  static const std::vector<IntegratorRow> table = {leapfrog_row(), yoshida4_row(), whfast_row(),
                                                   ias15_row()};
  return table;
}

void HostState::resize(std::size_t n) {
  for (std::vector<double>* v : {&x, &y, &z, &vx, &vy, &vz, &m, &ax, &ay, &az})
    v->resize(n);
}

void validate_integrator(const SimParams& p, bool gpu_kernel) {
  const IntegratorRow& r = find_integrator(p.integrator);
  if (r.needs_state && gpu_kernel)
    fail("integrator ", r.name, " runs on the host only (it reads and writes the bodies between ",
         "force evaluations): pick a CPU kernel (--kernel cpu-openmp) or the leapfrog/yoshida4 ",
         "integrator for kernel '", p.kernel, "'");
  if (r.needs_double && p.precision != Precision::Double)
    fail("integrator ", r.name, " needs --precision double (its tolerance is below float's ",
         "rounding; got ", precision_name(p.precision), ")");
  // the EIH term is computed by the host stores only (sim/forces/eih.hpp)
  if (p.post_newtonian && p.pn_model == PnModel::EIH && gpu_kernel)
    fail("the EIH 1PN term (--post-newtonian eih) runs on the host only: pick a CPU kernel ",
         "(--kernel cpu-reference or cpu-openmp) or --post-newtonian sun for kernel '", p.kernel,
         "'");
}

StateOps& require_state(StepOps& ops, const IntegratorRow& row) {
  StateOps* s = ops.state();
  if (!s)
    fail("integrator ", row.name,
         " runs on the host only: this body store (a GPU kernel's) does not give its state; pick "
         "a CPU kernel");
  return *s;
}

const IntegratorRow& find_integrator(Integrator id) {
  for (const IntegratorRow& r : integrator_table())
    if (r.id == id) return r;
  fail("integrator: unknown value ", static_cast<int>(id));
}

const IntegratorRow& find_integrator(const std::string& name, const std::string& what) {
  std::ostringstream known;
  for (const IntegratorRow& r : integrator_table()) {
    if (r.name == name) return r;
    for (const std::string& a : r.aliases)
      if (a == name) return r;
    known << (known.tellp() ? ", " : "") << r.name;
  }
  fail(what, ": unknown integrator '", name, "' (allowed: ", known.str(), ")");
}

}  // namespace nbody
