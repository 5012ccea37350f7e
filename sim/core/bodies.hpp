#pragma once
// Bodies as a structure of arrays, in double precision on the host. Backends keep their own
// copies (float or double, host or device); this is the exchange format.

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "sim/forces/external_field.hpp"

namespace nbody {

/// What a body is; the renderer colours by it and the loaders select by it.
enum class Component : std::uint8_t {
  Star = 0,
  Disk = 1,
  Bulge = 2,
  Dark = 3,
  Gas = 4,
  Planet = 5
};
inline constexpr int kComponentCount = 6;
const char* component_name(Component c);

/// Structure of arrays of N bodies. All arrays have the same length; `name` is either empty or
/// has one entry per body (small scenes label their bodies).
struct Bodies {
  std::vector<double> x, y, z;
  std::vector<double> vx, vy, vz;
  std::vector<double> m;
  std::vector<Component> component;
  std::vector<std::string> name;
  /// Rigid dark halos (sim/forces/external_field.hpp), each centred on a massless body of these
  /// arrays; empty for most scenes. The halos' masses count in total_mass() and the centre of
  /// mass.
  std::vector<RigidHalo> halos;

  std::size_t size() const { return m.size(); }
  bool empty() const { return m.empty(); }
  void clear();
  void reserve(std::size_t n);
  void resize(std::size_t n);
  /// Appends one body.
  void add(double px, double py, double pz, double pvx, double pvy, double pvz, double mass,
           Component c = Component::Star, std::string label = {});
  /// Appends all bodies of `other` (and its halos, their anchors shifted by size()).
  void append(const Bodies& other);
  /// Throws nbody::Error naming `source` when arrays differ in length, a value is NaN/Inf, a mass
  /// is negative, the total mass is not positive, N = 0, or a halo is invalid.
  void validate(const std::string& source) const;
  /// Total mass, the rigid halos' included.
  double total_mass() const;
  /// Shifts positions and velocities so the centre of mass (rigid halos included, at their
  /// anchors) is at rest at the origin.
  void to_centre_of_mass_frame();
};

}  // namespace nbody
