#pragma once
// High-dynamic-range accumulation: the bodies, trails and overlays are added into a float
// (RGBA16F) framebuffer, then tone-mapped into the bound framebuffer with a soft knee that keeps
// colours below the knee as they are and compresses bright cores without turning them white
// (hue kept). An optional glow blurs the bright part at half resolution and adds it back.

#include <cstddef>

#include <glm/glm.hpp>

#include "render/gl_objects.hpp"

namespace nbody::render {

/// How the HDR frame is mapped to the screen; the panel edits it.
struct ToneMapping {
  /// false: bodies drawn straight into the target in 8 bits (no float frame, no curve, no glow)
  bool hdr = true;
  float exposure = 1.0f;  ///< multiplies the accumulated light before the curve
  float knee = 0.6f;      ///< values below stay linear, above approach 1 smoothly
  float gamma = 1.0f;     ///< > 1 lifts faint light (faint tails)
  bool glow = false;
  float glow_strength = 0.6f;
};

class HdrTarget {
 public:
  /// Makes the programs; needs a current GL 4.5 context.
  HdrTarget();
  /// (Re)allocates for width×height when needed, binds the float framebuffer, sets the viewport
  /// and clears it to `clear` (the background, in linear units).
  void begin(int width, int height, const glm::vec3& clear);
  /// Tone-maps the accumulated frame into `target` (0: the default framebuffer).
  void resolve(GLuint target, const ToneMapping& t);
  int width() const { return width_; }
  int height() const { return height_; }
  /// Diagnostics (reads the float frame back, slow): pixels whose brightest channel exceeds
  /// `level`, and the brightest value.
  std::size_t count_above(float level, float* brightest = nullptr) const;

 private:
  void allocate(int width, int height);

  Program tonemap_, blur_;
  VertexArray vao_;
  Framebuffer fbo_, glow_fbo_[2];
  Texture color_, glow_[2];
  int width_ = 0, height_ = 0;
};

}  // namespace nbody::render
