#include "render/offscreen.hpp"

#include <string>

namespace nbody::render {

OffscreenTarget::OffscreenTarget(int width, int height)
    : fbo_(Framebuffer::create()),
      color_(Renderbuffer::create()),
      depth_(Renderbuffer::create()),
      width_(width),
      height_(height) {
  glNamedRenderbufferStorage(color_.id(), GL_RGBA8, width, height);
  glNamedRenderbufferStorage(depth_.id(), GL_DEPTH_COMPONENT24, width, height);
  glNamedFramebufferRenderbuffer(fbo_.id(), GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color_.id());
  glNamedFramebufferRenderbuffer(fbo_.id(), GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, depth_.id());
  GLenum status = glCheckNamedFramebufferStatus(fbo_.id(), GL_FRAMEBUFFER);
  if (status != GL_FRAMEBUFFER_COMPLETE)
    throw GlError("offscreen framebuffer " + std::to_string(width) + "x" + std::to_string(height) +
                  " is incomplete (status " + std::to_string(status) + ")");
}

void OffscreenTarget::bind() const {
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_.id());
  glViewport(0, 0, width_, height_);
}

}  // namespace nbody::render
