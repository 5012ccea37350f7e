#pragma once
// Orbit ellipses: closed outlines, each in its own colour, drawn as faint lines added to the
// frame (the planets' paths about the Sun, the Moon's about the Earth).

#include <cstddef>
#include <vector>

#include <glm/glm.hpp>

#include "render/distance_scale.hpp"
#include "render/gl_objects.hpp"

namespace nbody::render {

/// One closed outline: its points in order (the last joins the first) and its colour.
struct Outline {
  std::vector<glm::vec3> points;
  glm::vec3 color{1.0f};
};

class OrbitLines {
 public:
  /// Makes the program; needs a current GL context.
  OrbitLines();
  /// Replaces the outlines (uploads two vertices per segment).
  void set(const std::vector<Outline>& outlines);
  /// Draws them with additive blending at `alpha`.
  void draw(const glm::mat4& view_proj, float alpha, const DistanceMap& dmap = {}) const;
  /// Line segments held.
  std::size_t segments() const { return count_ / 2; }

 private:
  Program program_;
  VertexArray vao_;
  Buffer buffer_;
  std::size_t capacity_ = 0;  // vertices the buffer holds
  std::size_t count_ = 0;     // vertices to draw
  std::vector<float> scratch_;
};

}  // namespace nbody::render
