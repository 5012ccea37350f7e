#include <sstream>

#include "sim/core/error.hpp"
#include "sim/integrators/integrator.hpp"

namespace nbody {

const std::vector<IntegratorRow>& integrator_table() {
  static const std::vector<IntegratorRow> table = {leapfrog_row(), yoshida4_row()};
  return table;
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
