// Hands on, drawn (issue 19): the viewer adds, selects, inspects, moves, deletes and undoes
// through the simulation's requests, and every body, old and new, is drawn where it is; on a
// CPU kernel and, where there is a CUDA device, on a GPU kernel through CUDA-GL interop. And the
// camera keeps the bodies in view until the user takes it (issue 20's camera).
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <thread>

#include <glm/glm.hpp>

#include "app/window/egl_context.hpp"
#include "app/window/gestures.hpp"
#include "app/window/gui_viewer.hpp"
#include "render/capture.hpp"
#include "render/offscreen.hpp"
#include "sim/core/backend.hpp"
#include "sim/core/scene.hpp"

using namespace nbody;

namespace {

constexpr int kW = 480, kH = 360;

// the brightest channel of the pixels within `r` of (x, y)
int brightest_near(const render::Image& img, float x, float y, int r) {
  int best = 0;
  for (int dy = -r; dy <= r; ++dy)
    for (int dx = -r; dx <= r; ++dx) {
      const int px = static_cast<int>(x) + dx, py = static_cast<int>(y) + dy;
      if (px < 0 || py < 0 || px >= img.width || py >= img.height) continue;
      // read_framebuffer's rows are top-down here (write_png writes them as they are)
      const std::size_t at = (static_cast<std::size_t>(py) * img.width + px) * 4;
      best = std::max({best, int(img.rgba[at]), int(img.rgba[at + 1]), int(img.rgba[at + 2])});
    }
  return best;
}

bool same_bits(const Bodies& a, const Bodies& b) {
  if (a.size() != b.size()) return false;
  auto eq = [](const std::vector<double>& u, const std::vector<double>& v) {
    return u.size() == v.size() && std::memcmp(u.data(), v.data(), u.size() * sizeof(double)) == 0;
  };
  return eq(a.x, b.x) && eq(a.y, b.y) && eq(a.z, b.z) && eq(a.vx, b.vx) && eq(a.vy, b.vy) &&
         eq(a.vz, b.vz) && eq(a.m, b.m);
}

// frames until the simulation has answered what was asked (inline: one frame is enough; two
// to be sure the state drawn is the answer)
void frames(app::Viewer& v, int k = 2) {
  for (int i = 0; i < k; ++i)
    v.frame(kW, kH);
}

// every body inside the frame is drawn: light within 3 pixels of its projection
void expect_every_body_drawn(app::Viewer& v, const std::string& when) {
  const render::Image img = render::read_framebuffer(kW, kH);
  const Bodies b = v.bodies_inline();
  int inside = 0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    float x = 0, y = 0;
    const glm::vec3 p(static_cast<float>(b.x[i]), static_cast<float>(b.y[i]),
                      static_cast<float>(b.z[i]));
    if (!v.world_to_screen(p, kW, kH, x, y) || x < 4 || y < 4 || x > kW - 4 || y > kH - 4) continue;
    ++inside;
    EXPECT_GT(brightest_near(img, x, y, 3), 60) << when << ": body " << i << " not drawn";
  }
  EXPECT_GT(inside, 0) << when;
}

void run_hands_on(const std::string& kernel) {
  std::unique_ptr<app::EglContext> ctx;
  try {
    ctx = std::make_unique<app::EglContext>(false);
  } catch (const std::exception& e) {
    GTEST_SKIP() << "no EGL OpenGL 4.5 context: " << e.what();
  }
  Scene scene = make_scene("sun-earth-moon");
  SimParams p;
  p.kernel = kernel;
  p.precision = find_kernel(kernel).supports_double ? Precision::Double : Precision::Float;
  render::OffscreenTarget target(kW, kH);
  target.bind();
  app::Viewer v(scene, p);
  v.controls.sim.paused = true;
  v.controls.labels = false;
  frames(v);
  ASSERT_EQ(v.size(), 3u);
  const Bodies start = v.bodies_inline();
  expect_every_body_drawn(v, "start");

  // add a Jupiter where the view's centre is, moving: one undoable edit
  const glm::vec3 at = v.unproject(kW * 0.7f, kH * 0.3f, v.camera().target(), kW, kH);
  Edit add;
  add.kind = Edit::Kind::Add;
  BodySpec jup;
  jup.x = at.x, jup.y = at.y, jup.z = at.z, jup.vy = 0.01, jup.m = 9.5e-4;
  jup.name = "Jupiter";
  add.bodies.push_back(jup);
  v.edit(add);
  frames(v);
  ASSERT_EQ(v.size(), 4u) << v.error();
  EXPECT_EQ(v.state().undo_labels.size(), 1u);
  expect_every_body_drawn(v, "after the add");

  // a click on it selects it; its card names it and measures it
  float jx = 0, jy = 0;
  ASSERT_TRUE(v.world_to_screen(at, kW, kH, jx, jy));
  EXPECT_NEAR(jx, kW * 0.7f, 1.0f);
  EXPECT_NEAR(jy, kH * 0.3f, 1.0f);
  v.select_at(jx + 2, jy - 1, 10, false, kW, kH);
  frames(v, 3);
  ASSERT_EQ(v.controls.sim.selection.size(), 1u);
  EXPECT_EQ(v.controls.sim.selection[0], 3u);
  const BodyCard* card = v.card(3);
  ASSERT_NE(card, nullptr);
  EXPECT_EQ(card->name, "Jupiter");
  EXPECT_DOUBLE_EQ(card->mass, 9.5e-4);
  EXPECT_EQ(card->dominant_name, "Sun");

  // a box around the whole view selects every body in it
  v.select_box(0, 0, kW, kH, false, kW, kH);
  frames(v);
  EXPECT_GE(v.controls.sim.selection.size(), 3u);

  // move it (one gesture of three edits is one undo step), then delete it; undo twice
  v.controls.sim.selection = {3};
  const long long gesture = v.new_gesture();
  for (int k = 0; k < 3; ++k) {
    Edit mv;
    mv.kind = Edit::Kind::Translate;
    mv.indices = {3};
    mv.dx = 0.01;
    v.edit(mv, gesture, k == 2);
  }
  frames(v);
  EXPECT_EQ(v.state().undo_labels.size(), 2u);
  EXPECT_NEAR(v.bodies_inline().x[3], jup.x + 0.03, 1e-6);
  Edit del;
  del.kind = Edit::Kind::Remove;
  del.indices = {3};
  v.edit(del);
  frames(v);
  EXPECT_EQ(v.size(), 3u);
  EXPECT_TRUE(v.controls.sim.selection.empty());
  expect_every_body_drawn(v, "after the delete");
  v.undo();  // the delete
  v.undo();  // the move
  frames(v);
  ASSERT_EQ(v.size(), 4u);
  EXPECT_DOUBLE_EQ(v.bodies_inline().x[3], jup.x);
  v.undo();  // the add: bitwise the start
  frames(v);
  EXPECT_TRUE(same_bits(v.bodies_inline(), start));
  expect_every_body_drawn(v, "after undo");
  v.redo();
  frames(v);
  EXPECT_EQ(v.size(), 4u);
  EXPECT_TRUE(v.error().empty()) << v.error();
}

}  // namespace

