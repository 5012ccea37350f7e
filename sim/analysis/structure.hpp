#pragma once
// Structure diagnostics of galaxies: Lagrangian radii, disk thickness, rotation over dispersion
// and the disk's spin axis, per group of bodies (one group per galaxy of a scene). They make
// heating and drift visible where the energy says nothing (issue 11).

#include <array>
#include <cstddef>
#include <string>
#include <vector>

#include "sim/core/bodies.hpp"

namespace nbody {

/// A named range [begin, end) of bodies in the user's order (e.g. "galaxy 1").
struct BodyGroup {
  std::string name;
  std::size_t begin = 0, end = 0;
};

/// The mass fractions of the Lagrangian radii, in order.
inline constexpr std::array<double, 5> kLagrangianFractions = {0.1, 0.25, 0.5, 0.75, 0.9};

/// Structure of one group at one time. Lengths and speeds in the bodies' units; NaN where a
/// quantity does not apply (e.g. no disk bodies).
struct GroupStructure {
  std::string name;
  std::size_t bodies = 0;
  /// Mass centre of the group (number centre when the group has no mass).
  std::array<double, 3> centre{};
  /// Radii about `centre` enclosing kLagrangianFractions of the group's mass (of its number of
  /// bodies when the group has no mass, e.g. massless stars).
  std::array<double, 5> lagrangian{};
  /// Disk bodies (Component::Disk) of the group; the rest below are NaN when there are none.
  std::size_t disk_bodies = 0;
  /// Unit vector of the disk bodies' angular momentum about their own centre.
  std::array<double, 3> spin_axis{};
  /// Median |z| of the disk bodies above their mid-plane (the plane through their centre normal
  /// to spin_axis).
  double disk_thickness = 0;
  /// Median cylindrical radius of the disk bodies about the spin axis.
  double disk_half_radius = 0;
  /// Mean rotation over one-dimensional dispersion, v̄_φ / sqrt((σ_R² + σ_φ² + σ_z²)/3), of the
  /// disk bodies between the cylindrical radii holding 40 % and 70 % of them.
  double v_over_sigma = 0;
};

/// Measures each group of `groups` (the whole set as one group named "all" when `groups` is
/// empty). O(N log N).
std::vector<GroupStructure> measure_structure(const Bodies& b,
                                              const std::vector<BodyGroup>& groups);

/// Angle in degrees between two spin axes (for the disk's tilt since the start).
double tilt_degrees(const std::array<double, 3>& a, const std::array<double, 3>& b);

}  // namespace nbody
