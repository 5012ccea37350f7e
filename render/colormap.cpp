#include "render/colormap.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace nbody::render {
namespace {

// piecewise-linear ramp through evenly spaced stops
template <std::size_t N>
glm::vec3 ramp(const std::array<glm::vec3, N>& stops, float t) {
  if (!std::isfinite(t)) t = 0;
  t = std::clamp(t, 0.0f, 1.0f) * static_cast<float>(N - 1);
  auto i = std::min(static_cast<std::size_t>(t), N - 2);
  return glm::mix(stops[i], stops[i + 1], t - static_cast<float>(i));
}

// keep in sync with shaders/particles.vert
constexpr std::array<glm::vec3, 5> kSpeed = {
    glm::vec3(0.20f, 0.35f, 1.00f), glm::vec3(0.30f, 0.80f, 1.00f), glm::vec3(1.00f, 0.96f, 0.90f),
    glm::vec3(1.00f, 0.62f, 0.20f), glm::vec3(1.00f, 0.22f, 0.12f)};
constexpr std::array<glm::vec3, 6> kHeat = {
    glm::vec3(0.00f, 0.00f, 0.02f), glm::vec3(0.26f, 0.04f, 0.41f), glm::vec3(0.58f, 0.15f, 0.40f),
    glm::vec3(0.87f, 0.32f, 0.23f), glm::vec3(0.99f, 0.65f, 0.04f), glm::vec3(0.99f, 1.00f, 0.64f)};
constexpr std::array<glm::vec3, 6> kComponent = {
    glm::vec3(1.00f, 0.90f, 0.70f),  // star
    glm::vec3(0.45f, 0.70f, 1.00f),  // disk
    glm::vec3(1.00f, 0.75f, 0.35f),  // bulge
    glm::vec3(0.55f, 0.45f, 0.75f),  // dark
    glm::vec3(0.40f, 1.00f, 0.60f),  // gas
    glm::vec3(0.70f, 0.85f, 1.00f),  // planet
};

}  // namespace

glm::vec3 speed_color(float t) {
  return ramp(kSpeed, t);
}
glm::vec3 heat_color(float t) {
  return ramp(kHeat, t);
}
glm::vec3 component_color(int c) {
  return kComponent[static_cast<std::size_t>(std::clamp(c, 0, 5))];
}

void colorize_heat(const float* image, std::size_t n, std::vector<std::uint8_t>& rgba) {
  rgba.resize(n * 4);
  for (std::size_t i = 0; i < n; ++i) {
    float v = std::isfinite(image[i]) ? std::clamp(image[i], 0.0f, 1.0f) : 0.0f;
    glm::vec3 c = heat_color(v);
    rgba[4 * i + 0] = static_cast<std::uint8_t>(c.r * 255.0f + 0.5f);
    rgba[4 * i + 1] = static_cast<std::uint8_t>(c.g * 255.0f + 0.5f);
    rgba[4 * i + 2] = static_cast<std::uint8_t>(c.b * 255.0f + 0.5f);
    rgba[4 * i + 3] = 255;  // opaque in the panel; the overlay derives its alpha from the colour
  }
}

}  // namespace nbody::render