TEST(ViewerEdit, AddSelectInspectMoveDeleteUndoOnTheCpu) {
  run_hands_on("cpu-symmetric");
}

TEST(ViewerEdit, AddSelectInspectMoveDeleteUndoOnTheGpu) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device: " << cuda_device_summary();
  run_hands_on("tiled");
}

// The camera keeps the bodies in view (Controls::keep_in_view, app/window/viewer_view.cpp):
// bodies moved out of the picture bring the camera after them; after a wheel click the camera
// is the user's and stays; F hands it back. On a GPU kernel the viewer samples the bodies from
// the interop vertex buffer (runs read back from it), on the CPU from the host copy.
namespace {
void keeps_bodies_in_view(const char* kernel, bool on_device) {
  std::unique_ptr<app::EglContext> ctx;
  try {
    ctx = std::make_unique<app::EglContext>(false);
  } catch (const std::exception& e) {
    GTEST_SKIP() << "no EGL OpenGL 4.5 context: " << e.what();
  }
  SceneParams sp;
  sp.n = 2000;
  sp.seed = 3;
  const Scene scene = make_scene("plummer", sp);
  SimParams p;
  p.kernel = kernel;
  p.precision = Precision::Float;
  render::OffscreenTarget target(kW, kH);
  target.bind();
  app::Viewer v(scene, p);
  v.controls.sim.paused = true;
  v.controls.labels = false;
  // frames for `seconds` of wall time (the camera looks twice a second and eases in 0.6 s)
  const auto run = [&](double seconds) {
    const auto t0 = std::chrono::steady_clock::now();
    while (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < seconds) {
      v.frame(kW, kH);
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  };
  // the share of the bodies the view shows
  const auto share = [&] {
    const Bodies b = v.bodies_inline();
    std::size_t inside = 0;
    for (std::size_t i = 0; i < b.size(); ++i) {
      float x = 0, y = 0;
      const glm::vec3 q(static_cast<float>(b.x[i]), static_cast<float>(b.y[i]),
                        static_cast<float>(b.z[i]));
      inside += v.world_to_screen(q, kW, kH, x, y) && x >= 0 && y >= 0 && x < kW && y < kH;
    }
    return static_cast<double>(inside) / static_cast<double>(b.size());
  };
  run(1.0);
  // a GPU kernel's bodies reach the picture through the interop buffer only
  if (on_device) {
    ASSERT_EQ(v.data_path(), app::DataPath::Interop)
        << app::data_path_name(v.data_path()) << ": " << v.interop_note();
  }
  ASSERT_TRUE(v.controls.keep_in_view);
  EXPECT_GT(share(), 0.8);
  // every body moved far to the side: the camera goes after them
  Edit away;
  away.kind = Edit::Kind::Translate;
  for (std::size_t i = 0; i < v.size(); ++i)
    away.indices.push_back(i);
  away.dx = 40;
  v.edit(away);
  // (up to 10 s: a loaded machine draws fewer frames, and the easing counts at most 0.1 s a frame)
  for (int k = 0; k < 20 && share() <= 0.8; ++k)
    run(0.5);
  EXPECT_GT(share(), 0.8) << "the camera did not follow the bodies";
  // a wheel click takes the camera: moved away again, the bodies leave the picture
  app::Gestures g;
  app::PointerInput in;
  in.x = kW / 2.0, in.y = kH / 2.0, in.scroll = 1;
  g.update(in, v, kW, kH, 1.0f);
  EXPECT_FALSE(v.controls.keep_in_view);
  const glm::vec3 held = v.camera().target();
  away.dx = -80;
  v.edit(away);
  run(2.0);
  EXPECT_EQ(v.camera().target(), held);
  EXPECT_LT(share(), 0.2);
  // F fits them and hands the camera back
  v.request(app::ViewRequest::Fit);
  run(0.2);
  EXPECT_TRUE(v.controls.keep_in_view);
  EXPECT_GT(share(), 0.8);
}
}  // namespace

TEST(ViewerView, TheCameraKeepsTheBodiesInViewUntilTheUserZooms) {
  keeps_bodies_in_view("cpu-barnes-hut", false);
}

TEST(ViewerView, TheCameraKeepsTheBodiesInViewOnTheGpu) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device: " << cuda_device_summary();
  keeps_bodies_in_view("barnes-hut", true);
}
