#include "sim/integrator.hpp"

#include <cmath>

namespace nbody {

Scheme scheme(Integrator i) {
  if (i == Integrator::Yoshida4) {
    const double c = std::cbrt(2.0);
    const double w1 = 1.0 / (2.0 - c), w0 = -c * w1;
    return {{w1 / 2, (w1 + w0) / 2, (w0 + w1) / 2, w1 / 2}, {w1, w0, w1}};
  }
  return {{0.5, 0.5}, {1.0}};
}

}  // namespace nbody
