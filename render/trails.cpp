#include "render/trails.hpp"

#include "render/shader.hpp"

namespace nbody::render {

Trails::Trails()
    : program_(build_program({{GL_VERTEX_SHADER, "shaders/trails.vert"},
                              {GL_FRAGMENT_SHADER, "shaders/trails.frag"}})),
      vao_(VertexArray::create()) {
  glEnableVertexArrayAttrib(vao_.id(), 0);
  glVertexArrayAttribFormat(vao_.id(), 0, 3, GL_FLOAT, GL_FALSE, 0);
  glVertexArrayAttribBinding(vao_.id(), 0, 0);
}

void Trails::reset(std::size_t n, int length, const float* xyz, std::size_t stride) {
  n_ = n;
  length_ = length > 1 ? length : 2;
  head_ = 0;
  filled_ = 1;
  // every slot of a body starts at its current position
  auto l2 = static_cast<std::size_t>(2 * length_);
  std::vector<float> init(n * l2 * 3);
  for (std::size_t b = 0; b < n; ++b)
    for (std::size_t s = 0; s < l2; ++s)
      for (int c = 0; c < 3; ++c)
        init[(b * l2 + s) * 3 + c] = xyz[b * stride + c];
  buffer_ = Buffer::create();
  glNamedBufferData(buffer_.id(), static_cast<GLsizeiptr>(init.size() * sizeof(float)),
                    init.empty() ? nullptr : init.data(), GL_DYNAMIC_DRAW);
  glVertexArrayVertexBuffer(vao_.id(), 0, buffer_.id(), 0, 3 * sizeof(float));
  NBODY_GL_CHECK((void)0);
}

void Trails::push(const float* xyz, std::size_t stride) {
  if (n_ == 0) return;
  head_ = (head_ + 1) % length_;
  if (filled_ < length_) ++filled_;
  // write slot head and head + L of every body
  auto l2 = static_cast<std::size_t>(2 * length_);
  for (std::size_t b = 0; b < n_; ++b) {
    const float* p = xyz + b * stride;
    for (std::size_t slot :
         {static_cast<std::size_t>(head_), static_cast<std::size_t>(head_ + length_)})
      glNamedBufferSubData(buffer_.id(), static_cast<GLintptr>((b * l2 + slot) * 3 * sizeof(float)),
                           3 * sizeof(float), p);
  }
}

void Trails::draw(const glm::mat4& view_proj, float alpha) const {
  if (n_ == 0) return;
  set_uniform(program_, "u_view_proj", view_proj);
  set_uniform(program_, "u_length", length_);
  set_uniform(program_, "u_head", head_);
  set_uniform(program_, "u_filled", filled_);
  set_uniform(program_, "u_alpha", alpha);
  // the newest L samples of body b: slots head+1 .. head+L
  auto& first = first_;
  auto& count = count_;
  first.resize(n_);
  count.assign(n_, length_);
  for (std::size_t b = 0; b < n_; ++b)
    first[b] = static_cast<GLint>(b * 2 * static_cast<std::size_t>(length_)) + head_ + 1;
  glDisable(GL_DEPTH_TEST);
  glEnable(GL_BLEND);
  glBlendFunc(GL_ONE, GL_ONE);
  glUseProgram(program_.id());
  glBindVertexArray(vao_.id());
  glMultiDrawArrays(GL_LINE_STRIP, first.data(), count.data(), static_cast<GLsizei>(n_));
  glBindVertexArray(0);
  glUseProgram(0);
  glDisable(GL_BLEND);
}

}  // namespace nbody::render
