#pragma once
// Trails for small scenes: a ring buffer of the last L positions of each body drawn as fading
// lines. Every sample is stored twice (slot i and i + L) so the newest L samples form one
// contiguous range per body, drawn with glMultiDrawArrays.

#include <cstddef>
#include <vector>

#include <glm/glm.hpp>

#include "render/distance_scale.hpp"
#include "render/gl_objects.hpp"

namespace nbody::render {

class Trails {
 public:
  /// Makes the program; needs a current GL context.
  Trails();
  /// Starts over for n bodies with `length` samples each, every sample at the given positions
  /// (x, y, z interleaved with `stride` floats).
  void reset(std::size_t n, int length, const float* xyz, std::size_t stride);
  /// Appends one sample per body.
  void push(const float* xyz, std::size_t stride);
  /// Appends `count` samples per body: samples[(s * n + b) * 3 + c], oldest first.
  void push_many(const float* samples, int count);
  /// Colours of the first bodies' trails (up to 64; the others use a palette).
  void set_colors(const std::vector<glm::vec3>& colors);
  /// Draws the trails with additive blending.
  void draw(const glm::mat4& view_proj, float alpha, const DistanceMap& dmap = {}) const;
  std::size_t size() const { return n_; }
  int length() const { return length_; }

 private:
  Program program_;
  VertexArray vao_;
  Buffer buffer_;
  std::size_t n_ = 0;
  int length_ = 0, head_ = 0, filled_ = 0;
  std::vector<float> scratch_;
  std::vector<glm::vec3> colors_;
  mutable std::vector<GLint> first_;  // per-draw scratch
  mutable std::vector<GLsizei> count_;
};

}  // namespace nbody::render
