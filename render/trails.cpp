#include "render/trails.hpp"

#include <algorithm>

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

void Trails::push_many(const float* samples, int count) {
  if (n_ == 0 || count <= 0) return;
  // only the newest L samples can show
  if (count > length_) {
    samples += static_cast<std::size_t>(count - length_) * n_ * 3;
    count = length_;
  }
  int first_slot = (head_ + 1) % length_;
  head_ = (head_ + count) % length_;
  filled_ = std::min(filled_ + count, length_);
  // per body: the samples in slot order, written at slot and slot + L (at most two runs each)
  auto l2 = static_cast<std::size_t>(2 * length_);
  scratch_.resize(static_cast<std::size_t>(count) * 3);
  for (std::size_t b = 0; b < n_; ++b) {
    for (int s = 0; s < count; ++s)
      for (int c = 0; c < 3; ++c)
        scratch_[static_cast<std::size_t>(s) * 3 + c] =
            samples[(static_cast<std::size_t>(s) * n_ + b) * 3 + c];
    int done = 0;
    while (done < count) {
      int slot = (first_slot + done) % length_;
      int run = std::min(count - done, length_ - slot);
      for (int copy = 0; copy < 2; ++copy) {
        std::size_t at = (b * l2 + static_cast<std::size_t>(slot + copy * length_)) * 3;
        glNamedBufferSubData(buffer_.id(), static_cast<GLintptr>(at * sizeof(float)),
                             static_cast<GLsizeiptr>(run * 3 * sizeof(float)),
                             scratch_.data() + static_cast<std::size_t>(done) * 3);
      }
      done += run;
    }
  }
}

void Trails::set_colors(const std::vector<glm::vec3>& colors) {
  colors_.assign(colors.begin(), colors.begin() + std::min<std::size_t>(colors.size(), 64));
}

void Trails::draw(const glm::mat4& view_proj, float alpha, const DistanceMap& dmap) const {
  if (n_ == 0) return;
  set_uniform(program_, "u_view_proj", view_proj);
  set_distance_uniforms(program_, dmap);
  set_uniform(program_, "u_length", length_);
  set_uniform(program_, "u_head", head_);
  set_uniform(program_, "u_filled", filled_);
  set_uniform(program_, "u_alpha", alpha);
  set_uniform(program_, "u_ncolors", static_cast<int>(colors_.size()));
  if (!colors_.empty())
    glProgramUniform3fv(program_.id(), glGetUniformLocation(program_.id(), "u_colors"),
                        static_cast<GLsizei>(colors_.size()), &colors_[0].x);
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
