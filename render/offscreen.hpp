#pragma once
// An offscreen render target: framebuffer with an RGBA8 colour and a depth renderbuffer.

#include "render/gl_objects.hpp"

namespace nbody::render {

class OffscreenTarget {
 public:
  OffscreenTarget() = default;
  /// Makes a width×height target; throws GlError when the framebuffer is incomplete.
  OffscreenTarget(int width, int height);
  /// Binds it for drawing and reading and sets the viewport.
  void bind() const;
  int width() const { return width_; }
  int height() const { return height_; }
  GLuint id() const { return fbo_.id(); }

 private:
  Framebuffer fbo_;
  Renderbuffer color_, depth_;
  int width_ = 0, height_ = 0;
};

}  // namespace nbody::render
