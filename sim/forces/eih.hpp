#pragma once
// The Einstein-Infeld-Hoffmann 1PN accelerations of every body in the field of every massive
// body (the point-mass part of the ephemerides' equations of motion), host double precision,
// O(N n_massive). The alternative to the Sun-only term of sim/forces/post_newtonian.hpp: the
// body stores add it when PhysicsParams::pn_model is PnModel::EIH. No GPU kernel computes it.

#include <cstddef>

namespace nbody {

/// What the EIH term reads: n bodies in double (the massive ones first: [0, n_massive) have
/// mu = G m > 0, the rest are test particles that feel the field and exert none), their
/// positions and velocities, and 1/c².
struct EihBodies {
  std::size_t n = 0, n_massive = 0;
  const double *x = nullptr, *y = nullptr, *z = nullptr;
  const double *vx = nullptr, *vy = nullptr, *vz = nullptr;
  const double* mu = nullptr;  ///< G m of the massive bodies (n_massive values)
  double inv_c2 = 0;
};

/// ax, ay, az (n values each) = the 1PN part of the EIH acceleration of every body (the total
/// minus Newton's), with beta = gamma = 1: Newhall, Standish & Williams (A&A 125, 150, 1983)
/// eq. (1); Folkner et al. (IPN Progress Report 42-196, 2014; the DE430 report) eq. (27),
/// point masses only:
///
///   a_i = sum_j mu_j (r_j - r_i) / r_ij³ [1 - 4/c² sum_(k!=i) mu_k / r_ik
///           - 1/c² sum_(k!=j) mu_k / r_jk + v_i²/c² + 2 v_j²/c² - 4/c² v_i.v_j
///           - 3/(2c²) ((r_i - r_j).v_j / r_ij)² + 1/(2c²) (r_j - r_i).a_j]
///       + 1/c² sum_j mu_j / r_ij³ [(r_i - r_j).(4 v_i - 3 v_j)] (v_i - v_j)
///       + 7/(2c²) sum_j mu_j a_j / r_ij,
///
/// sums over the massive bodies j != i, a_j the Newtonian acceleration of j (the error of that
/// is of order 1/c⁴). Unsoftened; coincident bodies are skipped. With one massive body at rest
/// this is the Sun-only term. `threads` OpenMP threads.
void eih_accelerations(const EihBodies& b, double* ax, double* ay, double* az, int threads);

}  // namespace nbody
