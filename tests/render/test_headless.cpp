// Headless GL (EGL: Mesa here, NVIDIA on the GPU machine): the viewer draws bodies into an
// offscreen framebuffer, the capture sees them, shader errors name the file and line.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <memory>

#include <glm/glm.hpp>

#include "app/window/egl_context.hpp"
#include "app/window/gui_viewer.hpp"
#include "render/capture.hpp"
#include "render/gl_debug.hpp"
#include "render/offscreen.hpp"
#include "render/shader.hpp"
#include "sim/core/backend.hpp"
#include "sim/core/scene.hpp"

using namespace nbody;

namespace {

// a debug context whose every GL message is counted (tests fail on any error message)
std::unique_ptr<app::EglContext> make_context(std::string& why) {
  try {
    auto ctx = std::make_unique<app::EglContext>(true);
    render::gl_debug_clear();
    if (!render::enable_gl_debug(false)) why = "no KHR_debug";
    return ctx;
  } catch (const std::exception& e) {
    why = e.what();
    return nullptr;
  }
}

// every message the driver sent since the context was made, one a line
std::string gl_messages() {
  std::string all;
  for (const render::GlDebugMessage& m : render::gl_debug_messages())
    all += m.text + "\n";
  return all;
}

// the bodies' mean position on the screen (pixels, origin top-left), through the viewer's last
// projection; only bodies in front of the camera and inside the frame count
glm::dvec2 projected_centre(const Bodies& b, const glm::mat4& view_proj, int w, int h) {
  glm::dvec2 sum(0);
  int n = 0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    glm::vec4 c = view_proj * glm::vec4(static_cast<float>(b.x[i]), static_cast<float>(b.y[i]),
                                        static_cast<float>(b.z[i]), 1.0f);
    if (c.w <= 0) continue;
    double px = (c.x / c.w * 0.5 + 0.5) * w, py = (1.0 - (c.y / c.w * 0.5 + 0.5)) * h;
    if (px < 0 || py < 0 || px >= w || py >= h) continue;
    sum += glm::dvec2(px, py);
    ++n;
  }
  return n > 0 ? sum / static_cast<double>(n) : glm::dvec2(-1);
}

// a Plummer sphere of n bodies and the cpu-openmp parameters it starts with
struct CpuScene {
  Scene scene;
  SimParams params;
};
CpuScene plummer_on_cpu(std::size_t n) {
  SceneParams sp;
  sp.n = n;
  CpuScene c{make_scene("plummer", sp), {}};
  c.params.kernel = "cpu-openmp";
  c.params.dt = c.scene.dt;
  c.params.softening = c.scene.softening;
  c.params.G = c.scene.units.G;
  return c;
}

}  // namespace

TEST(ShaderLog, NamesFileAndLine) {
  std::string mesa = render::annotate_log("0:12(5): error: syntax error", "shaders/x.frag");
  EXPECT_EQ(mesa, "shaders/x.frag:12: error: syntax error\n");
  std::string nv = render::annotate_log("0(7) : error C1008: undefined variable", "shaders/y.vert");
  EXPECT_EQ(nv, "shaders/y.vert:7: error C1008: undefined variable\n");
}

TEST(Headless, ViewerDrawsBodiesOffscreen) {
  std::string why;
  auto ctx = make_context(why);
  if (!ctx) GTEST_SKIP() << "no EGL OpenGL 4.5 context: " << why;

  // a compile error names the file and the line
  try {
    render::compile_shader(GL_FRAGMENT_SHADER, "#version 450 core\nvoid main() {\n  oops;\n}\n",
                           "shaders/broken.frag");
    ADD_FAILURE() << "broken shader compiled";
  } catch (const render::GlError& e) {
    EXPECT_NE(std::string(e.what()).find("shaders/broken.frag:3"), std::string::npos) << e.what();
  }
  render::gl_debug_clear();  // the compiler reported that error through KHR_debug too

  const CpuScene c = plummer_on_cpu(2000);
  render::OffscreenTarget target(320, 240);
  target.bind();
  app::Viewer viewer(c.scene, c.params);
  viewer.controls.sim.map_enabled = true;
  for (int i = 0; i < 3; ++i)
    viewer.frame(320, 240);
  EXPECT_TRUE(viewer.error().empty()) << viewer.error();
  EXPECT_EQ(viewer.state().steps, 3);
  EXPECT_GT(viewer.activity().inside, 1000u);

  render::Image img = render::read_framebuffer(320, 240);
  long lit = 0;
  for (std::size_t i = 0; i < img.rgba.size(); i += 4)
    if (img.rgba[i] > 40 || img.rgba[i + 1] > 40 || img.rgba[i + 2] > 40) ++lit;
  EXPECT_GT(lit, 200) << "no bodies in the frame";
  auto png = std::filesystem::temp_directory_path() / "nbody_headless_test.png";
  render::write_png(png.string(), img);
  EXPECT_GT(std::filesystem::file_size(png), 1000u);
  EXPECT_EQ(render::gl_debug_error_count(), 0u) << gl_messages();
}

