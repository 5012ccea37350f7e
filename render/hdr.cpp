#include "render/hdr.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "render/shader.hpp"

namespace nbody::render {
namespace {

Texture float_texture(int w, int h) {
  Texture t = Texture::create(GL_TEXTURE_2D);
  glTextureStorage2D(t.id(), 1, GL_RGBA16F, w, h);
  glTextureParameteri(t.id(), GL_TEXTURE_MIN_FILTER, GL_LINEAR);
  glTextureParameteri(t.id(), GL_TEXTURE_MAG_FILTER, GL_LINEAR);
  glTextureParameteri(t.id(), GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTextureParameteri(t.id(), GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  return t;
}

Framebuffer framebuffer_for(const Texture& t) {
  Framebuffer f = Framebuffer::create();
  glNamedFramebufferTexture(f.id(), GL_COLOR_ATTACHMENT0, t.id(), 0);
  if (glCheckNamedFramebufferStatus(f.id(), GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE)
    throw GlError("HDR framebuffer (RGBA16F) is incomplete");
  return f;
}

}  // namespace

HdrTarget::HdrTarget()
    : tonemap_(build_program({{GL_VERTEX_SHADER, "shaders/fullscreen.vert"},
                              {GL_FRAGMENT_SHADER, "shaders/tonemap.frag"}})),
      blur_(build_program({{GL_VERTEX_SHADER, "shaders/fullscreen.vert"},
                           {GL_FRAGMENT_SHADER, "shaders/blur.frag"}})),
      vao_(VertexArray::create()) {}

void HdrTarget::allocate(int w, int h) {
  if (w == width_ && h == height_ && fbo_) return;
  color_ = float_texture(w, h);
  fbo_ = framebuffer_for(color_);
  ldr_ = Texture::create(GL_TEXTURE_2D);
  glTextureStorage2D(ldr_.id(), 1, GL_RGBA8, w, h);
  ldr_fbo_ = framebuffer_for(ldr_);
  kept_ = false;
  int gw = std::max(w / 2, 1), gh = std::max(h / 2, 1);
  for (int i = 0; i < 2; ++i) {
    glow_[i] = float_texture(gw, gh);
    glow_fbo_[i] = framebuffer_for(glow_[i]);
  }
  width_ = w;
  height_ = h;
  NBODY_GL_CHECK((void)0);
}

void HdrTarget::begin(int w, int h, const glm::vec3& clear, float resolution) {
  target_w_ = std::max(w, 1);
  target_h_ = std::max(h, 1);
  const float r = std::clamp(resolution, 0.25f, 1.0f);
  allocate(std::max(static_cast<int>(std::lround(target_w_ * r)), 1),
           std::max(static_cast<int>(std::lround(target_h_ * r)), 1));
  glBindFramebuffer(GL_FRAMEBUFFER, fbo_.id());
  glViewport(0, 0, width_, height_);
  glClearColor(clear.r, clear.g, clear.b, 1.0f);
  glClear(GL_COLOR_BUFFER_BIT);
}

void HdrTarget::resolve(GLuint target, const ToneMapping& t, bool keep) {
  // smaller than the target, or kept: through the 8-bit image, then scaled up
  kept_ = false;
  const bool through = keep || width_ != target_w_ || height_ != target_h_;
  glDisable(GL_BLEND);
  glDisable(GL_DEPTH_TEST);
  glBindVertexArray(vao_.id());
  int gw = std::max(width_ / 2, 1), gh = std::max(height_ / 2, 1);
  if (t.glow) {
    // bright part to half resolution, then a horizontal and a vertical blur
    glUseProgram(blur_.id());
    set_uniform(blur_, "u_knee", t.knee);
    set_uniform(blur_, "u_exposure", t.exposure);
    const GLuint src[3] = {color_.id(), glow_[0].id(), glow_[1].id()};
    const int dst[3] = {0, 1, 0};
    const glm::vec2 dir[3] = {glm::vec2(0), glm::vec2(1.0f / gw, 0), glm::vec2(0, 1.0f / gh)};
    for (int pass = 0; pass < 3; ++pass) {
      glBindFramebuffer(GL_FRAMEBUFFER, glow_fbo_[dst[pass]].id());
      glViewport(0, 0, gw, gh);
      glBindTextureUnit(0, src[pass]);
      set_uniform(blur_, "u_pass", pass);
      set_uniform(blur_, "u_dir", dir[pass]);
      glDrawArrays(GL_TRIANGLES, 0, 3);
    }
  }
  const bool scaled = width_ != target_w_ || height_ != target_h_;
  if (through && (shown_w_ != target_w_ || shown_h_ != target_h_ || !shown_)) {
    // the kept image at the target's size: shown again by a plain copy
    shown_ = Texture::create(GL_TEXTURE_2D);
    glTextureStorage2D(shown_.id(), 1, GL_RGBA8, target_w_, target_h_);
    shown_fbo_ = framebuffer_for(shown_);
    shown_w_ = target_w_;
    shown_h_ = target_h_;
  }
  glBindFramebuffer(GL_FRAMEBUFFER, !through ? target : (scaled ? ldr_fbo_.id() : shown_fbo_.id()));
  glViewport(0, 0, width_, height_);
  glUseProgram(tonemap_.id());
  glBindTextureUnit(0, color_.id());
  glBindTextureUnit(1, glow_[0].id());
  set_uniform(tonemap_, "u_hdr", 0);
  set_uniform(tonemap_, "u_glow", 1);
  set_uniform(tonemap_, "u_exposure", t.exposure);
  set_uniform(tonemap_, "u_knee", t.knee);
  set_uniform(tonemap_, "u_gamma", t.gamma);
  set_uniform(tonemap_, "u_glow_strength", t.glow ? t.glow_strength : 0.0f);
  glDrawArrays(GL_TRIANGLES, 0, 3);
  glBindVertexArray(0);
  glUseProgram(0);
  glBindTextureUnit(0, 0);
  glBindTextureUnit(1, 0);
  if (through) {
    // scaled up once (linear filter) into the kept image, then copied to the target
    if (scaled)
      glBlitNamedFramebuffer(ldr_fbo_.id(), shown_fbo_.id(), 0, 0, width_, height_, 0, 0, target_w_,
                             target_h_, GL_COLOR_BUFFER_BIT, GL_LINEAR);
    kept_ = true;
    present(target);
  }
}

bool HdrTarget::present(GLuint target) const {
  if (!kept_ || shown_w_ != target_w_ || shown_h_ != target_h_) return false;
  glBlitNamedFramebuffer(shown_fbo_.id(), target, 0, 0, shown_w_, shown_h_, 0, 0, shown_w_,
                         shown_h_, GL_COLOR_BUFFER_BIT, GL_NEAREST);
  glBindFramebuffer(GL_FRAMEBUFFER, target);
  glViewport(0, 0, target_w_, target_h_);
  return true;
}

std::size_t HdrTarget::count_above(float level, float* brightest) const {
  if (!color_) return 0;
  std::vector<float> px(static_cast<std::size_t>(width_) * static_cast<std::size_t>(height_) * 4);
  glGetTextureImage(color_.id(), 0, GL_RGBA, GL_FLOAT, static_cast<GLsizei>(px.size() * 4),
                    px.data());
  std::size_t n = 0;
  float top = 0;
  for (std::size_t i = 0; i < px.size(); i += 4) {
    float m = std::max({px[i], px[i + 1], px[i + 2]});
    top = std::max(top, m);
    n += m > level;
  }
  if (brightest) *brightest = top;
  return n;
}

}  // namespace nbody::render
