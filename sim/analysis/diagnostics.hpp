#pragma once
// Conserved quantities and health numbers of a set of bodies, in double precision.

#include <array>
#include <cstddef>
#include <vector>

#include "sim/core/bodies.hpp"

namespace nbody {

struct Diagnostics {
  double kinetic = 0;    ///< K = 1/2 Σ m v²
  double potential = 0;  ///< W = -G Σ_{i<j} m_i m_j / sqrt(r² + ε²) (the force's softened kernel)
  double total = 0;      ///< E = K + W
  std::array<double, 3> momentum{};          ///< Σ m v
  std::array<double, 3> angular_momentum{};  ///< Σ m x × v
  std::array<double, 3> centre_of_mass{};
  std::array<double, 3> com_velocity{};
  double mass = 0;
  /// 2K/|W| (1 in equilibrium), W the virial Σ x·F: the bodies' pair potential plus, for rigid
  /// halos, their virial (ExternalEnergy::virial), not their potential energy
  double virial_ratio = 0;
  bool finite = true;  ///< false when any position or velocity is NaN/Inf
};

/// Computes all diagnostics; O(N²) for the potential, parallel over OpenMP threads. Rigid halos
/// (b.halos) add their mass, momenta, kinetic energy and field energy.
Diagnostics compute_diagnostics(const Bodies& b, double G, double softening);
/// The same with the bodies' pair potential estimated from the rows of `sample` (user indices)
/// against all bodies, O(|sample| N), when `sample` is not null; everything else is exact.
Diagnostics compute_diagnostics(const Bodies& b, double G, double softening,
                                const std::vector<std::size_t>* sample);

/// Relative energy drift (E - E0) / |E0| (absolute when E0 = 0).
double relative_energy_drift(double e0, double e);

}  // namespace nbody
