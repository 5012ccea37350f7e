// Tree cells as wireframe boxes: a box's edges land where the projection puts them and its
// inside stays dark.
#include <gtest/gtest.h>

#include <memory>

#include "app/window/egl_context.hpp"
#include "render/capture.hpp"
#include "render/cell_boxes.hpp"
#include "render/offscreen.hpp"

using namespace nbody;

namespace {

// brightness of pixel (x, y), row 0 at the top
int lum(const render::Image& img, int x, int y) {
  const std::size_t i = (static_cast<std::size_t>(y) * img.width + x) * 4;
  return img.rgba[i] + img.rgba[i + 1] + img.rgba[i + 2];
}

}  // namespace

TEST(CellBoxes, EdgesWhereTheProjectionPutsThem) {
  std::unique_ptr<app::EglContext> ctx;
  try {
    ctx = std::make_unique<app::EglContext>();
  } catch (const std::exception& e) {
    GTEST_SKIP() << "no EGL OpenGL 4.5 context: " << e.what();
  }
  const int w = 200, h = 200;
  render::OffscreenTarget target(w, h);
  target.bind();
  glClearColor(0, 0, 0, 1);
  glClear(GL_COLOR_BUFFER_BIT);
  render::CellBoxes boxes;
  // a cube of side 1 at the origin seen along z with the identity projection: a square from
  // NDC -0.5 to 0.5, i.e. pixels 50..150
  boxes.set({{0, 0, 0, 0.5f, 0}});
  EXPECT_EQ(boxes.size(), 1u);
  boxes.draw(glm::mat4(1.0f), 1.0f, 4);
  const render::Image img = render::read_framebuffer(w, h);
  int left = 0, right = 0, top = 0, bottom = 0;
  for (int d = -1; d <= 1; ++d) {
    left = std::max(left, lum(img, 50 + d, 100));
    right = std::max(right, lum(img, 149 + d, 100));
    top = std::max(top, lum(img, 100, 50 + d));
    bottom = std::max(bottom, lum(img, 100, 149 + d));
  }
  EXPECT_GT(left, 100);
  EXPECT_GT(right, 100);
  EXPECT_GT(top, 100);
  EXPECT_GT(bottom, 100);
  EXPECT_EQ(lum(img, 100, 100), 0) << "the inside of the box is drawn";
  EXPECT_EQ(lum(img, 20, 20), 0) << "outside the box is drawn";
  // an empty set draws nothing
  boxes.set({});
  EXPECT_EQ(boxes.size(), 0u);
}
