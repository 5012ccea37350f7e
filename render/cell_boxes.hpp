#pragma once
// Wireframe boxes over the bodies: the cells of a tree kernel's octree, drawn as 12 lines each
// and coloured by depth (for people learning how Barnes-Hut groups distant bodies).

#include <cstddef>
#include <vector>

#include <glm/glm.hpp>

#include "render/gl_objects.hpp"

namespace nbody::render {

/// One box: centre, half side, depth.
struct Box {
  float cx, cy, cz, half;
  int level;
};

class CellBoxes {
 public:
  /// Makes the program; needs a current GL context.
  CellBoxes();
  /// Replaces the boxes (uploads 24 vertices per box).
  void set(const std::vector<Box>& boxes);
  /// Draws the boxes with additive blending; `max_level` scales the colours.
  void draw(const glm::mat4& view_proj, float alpha, int max_level) const;
  std::size_t size() const { return count_ / 24; }

 private:
  Program program_;
  VertexArray vao_;
  Buffer buffer_;
  std::size_t capacity_ = 0;  // vertices the buffer holds
  std::size_t count_ = 0;     // vertices to draw
  std::vector<float> scratch_;
};

}  // namespace nbody::render
