#include "render/cell_boxes.hpp"

#include "render/gl_check.hpp"
#include "render/shader.hpp"

namespace nbody::render {

CellBoxes::CellBoxes()
    : program_(build_program({{GL_VERTEX_SHADER, "shaders/cell_boxes.vert"},
                              {GL_FRAGMENT_SHADER, "shaders/cell_boxes.frag"}})),
      vao_(VertexArray::create()) {
  glEnableVertexArrayAttrib(vao_.id(), 0);
  glVertexArrayAttribFormat(vao_.id(), 0, 4, GL_FLOAT, GL_FALSE, 0);
  glVertexArrayAttribBinding(vao_.id(), 0, 0);
}

void CellBoxes::set(const std::vector<Box>& boxes) {
  // the 12 edges of a cube as pairs of corner indices (corner bits: x, y, z)
  static const int kEdges[12][2] = {{0, 1}, {2, 3}, {4, 5}, {6, 7}, {0, 2}, {1, 3},
                                    {4, 6}, {5, 7}, {0, 4}, {1, 5}, {2, 6}, {3, 7}};
  scratch_.clear();
  scratch_.reserve(boxes.size() * 24 * 4);
  for (const Box& b : boxes)
    for (const auto& e : kEdges)
      for (int c : e) {
        scratch_.push_back(b.cx + ((c & 1) ? b.half : -b.half));
        scratch_.push_back(b.cy + ((c & 2) ? b.half : -b.half));
        scratch_.push_back(b.cz + ((c & 4) ? b.half : -b.half));
        scratch_.push_back(static_cast<float>(b.level));
      }
  count_ = boxes.size() * 24;
  // grow the buffer when needed, else update in place
  if (count_ > capacity_ || !buffer_.id()) {
    buffer_ = Buffer::create();
    capacity_ = count_ + count_ / 2 + 24;
    glNamedBufferData(buffer_.id(), static_cast<GLsizeiptr>(capacity_ * 4 * sizeof(float)), nullptr,
                      GL_DYNAMIC_DRAW);
    glVertexArrayVertexBuffer(vao_.id(), 0, buffer_.id(), 0, 4 * sizeof(float));
  }
  if (count_)
    glNamedBufferSubData(buffer_.id(), 0, static_cast<GLsizeiptr>(scratch_.size() * sizeof(float)),
                         scratch_.data());
  NBODY_GL_CHECK((void)0);
}

void CellBoxes::draw(const glm::mat4& view_proj, float alpha, int max_level) const {
  if (count_ == 0) return;
  set_uniform(program_, "u_view_proj", view_proj);
  set_uniform(program_, "u_alpha", alpha);
  set_uniform(program_, "u_max_level", static_cast<float>(max_level));
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
