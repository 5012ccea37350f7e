#pragma once
// Colour scales shared by the shaders (same stops in shaders/colormap.glsl) and the panel's
// colour bars, and the colourising of the density map.

#include <cstddef>
#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

namespace nbody::render {

/// Speed scale, t in [0, 1]: blue (slow) - cyan - white - orange - red (fast).
glm::vec3 speed_color(float t);
/// Heat scale for the density map, t in [0, 1]: black - purple - red - orange - pale yellow.
glm::vec3 heat_color(float t);
/// Colour of a body component (index of nbody::Component: star, disk, bulge, dark, gas, planet).
glm::vec3 component_color(int component);
/// Colourises a [0, 1] image with heat_color into opaque RGBA8.
void colorize_heat(const float* image, std::size_t n, std::vector<std::uint8_t>& rgba);

}  // namespace nbody::render