// Every look (HDR or 8-bit, glow, trails, tree cells, map overlay), on the CPU and, where there
// is one, the GPU through CUDA-GL interop: the light lands where the bodies are. The sphere is
// moved right and up so that a picture centred by accident (or a blank one) fails.
struct Look {
  const char* name;
  bool hdr, glow, trails, tree, map;
};
constexpr Look kLooks[] = {
    {"hdr", true, false, false, false, false},
    {"8-bit", false, false, false, false, false},
    {"glow", true, true, false, false, false},
    {"trails", true, false, true, false, false},
    {"tree cells", true, false, false, true, false},
    {"map overlay", true, false, false, false, true},
    {"8-bit with everything", false, false, true, true, true},
    {"hdr with everything", true, true, true, true, true},
};

void check_looks(const std::string& kernel) {
  constexpr int kW = 320, kH = 240;
  long plain_lit[2] = {0, 0};  // lit pixels of the bodies alone, 8-bit and HDR
  const bool tree = kernel.find("barnes-hut") != std::string::npos;
  for (const Look& look : kLooks) {
    if (look.tree && !tree) continue;  // only tree kernels have cells to draw
    SCOPED_TRACE(kernel + ", " + look.name);
    CpuScene c = plummer_on_cpu(1500);
    for (double& x : c.scene.bodies.x)
      x += 0.35 * c.scene.camera_distance;
    for (double& y : c.scene.bodies.y)
      y += 0.15 * c.scene.camera_distance;
    c.params.kernel = kernel;
    render::OffscreenTarget target(kW, kH);
    target.bind();
    app::Viewer viewer(c.scene, c.params);
    viewer.controls.tone.hdr = look.hdr;
    viewer.controls.tone.glow = look.glow;
    viewer.controls.sim.trails = look.trails;
    viewer.controls.sim.tree_boxes = look.tree;
    viewer.controls.sim.tree_depth = 3;
    viewer.controls.sim.map_enabled = look.map;
    viewer.controls.map_overlay = look.map;
    for (int i = 0; i < 4; ++i) {
      target.bind();
      viewer.frame(kW, kH);
    }
    ASSERT_TRUE(viewer.error().empty()) << viewer.error();
    if (look.tree) {
      EXPECT_TRUE(viewer.state().has_tree);
    }
    const render::Image img = render::read_framebuffer(kW, kH);
    const render::ImageLight l = render::measure_light(img);
    const glm::dvec2 want =
        projected_centre(viewer.bodies_inline(), viewer.last_view_proj(), kW, kH);
    ASSERT_GE(want.x, 0) << "the bodies are outside the frame";
    // the bodies' centre is well away from the frame's (so a centred blob does not pass)
    EXPECT_GT(std::hypot(want.x - kW / 2.0, want.y - kH / 2.0), 0.15 * kW);
    bool ok = l.lit > 300 && l.lit < kW * kH * 7 / 10;
    EXPECT_GT(l.lit, 300) << "no bodies in the frame";
    EXPECT_LT(l.lit, kW * kH * 7 / 10) << "the frame is flooded";
    if (!look.tree && !look.map) {
      // the bodies alone: the light is centred on them
      const double off = std::hypot(l.x - want.x, l.y - want.y);
      ok = ok && off < 0.06 * kW;
      EXPECT_LT(off, 0.06 * kW) << "light centred at (" << l.x << ", " << l.y << "), bodies at ("
                                << want.x << ", " << want.y << ")";
      if (!look.glow && !look.trails) plain_lit[look.hdr ? 1 : 0] = l.lit;
    } else {
      // boxes and the map cover more than the bodies: they add light where there was none
      const long base = plain_lit[look.hdr ? 1 : 0];
      ok = ok && l.lit > base + base / 10;
      EXPECT_GT(l.lit, base + base / 10) << "the overlay added no light";
    }
    if (!ok) {
      auto png = std::filesystem::temp_directory_path() /
                 ("nbody_look_" + kernel + "_" + std::to_string(&look - kLooks) + ".png");
      render::write_png(png.string(), img);
      ADD_FAILURE() << "frame written to " << png.string();
    }
  }
}

