// Headless GL (EGL: Mesa here, NVIDIA on the GPU machine): the viewer draws bodies into an
// offscreen framebuffer, the capture sees them, shader errors name the file and line.
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>

#include "app/egl_context.hpp"
#include "app/gui_viewer.hpp"
#include "render/capture.hpp"
#include "render/offscreen.hpp"
#include "render/shader.hpp"
#include "sim/backend.hpp"
#include "sim/scene.hpp"

using namespace nbody;

namespace {

std::unique_ptr<app::EglContext> make_context(std::string& why) {
  try {
    return std::make_unique<app::EglContext>();
  } catch (const std::exception& e) {
    why = e.what();
    return nullptr;
  }
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

  const CpuScene c = plummer_on_cpu(2000);
  render::OffscreenTarget target(320, 240);
  target.bind();
  app::Viewer viewer(c.scene, c.params);
  viewer.map.enabled = true;
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
  viewer.load_path = "/nonexistent/bodies.csv";
  viewer.pending.load_file = true;
  viewer.frame(160, 120);
  EXPECT_NE(viewer.error().find("/nonexistent/bodies.csv"), std::string::npos) << viewer.error();
  EXPECT_EQ(viewer.size(), 512u);
  EXPECT_EQ(viewer.state().steps, 2);

  // a live kernel switch carries the state over
  viewer.params.kernel = "cpu-symmetric";
  viewer.pending.switch_kernel = true;
  viewer.frame(160, 120);
  EXPECT_EQ(viewer.state().kernel, "cpu-symmetric");
  EXPECT_EQ(viewer.state().steps, 3);

  // the comparison runs every kernel of this machine's kind and each of its variants on a copy
  // of the bodies, one per turn of the simulation, which waits meanwhile; the running kernel
  // stays the chosen one
  viewer.params.kernel = "cpu-openmp";
  viewer.pending.switch_kernel = true;
  viewer.frame(160, 120);
  const long long steps = viewer.state().steps;
  viewer.pending.compare = true;
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
  EXPECT_EQ(viewer.params.kernel, "cpu-openmp");
  EXPECT_EQ(viewer.state().kernel, "cpu-openmp");
}
