#pragma once
// Bodies drawn from vertex buffers as point sprites with additive blending. The position
// buffer (float4 x, y, z, mass) and the speed buffer (float) are what the CUDA kernels write
// through interop; the component buffer is uploaded once per scene.

#include <cstddef>
#include <vector>

#include <glm/glm.hpp>

#include "render/distance_scale.hpp"
#include "render/draw_ranges.hpp"
#include "render/gl_objects.hpp"

namespace nbody::render {

enum class ColorMode { Speed = 0, Component = 1, Mass = 2, Body = 3 };

/// How the bodies look; the panel edits it.
struct ParticleStyle {
  float point_size = 2.0f;  ///< pixels at the reference distance
  float brightness = 0.6f;  ///< multiplies the sprite colour
  ColorMode color = ColorMode::Speed;
  float speed_max = 1.0f;     ///< speed at the top of the colour scale
  float log_mass_min = 0.0f;  ///< log10 mass range (colour and size by mass)
  float log_mass_max = 1.0f;
  float mass_size = 0.0f;  ///< 0: same size for all; 1: heaviest bodies 4x bigger
  /// brightness factor per component (star, disk, bulge, dark, gas, planet): 1 shown, < 1 dimmed,
  /// 0 hidden
  float component_gain[6] = {1, 1, 1, 1, 1, 1};
};

class ParticleRenderer {
 public:
  /// Makes the program and vertex array; needs a current GL 4.5 context.
  ParticleRenderer();

  /// (Re)allocates the buffers for n bodies when n differs; returns true when it did (the
  /// interop registration must then be redone).
  bool resize(std::size_t n);
  std::size_t size() const { return n_; }
  /// Uploads n float4 (x, y, z, mass) with glBufferSubData (the CPU and fallback path).
  void upload_positions(const float* xyzm, std::size_t n);
  /// Uploads n speeds.
  void upload_speeds(const float* speed, std::size_t n);
  /// Uploads n component indices (as floats); draw() then submits only the runs of bodies whose
  /// component is shown (draw_ranges.hpp).
  void upload_components(const float* component, std::size_t n);
  /// Uploads n float4 (r, g, b, diameter in pixels at an 800-pixel-high view; 0: the style's
  /// size) used by ColorMode::Body.
  void upload_body_looks(const float* rgbs, std::size_t n);

  GLuint position_buffer() const { return positions_.id(); }
  GLuint speed_buffer() const { return speeds_.id(); }

  /// Draws the bodies with additive blending (depth test off, depth writes off).
  void draw(const glm::mat4& view, const glm::mat4& proj, float ref_distance, float viewport_height,
            const ParticleStyle& style, const DistanceMap& dmap = {}) const;

 private:
  Program program_;
  VertexArray vao_;
  Buffer positions_, speeds_, components_, looks_;
  std::size_t n_ = 0;
  std::vector<ComponentRun> runs_;  // of the uploaded components (empty: draw every body)
};

}  // namespace nbody::render