TEST(Headless, EveryLookDrawsTheBodiesWhereTheyAre) {
  std::string why;
  auto ctx = make_context(why);
  if (!ctx) GTEST_SKIP() << "no EGL OpenGL 4.5 context: " << why;
  check_looks("cpu-barnes-hut");
  EXPECT_EQ(render::gl_debug_error_count(), 0u) << gl_messages();
}

TEST(Headless, EveryLookDrawsTheBodiesWhereTheyAreOnTheGpu) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device";
  std::string why;
  auto ctx = make_context(why);
  if (!ctx) GTEST_SKIP() << "no EGL OpenGL 4.5 context: " << why;
  check_looks("barnes-hut");
  check_looks("tiled");
  EXPECT_EQ(render::gl_debug_error_count(), 0u) << gl_messages();
}

TEST(Headless, DebugOutputCatchesAGlError) {
  std::string why;
  auto ctx = make_context(why);
  if (!ctx) GTEST_SKIP() << "no EGL OpenGL 4.5 context: " << why;
  if (!why.empty()) GTEST_SKIP() << why;
  // binding a name that was never made is an error every driver reports
  glBindBuffer(GL_ARRAY_BUFFER, 987654);
  glGetError();
  EXPECT_GE(render::gl_debug_error_count(), 1u);
  EXPECT_NE(gl_messages().find("error"), std::string::npos) << gl_messages();
  render::gl_debug_clear();
}

TEST(Headless, PendingRequestsKeepTheSceneOnErrorsAndCompareKernels) {
  std::string why;
  auto ctx = make_context(why);
  if (!ctx) GTEST_SKIP() << "no EGL OpenGL 4.5 context: " << why;
  const CpuScene c = plummer_on_cpu(512);
  render::OffscreenTarget target(160, 120);
  target.bind();
  app::Viewer viewer(c.scene, c.params);
  viewer.frame(160, 120);

  // a bad file: message, the old scene keeps running
  viewer.controls.load_path = "/nonexistent/bodies.csv";
  viewer.request(app::load_request(viewer.controls.load_path, viewer.controls.load_options));
  viewer.frame(160, 120);
  EXPECT_NE(viewer.error().find("/nonexistent/bodies.csv"), std::string::npos) << viewer.error();
  EXPECT_EQ(viewer.size(), 512u);
  EXPECT_EQ(viewer.state().steps, 2);

  // a live kernel switch carries the state over
  {
    KernelChoice choice = viewer.kernel_choice();
    choice.kernel = "cpu-symmetric";
    viewer.set_kernel_choice(choice);
  }
  viewer.frame(160, 120);
  EXPECT_EQ(viewer.state().kernel, "cpu-symmetric");
  EXPECT_EQ(viewer.state().steps, 3);

  // the comparison runs every kernel of this machine's kind and each of its variants on a copy
  // of the bodies, one per turn of the simulation, which waits meanwhile; the running kernel
  // stays the chosen one
  {
    KernelChoice choice = viewer.kernel_choice();
    choice.kernel = "cpu-openmp";
    viewer.set_kernel_choice(choice);
  }
  viewer.frame(160, 120);
  const long long steps = viewer.state().steps;
  viewer.request(app::compare_request({}));
  double start = app::now_seconds();
  viewer.frame(160, 120);
  while (viewer.comparing() && app::now_seconds() - start < 60)
    viewer.frame(160, 120);
  EXPECT_FALSE(viewer.comparing());
  EXPECT_EQ(viewer.compare_results().size(), compare_entries(cuda_available()).size());
  for (const auto& r : viewer.compare_results()) {
    EXPECT_TRUE(r.error.empty()) << r.entry.label << ": " << r.error;
    EXPECT_GT(r.interactions_per_s, 0) << r.entry.label;
    EXPECT_GT(r.ms_per_step, 0) << r.entry.label;
    // direct sums near float rounding; Barnes-Hut without quadrupoles near 1e-3
    EXPECT_LT(r.err_median, 1e-2) << r.entry.label;
    EXPECT_GE(r.err_max, r.err_median) << r.entry.label;
  }
  // the simulation waited (the state the viewer holds may lag its runner by one frame)
  EXPECT_LE(viewer.state().steps, steps + 1);
  EXPECT_EQ(viewer.kernel_choice().kernel, "cpu-openmp");
  EXPECT_EQ(viewer.params().kernel, "cpu-openmp");
  EXPECT_EQ(viewer.state().kernel, "cpu-openmp");

  // the physics is the simulation's (issue 18): the viewer shows what it asked for until the
  // simulation has handled the request, then what the simulation applies; a refused value
  // leaves the applied one and says why
  PhysicsParams ph = viewer.physics();
  const double dt0 = ph.dt;
  ph.dt = 0.5 * dt0;
  viewer.set_physics(ph);
  EXPECT_DOUBLE_EQ(viewer.physics().dt, 0.5 * dt0);
  EXPECT_DOUBLE_EQ(viewer.params().dt, dt0);
  viewer.frame(160, 120);
  EXPECT_DOUBLE_EQ(viewer.params().dt, 0.5 * dt0);
  EXPECT_DOUBLE_EQ(viewer.physics().dt, 0.5 * dt0);
  ph.G = -1;
  viewer.set_physics(ph);
  viewer.frame(160, 120);
  EXPECT_DOUBLE_EQ(viewer.physics().G, viewer.params().G);
  EXPECT_GT(viewer.params().G, 0);
  EXPECT_NE(viewer.error().find("G must be > 0"), std::string::npos) << viewer.error();
}

