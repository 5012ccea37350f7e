#pragma once
// High-dynamic-range accumulation: the bodies, trails and overlays are added into a float
// (RGBA16F) framebuffer, then tone-mapped into the bound framebuffer with a soft knee that keeps
// colours below the knee as they are and compresses bright cores without turning them white
// (hue kept). An optional glow blurs the bright part at half resolution and adds it back.
// The float frame may be smaller than the target (resolution < 1, for software rasterizers):
// it is then tone-mapped at its own size into an 8-bit image that is scaled up (linear filter)
// once into a kept image of the target's size. That image can be copied to the target again
// while nothing in the view changes (a copy, the cheapest thing a software rasterizer does).

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
  /// size of the float frame relative to the target (0.25..1; < 1: 1/resolution² fewer pixels
  /// to clear, draw and tone-map, scaled up at the end)
  float resolution = 1.0f;
};

class HdrTarget {
 public:
  /// Makes the programs; needs a current GL 4.5 context.
  HdrTarget();
  /// (Re)allocates for a width×height target at `resolution` of its size when needed, binds the
  /// float framebuffer, sets the viewport to the float frame's size and clears it to `clear`
  /// (the background, in linear units).
  void begin(int width, int height, const glm::vec3& clear, float resolution = 1.0f);
  /// Tone-maps the accumulated frame into `target` (0: the default framebuffer) of the size
  /// begin() was given. With `keep`, or when the float frame is smaller than the target, the
  /// result goes through an 8-bit image of the float frame's size that present() can show again.
  void resolve(GLuint target, const ToneMapping& t, bool keep = false);
  /// Shows the image the last resolve() kept, scaled to the target; false when none is kept.
  bool present(GLuint target) const;
  /// The float frame's size (the viewport the bodies are drawn into).
  int width() const { return width_; }
  int height() const { return height_; }
  /// Diagnostics (reads the float frame back, slow): pixels whose brightest channel exceeds
  /// `level`, and the brightest value.
  std::size_t count_above(float level, float* brightest = nullptr) const;

 private:
  void allocate(int width, int height);

  Program tonemap_, blur_;
  VertexArray vao_;
  Framebuffer fbo_, glow_fbo_[2], ldr_fbo_, shown_fbo_;
  Texture color_, glow_[2], ldr_, shown_;  // ldr_: tone-mapped (float size); shown_: kept
  int shown_w_ = 0, shown_h_ = 0;
  int width_ = 0, height_ = 0;       // the float frame
  int target_w_ = 0, target_h_ = 0;  // the target begin() was given
  bool kept_ = false;                // shown_ holds the last resolved frame
};

}  // namespace nbody::render
