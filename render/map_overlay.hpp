#pragma once
// The activity-density map as a texture: colourised on upload (heat scale), shown as an image
// in the panel and optionally drawn as a translucent quad in its plane in the 3D view.

#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "render/gl_objects.hpp"

namespace nbody::render {

class DensityTexture {
 public:
  /// Makes the overlay program; needs a current GL context.
  DensityTexture();
  /// Uploads a D×D image with values in [0, 1] (row-major, row v), reallocating when D changes.
  void update(const float* image, int size);
  GLuint texture() const { return texture_.id(); }
  int size() const { return size_; }
  /// Draws the map as a quad on `plane` (0 XY, 1 XZ, 2 YZ) over bounds (u_min, u_max, v_min,
  /// v_max), blended with `alpha`.
  void draw_overlay(const glm::mat4& view_proj, int plane, const glm::vec4& bounds,
                    float alpha) const;

 private:
  Program program_;
  VertexArray vao_;
  Texture texture_;
  int size_ = 0;
  std::vector<std::uint8_t> rgba_;
};

}  // namespace nbody::render
