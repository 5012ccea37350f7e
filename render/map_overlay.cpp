#include "render/map_overlay.hpp"

#include "render/colormap.hpp"
#include "render/shader.hpp"

namespace nbody::render {

DensityTexture::DensityTexture()
    : program_(build_program({{GL_VERTEX_SHADER, "shaders/map_overlay.vert"},
                              {GL_FRAGMENT_SHADER, "shaders/map_overlay.frag"}})),
      vao_(VertexArray::create()) {}

void DensityTexture::update(const float* image, int size) {
  if (size <= 0) return;
  if (size != size_ || !texture_) {
    texture_ = Texture::create(GL_TEXTURE_2D);
    glTextureStorage2D(texture_.id(), 1, GL_RGBA8, size, size);
    glTextureParameteri(texture_.id(), GL_TEXTURE_MIN_FILTER, GL_LINEAR);
    glTextureParameteri(texture_.id(), GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glTextureParameteri(texture_.id(), GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
    glTextureParameteri(texture_.id(), GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
    size_ = size;
  }
  colorize_heat(image, static_cast<std::size_t>(size) * static_cast<std::size_t>(size), rgba_);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 1);
  glTextureSubImage2D(texture_.id(), 0, 0, 0, size, size, GL_RGBA, GL_UNSIGNED_BYTE, rgba_.data());
  NBODY_GL_CHECK((void)0);
}

void DensityTexture::draw_overlay(const glm::mat4& view_proj, int plane, const glm::vec4& bounds,
                                  float alpha) const {
  if (!texture_) return;
  set_uniform(program_, "u_view_proj", view_proj);
  set_uniform(program_, "u_bounds", bounds);
  set_uniform(program_, "u_plane", plane);
  set_uniform(program_, "u_offset", 0.0f);
  set_uniform(program_, "u_alpha", alpha);
  set_uniform(program_, "u_map", 0);
  glDisable(GL_DEPTH_TEST);
  glEnable(GL_BLEND);
  glBlendFunc(GL_SRC_ALPHA, GL_ONE_MINUS_SRC_ALPHA);
  glBindTextureUnit(0, texture_.id());
  glUseProgram(program_.id());
  glBindVertexArray(vao_.id());
  glDrawArrays(GL_TRIANGLE_STRIP, 0, 4);
  glBindVertexArray(0);
  glUseProgram(0);
  glBindTextureUnit(0, 0);
  glDisable(GL_BLEND);
}

}  // namespace nbody::render
