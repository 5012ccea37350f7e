#pragma once
// Log-compressed distances for views that span decades (the solar system: Mercury at 0.4 AU,
// Neptune at 30 AU). Only what is drawn moves, never the simulation: a point at distance r from
// the centre is drawn at distance f(r) in the same direction, with
//   f(r) = R ln(1 + r / r0) / ln(1 + R / r0)
// R (the reference radius) stays where it is, so the outer part of the scene keeps its place and
// the inner part spreads out; r0 (the inner radius) is where the compression starts (below it f
// is nearly linear, with slope (R / r0) / ln(1 + R / r0)). f is continuous, strictly increasing
// and f(0) = 0, so the drawn order of distances is the true order. shaders/distance_map.glsl is
// the same function on the GPU (particles, trails, orbit outlines).

#include <glm/glm.hpp>

namespace nbody::render {

/// How distances from the centre are drawn.
enum class DistanceScale { True = 0, Log = 1 };

/// The mapping's parameters for one frame.
struct DistanceMap {
  DistanceScale scale = DistanceScale::True;
  glm::vec3 centre{0.0f};  ///< distances are measured from here (the Sun, a followed body)
  float reference = 1.0f;  ///< R: drawn where it is
  float inner = 0.01f;     ///< r0: the compression starts about here
  bool identity() const { return scale == DistanceScale::True; }
};

/// A log map about `centre` that keeps `reference` in place and starts compressing at
/// reference / `decades_ratio` (100: two decades inside R spread over most of the view).
DistanceMap log_distance_map(const glm::vec3& centre, float reference, float decades_ratio = 100);

/// f(r): the drawn distance of a true distance r >= 0 (r itself for DistanceScale::True).
double map_distance(const DistanceMap& m, double r);
/// The inverse of map_distance: the true distance drawn at distance d.
double unmap_distance(const DistanceMap& m, double d);
/// Where the point p is drawn (p itself for DistanceScale::True, exactly).
glm::vec3 map_point(const DistanceMap& m, const glm::vec3& p);
/// The true point drawn at q (the inverse of map_point).
glm::vec3 unmap_point(const DistanceMap& m, const glm::vec3& q);

/// "true" or "log"; parse_distance_scale returns false for any other text.
const char* distance_scale_name(DistanceScale s);
bool parse_distance_scale(const char* text, DistanceScale& out);

}  // namespace nbody::render
