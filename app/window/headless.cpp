#include "app/window/headless.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <future>

#include <nlohmann/json.hpp>

#include "app/window/egl_context.hpp"
#include "app/window/gui_viewer.hpp"
#include "render/capture.hpp"
#include "render/gl_debug.hpp"
#include "render/offscreen.hpp"
#include "sim/core/backend.hpp"
#include "sim/core/error.hpp"
#include "sim/core/units.hpp"
#include "sim/io/io.hpp"

namespace nbody::app {
namespace {

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

// the frames' timings (the first frames warm up: allocation, JIT, first queries)
struct FrameStats {
  std::vector<double> frame_ms, sim_ms, interop_ms, render_ms;
  std::vector<std::string> pngs;
  render::Image last_image;
  double first_frame_s = -1;  // process start to the first finished frame
};

void check_options(const HeadlessOptions& opt) {
  if (opt.frames < 1) fail("--frames must be >= 1 (got ", opt.frames, ")");
  if (opt.width < 16 || opt.height < 16 || opt.width > 8192 || opt.height > 8192)
    fail("--width/--height must be in 16..8192 (got ", opt.width, "x", opt.height, ")");
  if (opt.out_dir.empty()) fail("--out DIR is required");
  std::error_code ec;
  std::filesystem::create_directories(opt.out_dir, ec);
  if (ec || !std::filesystem::is_directory(opt.out_dir))
    fail("--out ", opt.out_dir, ": cannot create the directory (", ec.message(), ")");
}

// the command line's look and monitors
void apply_options(Viewer& viewer, const HeadlessOptions& opt) {
  Controls& c = viewer.controls;
  c.sim.map_enabled = opt.map;
  if (opt.tree_cells >= 0) {
    c.sim.tree_boxes = true;
    c.sim.tree_depth = opt.tree_cells;
  }
  c.map_overlay = opt.map;
  c.sim.health = false;  // the summary checks energy itself; no downloads per frame
  if (opt.fit) viewer.request(ViewRequest::Fit);
  // the frames show what the options ask for, the same on every run (keeping the bodies in view
  // follows the wall clock)
  viewer.allow_keep_in_view(false);
  if (opt.gl_debug) viewer.probe_passes(2);
  c.tone.hdr = opt.hdr;
  c.tone.glow = opt.glow;
  if (opt.trails >= 0) c.sim.trails = opt.trails == 1 && viewer.trails_possible();
}

// draws the frames, timing them and writing the PNGs; stops early on a health pause
FrameStats render_frames(Viewer& viewer, render::OffscreenTarget& target,
                         const HeadlessOptions& opt) {
  FrameStats st;
  for (int f = 0; f < opt.frames; ++f) {
    target.bind();
    double t0 = now_seconds();
    viewer.frame(opt.width, opt.height);
    glFinish();
    double ms = (now_seconds() - t0) * 1e3;
    if (f >= std::min(3, opt.frames - 1)) {
      st.frame_ms.push_back(ms);
      st.sim_ms.push_back(viewer.times().sim_ms);
      st.interop_ms.push_back(viewer.times().interop_ms);
      if (viewer.times().render_ms >= 0) st.render_ms.push_back(viewer.times().render_ms);
    }
    if (f == 0) st.first_frame_s = seconds_since_process_start();
    if (opt.progress) opt.progress(f + 1);
    bool last = f == opt.frames - 1;
    if (last || (opt.png_every > 0 && f % opt.png_every == 0)) {
      char name[64];
      std::snprintf(name, sizeof name, "frame_%05d.png", f);
      std::string path = (std::filesystem::path(opt.out_dir) / name).string();
      if (opt.overlay) {
        target.bind();
        opt.overlay(viewer, opt.width, opt.height);
      }
      st.last_image = render::read_framebuffer(opt.width, opt.height);
      render::write_png(path, st.last_image);
      st.pngs.push_back(path);
    }
    if (viewer.state().health_paused) break;
  }
  return st;
}

// the run, its timings and the GL messages
nlohmann::json run_summary(Viewer& viewer, const EglContext& egl, const HeadlessOptions& opt,
                           const FrameStats& st, bool gl_reports) {
  nlohmann::json j;
  j["gl"] = egl.description();
  j["gpu"] = cuda_device_summary();
  j["scene"] = viewer.scene().name;
  j["n"] = viewer.size();
  j["kernel"] = viewer.params().kernel;
  j["precision"] = precision_name(viewer.params().precision);
  j["steps_per_frame"] = viewer.controls.sim.steps_per_frame;
  j["frames"] = opt.frames;
  j["size"] = {opt.width, opt.height};
  j["data_path"] = data_path_name(viewer.data_path());
  j["interop_note"] = viewer.interop_note();
  j["time"] = units::format_time(viewer.state().time, viewer.scene().units);
  j["sim_steps"] = viewer.state().steps;
  double fm = median(st.frame_ms), sm = median(st.sim_ms);
  j["median_ms"] = {{"frame", fm},
                    {"sim_per_step", sm},
                    {"sim_per_frame", sm * viewer.controls.sim.steps_per_frame},
                    {"interop", median(st.interop_ms)},
                    {"render", median(st.render_ms)}};
  j["fps"] = fm > 0 ? 1000.0 / fm : 0.0;
  j["first_frame_s"] = st.first_frame_s;
  j["interactions_per_step"] = viewer.state().interactions;
  j["interactions_per_s"] = sm > 0 ? viewer.state().interactions / (sm * 1e-3) : 0.0;
  j["render_timing_valid"] = viewer.render_timing_valid() && !st.render_ms.empty();
  if (st.render_ms.empty()) j["median_ms"]["render"] = "not measured";
  if (gl_reports) {
    std::vector<std::string> texts;
    for (const render::GlDebugMessage& m : render::gl_debug_messages())
      if (texts.size() < 20) texts.push_back(m.text);
    j["gl_messages"] = {{"count", render::gl_debug_message_count()},
                        {"errors", render::gl_debug_error_count()},
                        {"first", texts}};
  } else {
    j["gl_messages"] = "not available (no KHR_debug)";
  }
  for (const StepPhase& ph : viewer.state().work.phases)
    j["phases_ms"][ph.name] = ph.ms;
  for (const std::vector<StepPhase>& g : viewer.state().work.gpu_phases) {
    nlohmann::json one = nlohmann::json::object();
    for (const StepPhase& ph : g)
      one[ph.name] = ph.ms;
    j["gpu_phases_ms"].push_back(one);
  }
  j["pngs"] = st.pngs;
  return j;
}

// the picture checks itself: light where the shown bodies are (an empty frame with bodies in
// view is an error: a broken GL path, not a scene); true when it is empty
bool check_picture(Viewer& viewer, const HeadlessOptions& opt, const render::Image& image,
                   nlohmann::json& j) {
  const render::ImageLight light = render::measure_light(image);
  const Viewer::ScreenCentre bodies_at =
      viewer.screen_centre(viewer.bodies_inline(), opt.width, opt.height);
  const double offset = light.lit > 0 && bodies_at.inside > 0
                            ? std::hypot(light.x - bodies_at.x, light.y - bodies_at.y) / opt.width
                            : -1.0;
  const bool empty_picture = bodies_at.inside > 0 && light.lit == 0;
  j["picture"] = {{"lit_pixels", light.lit},
                  {"light_centre", {light.x, light.y}},
                  {"bodies_in_frame", bodies_at.inside},
                  {"bodies_centre", {bodies_at.x, bodies_at.y}},
                  {"offset_of_width", offset},
                  {"empty", empty_picture}};
  std::printf(
      "picture: %ld lit pixels, light centred at (%.0f, %.0f); %ld shown bodies in the "
      "frame, centred at (%.0f, %.0f)\n",
      light.lit, light.x, light.y, bodies_at.inside, bodies_at.x, bodies_at.y);
  if (empty_picture)
    std::fprintf(stderr,
                 "nbody render: the last frame is empty although %ld bodies are in view: the GL "
                 "path is broken here (run with --gl-debug)\n",
                 bodies_at.inside);
  return empty_picture;
}

bool all_finite(const Bodies& b) {
  for (const auto* v : {&b.x, &b.y, &b.z, &b.vx, &b.vy, &b.vz})
    for (double e : *v)
      if (!std::isfinite(e)) return false;
  return true;
}

}  // namespace

int run_headless(const Launch& launch, const HeadlessOptions& opt) {
  check_options(opt);
  // start-up: context, target, viewer (shutdown runs in reverse through destructors)
  EglContext egl(opt.gl_debug);
  // GL messages are always counted (summary.json); --gl-debug prints them and fails on errors
  render::gl_debug_clear();
  const bool gl_reports = render::enable_gl_debug(opt.gl_debug);
  std::printf("nbody render: %s%s\n", egl.description().c_str(),
              opt.gl_debug ? (render::gl_debug_context() ? " (debug context)"
                                                         : " (no debug context; errors only)")
                           : "");
  render::OffscreenTarget target(opt.width, opt.height);
  target.bind();
  // the command line's dt, softening and G replace the scene's
  Viewer viewer(launch.scene, launch.params, opt.interop, false, launch.override);
  apply_options(viewer, opt);
  std::size_t n = viewer.size();
  std::printf("scene %s, N = %zu, kernel %s (%s), %s\n", viewer.scene().name.c_str(), n,
              viewer.params().kernel.c_str(), precision_name(viewer.params().precision),
              cuda_device_summary().c_str());

  // the starting energy on another thread (O(N^2)): the first frame does not wait for it
  bool energy = opt.energy && n <= 262144;
  std::future<Diagnostics> d0_future;
  if (energy)
    d0_future = std::async(std::launch::async, [bodies = launch.scene.bodies, G = viewer.params().G,
                                                eps = viewer.params().softening] {
      return compute_diagnostics(bodies, G, eps);
    });

  // the overlay's GL objects end before the viewer's and the context (also on an error)
  struct OverlayEnd {
    const std::function<void()>& end;
    ~OverlayEnd() {
      if (end) end();
    }
  } overlay_end{opt.overlay_end};

  const FrameStats st = render_frames(viewer, target, opt);
  nlohmann::json j = run_summary(viewer, egl, opt, st, gl_reports);
  if (energy) {
    const Diagnostics d0 = d0_future.get();
    Diagnostics d1 =
        compute_diagnostics(viewer.bodies_inline(), viewer.params().G, viewer.params().softening);
    j["energy"] = {{"initial", d0.total},
                   {"final", d1.total},
                   {"relative_drift", relative_energy_drift(d0.total, d1.total)}};
  } else {
    j["energy"] = "skipped (O(N^2) CPU check only for N <= 262144)";
  }
  const bool empty_picture = check_picture(viewer, opt, st.last_image, j);
  // a run that turned non-finite fails, whatever the viewer did about it
  const bool finite = all_finite(viewer.bodies_inline());
  j["finite"] = finite;
  std::string summary = (std::filesystem::path(opt.out_dir) / "summary.json").string();
  io::write_file(summary, j.dump(2) + "\n");
  // one line; the whole summary is in summary.json
  const double fm = median(st.frame_ms), sm = median(st.sim_ms);
  std::printf(
      "rendered %d frames (%zu PNG) of %s, N = %zu, %s: %.3g ms/frame, %.3g ms/step%s -> %s\n",
      opt.frames, st.pngs.size(), viewer.scene().name.c_str(), n, viewer.params().kernel.c_str(),
      fm, sm,
      energy ? (", dE/E0 " + std::to_string(j["energy"]["relative_drift"].get<double>())).c_str()
             : "",
      summary.c_str());
  std::printf("first frame %.2f s after the process started\n", st.first_frame_s);
  if (!viewer.error().empty()) std::fprintf(stderr, "nbody render: %s\n", viewer.error().c_str());
  const std::size_t gl_errors = gl_reports ? render::gl_debug_error_count() : 0;
  render::disable_gl_debug();
  if (gl_errors > 0) {
    std::fprintf(stderr, "nbody render: the GL driver reported %zu error(s)%s; see summary.json\n",
                 gl_errors, opt.gl_debug ? " (printed above)" : " (--gl-debug prints them)");
    if (opt.gl_debug) return 4;
  }
  if (empty_picture) return 5;
  if (!finite) {
    std::fprintf(stderr,
                 "nbody render: the simulation produced NaN/Inf (try a smaller --dt or a "
                 "larger --softening); frames after it are not meaningful\n");
    return 3;
  }
  return viewer.state().health_paused ? 3 : 0;
}

}  // namespace nbody::app
