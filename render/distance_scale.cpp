#include "render/distance_scale.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>

namespace nbody::render {

DistanceMap log_distance_map(const glm::vec3& centre, float reference, float decades_ratio) {
  DistanceMap m;
  m.scale = DistanceScale::Log;
  m.centre = centre;
  m.reference = std::isfinite(reference) && reference > 0 ? reference : 1.0f;
  const float ratio = std::isfinite(decades_ratio) && decades_ratio > 1 ? decades_ratio : 100.0f;
  m.inner = m.reference / ratio;
  return m;
}

double map_distance(const DistanceMap& m, double r) {
  if (m.identity() || !(r > 0)) return r;
  const double r0 = m.inner, big_r = m.reference;
  return big_r * std::log1p(r / r0) / std::log1p(big_r / r0);
}

double unmap_distance(const DistanceMap& m, double d) {
  if (m.identity() || !(d > 0)) return d;
  const double r0 = m.inner, big_r = m.reference;
  return r0 * std::expm1(d * std::log1p(big_r / r0) / big_r);
}

namespace {

// moves p along its direction from the centre so its distance becomes g(distance)
template <class G>
glm::vec3 rescale(const DistanceMap& m, const glm::vec3& p, G g) {
  const glm::dvec3 d = glm::dvec3(p) - glm::dvec3(m.centre);
  const double r = glm::length(d);
  if (!(r > 0) || !std::isfinite(r)) return p;
  return glm::vec3(glm::dvec3(m.centre) + d * (g(r) / r));
}

}  // namespace

glm::vec3 map_point(const DistanceMap& m, const glm::vec3& p) {
  if (m.identity()) return p;
  return rescale(m, p, [&](double r) { return map_distance(m, r); });
}

glm::vec3 unmap_point(const DistanceMap& m, const glm::vec3& q) {
  if (m.identity()) return q;
  return rescale(m, q, [&](double d) { return unmap_distance(m, d); });
}

const char* distance_scale_name(DistanceScale s) {
  return s == DistanceScale::Log ? "log" : "true";
}

bool parse_distance_scale(const char* text, DistanceScale& out) {
  if (!text) return false;
  if (std::strcmp(text, "true") == 0) return out = DistanceScale::True, true;
  if (std::strcmp(text, "log") == 0) return out = DistanceScale::Log, true;
  return false;
}

}  // namespace nbody::render
