#include "render/orbit_lines.hpp"

#include "render/gl_check.hpp"
#include "render/shader.hpp"

namespace nbody::render {

OrbitLines::OrbitLines()
    : program_(build_program({{GL_VERTEX_SHADER, "shaders/orbit_lines.vert"},
                              {GL_FRAGMENT_SHADER, "shaders/orbit_lines.frag"}})),
      vao_(VertexArray::create()) {
  // x, y, z, r, g, b per vertex
  glEnableVertexArrayAttrib(vao_.id(), 0);
  glVertexArrayAttribFormat(vao_.id(), 0, 3, GL_FLOAT, GL_FALSE, 0);
  glVertexArrayAttribBinding(vao_.id(), 0, 0);
  glEnableVertexArrayAttrib(vao_.id(), 1);
  glVertexArrayAttribFormat(vao_.id(), 1, 3, GL_FLOAT, GL_FALSE, 3 * sizeof(float));
  glVertexArrayAttribBinding(vao_.id(), 1, 0);
}

void OrbitLines::set(const std::vector<Outline>& outlines) {
  scratch_.clear();
  for (const Outline& o : outlines) {
    const std::size_t n = o.points.size();
    if (n < 2) continue;
    for (std::size_t k = 0; k < n; ++k)
      for (const glm::vec3& p : {o.points[k], o.points[(k + 1) % n]}) {
        scratch_.insert(scratch_.end(), {p.x, p.y, p.z, o.color.r, o.color.g, o.color.b});
      }
  }
  count_ = scratch_.size() / 6;
  // grow the buffer when needed, else update in place
  if (count_ > capacity_ || !buffer_.id()) {
    buffer_ = Buffer::create();
    capacity_ = count_ + count_ / 2 + 64;
    glNamedBufferData(buffer_.id(), static_cast<GLsizeiptr>(capacity_ * 6 * sizeof(float)), nullptr,
                      GL_DYNAMIC_DRAW);
    glVertexArrayVertexBuffer(vao_.id(), 0, buffer_.id(), 0, 6 * sizeof(float));
  }
  if (count_)
    glNamedBufferSubData(buffer_.id(), 0, static_cast<GLsizeiptr>(scratch_.size() * sizeof(float)),
                         scratch_.data());
  NBODY_GL_CHECK((void)0);
}

void OrbitLines::draw(const glm::mat4& view_proj, float alpha, const DistanceMap& dmap) const {
  if (count_ == 0) return;
  set_uniform(program_, "u_view_proj", view_proj);
  set_distance_uniforms(program_, dmap);
  set_uniform(program_, "u_alpha", alpha);
  glDisable(GL_DEPTH_TEST);
  glEnable(GL_BLEND);
  glBlendFunc(GL_ONE, GL_ONE);
  glUseProgram(program_.id());
  glBindVertexArray(vao_.id());
  glDrawArrays(GL_LINES, 0, static_cast<GLsizei>(count_));
  glBindVertexArray(0);
  glUseProgram(0);
  glDisable(GL_BLEND);
}

}  // namespace nbody::render
