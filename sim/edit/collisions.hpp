#pragma once
// Collisions as mergers (issue 19): bodies that touch become one, conserving mass and momentum
// exactly as an Edit::Kind::Merge does. A body's radius comes from its mass and a density in
// physical units, or from the softening.

#include <string>
#include <vector>

#include "sim/core/scene.hpp"

namespace nbody {

/// How touching is decided.
struct MergeRule {
  /// Radius ε/2 for every body (they touch when closer than ε) instead of the density's.
  bool use_softening = false;
  /// Density of the bodies for their radius cbrt(3 m / (4 π ρ)) (physical units only).
  double density_kg_m3 = 3000;
};

/// One merger: the body that stayed (the heaviest), the ones it absorbed, where it happened.
struct MergeEvent {
  std::string survivor;
  std::vector<std::string> absorbed;
  double x = 0, y = 0, z = 0;
};

/// The radius of a body of mass m in `s` (scene length units) by rule `r`: from the density when
/// the scene's units are physical and !r.use_softening (0 for a massless body), else ε/2.
double body_radius(const Scene& s, const MergeRule& r, double softening, double m);

/// Merges every group of touching bodies of `s` (distance < the sum of the radii; touching is
/// followed transitively, so a chain of three becomes one body) with Edit::Kind::Merge's rule,
/// and returns one event per merger. Massless bodies never merge with each other; a massless
/// body touching a massive one is absorbed; bodies carrying rigid halos never merge. Pairs are
/// found on a grid of cells sorted by key and swept once: O(N log N). Throws nbody::Error for a
/// density that is not finite and positive.
std::vector<MergeEvent> merge_touching(Scene& s, const MergeRule& r, double softening);

}  // namespace nbody