// The cheaper pipeline of software rasterizers: the HDR frame at half resolution puts the light
// where the full frame does; a view that has not changed is shown again from the kept image
// (the same pixels) without drawing; any change (the camera, the look, new positions) draws.
TEST(Headless, LiteRenderKeepsThePictureAndRedrawsOnlyOnChange) {
  std::string why;
  auto ctx = make_context(why);
  if (!ctx) GTEST_SKIP() << "no EGL OpenGL 4.5 context: " << why;
  constexpr int kW = 320, kH = 240;
  CpuScene c = plummer_on_cpu(1500);
  for (double& x : c.scene.bodies.x)
    x += 0.3 * c.scene.camera_distance;
  render::OffscreenTarget target(kW, kH);
  auto draw = [&](app::Viewer& v) {
    target.bind();
    v.frame(kW, kH);
    return render::read_framebuffer(kW, kH);
  };
  app::Viewer full(c.scene, c.params), lite(c.scene, c.params);
  full.controls.sim.paused = lite.controls.sim.paused = true;
  lite.set_lite_render(true);
  EXPECT_TRUE(lite.lite_render());
  EXPECT_EQ(lite.controls.tone.resolution, 0.5f);
  const render::ImageLight want = render::measure_light(draw(full));
  const render::Image first = draw(lite);
  const render::ImageLight got = render::measure_light(first);
  ASSERT_GT(want.lit, 300);
  EXPECT_GT(got.lit, want.lit / 2) << "half resolution lost the bodies";
  // the smallest sprite is one pixel of the half frame: 2x2 on the screen, up to 4x the pixels
  EXPECT_LT(got.lit, want.lit * 5) << "half resolution floods the frame";
  EXPECT_LT(std::hypot(got.x - want.x, got.y - want.y), 0.03 * kW);
  EXPECT_EQ(lite.frames_reused(), 0);
  // nothing changed: the kept image, pixel for pixel
  const render::Image again = draw(lite);
  EXPECT_EQ(lite.frames_reused(), 1);
  EXPECT_EQ(again.rgba, first.rgba);
  // the camera turns: drawn anew
  lite.camera().rotate(40, 0);
  const render::Image turned = draw(lite);
  EXPECT_EQ(lite.frames_reused(), 1);
  EXPECT_NE(turned.rgba, first.rgba);
  // the look changes: drawn anew
  lite.controls.style.brightness *= 2;
  draw(lite);
  EXPECT_EQ(lite.frames_reused(), 1);
  // new positions: drawn anew
  lite.controls.sim.paused = false;
  draw(lite);
  draw(lite);
  EXPECT_GT(lite.state().steps, 0);
  EXPECT_EQ(lite.frames_reused(), 1);
  // the full pipeline never reuses
  draw(full);
  EXPECT_EQ(full.frames_reused(), 0);
  EXPECT_EQ(render::gl_debug_error_count(), 0u) << gl_messages();
}

// Log distances: the vertex shader and the C++ map agree. Each planet's light is where
// project() (labels) puts it, a click there picks it, and that is far from where the true
// distance would draw it; the true scale is exactly the plain projection.
TEST(Headless, LogDistancesDrawPlanetsWhereLabelsAndPickingPutThem) {
  std::string why;
  auto ctx = make_context(why);
  if (!ctx) GTEST_SKIP() << "no EGL OpenGL 4.5 context: " << why;
  constexpr int kW = 640, kH = 480;
  const Scene scene = make_scene("solar-system", {});
  SimParams p;
  p.kernel = "cpu-symmetric";
  p.dt = scene.dt;
  p.softening = scene.softening;
  p.G = scene.units.G;
  render::OffscreenTarget target(kW, kH);
  app::Viewer v(scene, p);
  v.controls.sim.paused = true;
  v.controls.labels = true;
  v.controls.distance_scale = render::DistanceScale::Log;
  for (int i = 0; i < 3; ++i) {  // the change of scale fits the view in the next frame
    target.bind();
    v.frame(kW, kH);
  }
  ASSERT_FALSE(v.distance_map().identity());
  const render::Image img = render::read_framebuffer(kW, kH);
  const Bodies& b = v.scene().bodies;
  int checked = 0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (b.name[i] != "Mercury" && b.name[i] != "Venus" && b.name[i] != "Earth" &&
        b.name[i] != "Mars")
      continue;
    SCOPED_TRACE(b.name[i]);
    float px = 0, py = 0;
    ASSERT_TRUE(v.project(i, kW, kH, px, py));
    ASSERT_TRUE(px >= 2 && py >= 2 && px < kW - 2 && py < kH - 2) << px << ", " << py;
    // light at the labelled place
    int brightest = 0;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const std::size_t k =
            4 * (static_cast<std::size_t>(py + dy) * kW + static_cast<std::size_t>(px + dx));
        brightest =
            std::max({brightest, int(img.rgba[k]), int(img.rgba[k + 1]), int(img.rgba[k + 2])});
      }
    EXPECT_GT(brightest, 60) << "no planet drawn where its label goes";
    // a click there picks it
    EXPECT_EQ(v.pick(px, py, kW, kH, 4.0f), static_cast<int>(i));
    // and the true distance would draw it elsewhere
    const glm::vec4 c =
        v.last_view_proj() * glm::vec4(static_cast<float>(b.x[i]), static_cast<float>(b.y[i]),
                                       static_cast<float>(b.z[i]), 1.0f);
    const double tx = (c.x / c.w * 0.5 + 0.5) * kW, ty = (1.0 - (c.y / c.w * 0.5 + 0.5)) * kH;
    EXPECT_GT(std::hypot(tx - px, ty - py), 10.0);
    ++checked;
  }
  EXPECT_EQ(checked, 4);
  // back to true distances: the plain projection again
  v.controls.distance_scale = render::DistanceScale::True;
  target.bind();
  v.frame(kW, kH);
  EXPECT_TRUE(v.distance_map().identity());
  EXPECT_EQ(render::gl_debug_error_count(), 0u) << gl_messages();
}

// issue 18: widgets push requests that carry their payload, sent in the order made at one point
// of the frame; a slider's newest physics replaces a queued one; camera requests come after
TEST(Headless, RequestsCarryTheirPayloadInOrder) {
  std::string why;
  auto ctx = make_context(why);
  if (!ctx) GTEST_SKIP() << "no EGL OpenGL 4.5 context: " << why;
  const CpuScene c = plummer_on_cpu(256);
  render::OffscreenTarget target(160, 120);
  target.bind();
  app::Viewer viewer(c.scene, c.params);
  viewer.frame(160, 120);
  const long long handled = viewer.state().physics_requests;
  const double dt0 = viewer.params().dt;

  // two edits of one slider in a frame: one request, the newest value
  PhysicsParams ph = viewer.physics();
  ph.dt = 0.5 * dt0;
  viewer.set_physics(ph);
  ph.dt = 0.25 * dt0;
  viewer.set_physics(ph);
  EXPECT_DOUBLE_EQ(viewer.physics().dt, 0.25 * dt0);  // shown before the simulation has it
  viewer.frame(160, 120);
  EXPECT_EQ(viewer.state().physics_requests, handled + 1);
  EXPECT_DOUBLE_EQ(viewer.params().dt, 0.25 * dt0);

  // new physics, then a new scene, in that order: the scene's own dt wins (sent the other way
  // round, the physics would replace it)
  SceneParams sp;
  sp.n = 300;
  const double scene_dt = make_scene("plummer", sp).dt;
  ph = viewer.physics();
  ph.dt = 3 * scene_dt;
  viewer.set_physics(ph);
  viewer.request(app::scene_request("plummer", sp));
  viewer.frame(160, 120);
  EXPECT_EQ(viewer.size(), 300u);
  EXPECT_DOUBLE_EQ(viewer.params().dt, scene_dt);
  EXPECT_DOUBLE_EQ(viewer.physics().dt, scene_dt);

  // a camera request: fit stops following
  viewer.controls.follow_group = 0;
  viewer.request(app::ViewRequest::Fit);
  viewer.frame(160, 120);
  EXPECT_EQ(viewer.controls.follow_group, -1);
}
