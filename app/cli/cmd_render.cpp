// `nbody render` (headless frames through EGL) and the window's extra top-level options.
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>

#include "render/gl_check.hpp"  // glad before the ImGui backend

#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include "app/cli/commands.hpp"
#include "app/core/progress.hpp"
#include "app/panel/gui_panel.hpp"
#include "app/window/gui_options.hpp"
#include "app/window/headless.hpp"
#include "sim/core/error.hpp"

namespace nbody::app {

GuiOptions& gui_options() {
  static GuiOptions o;
  return o;
}

namespace {

// what --burn-in names ("date,scale,caption" or "none"); fails naming the option otherwise
OverlayParts burn_in_parts(const std::string& list, bool& caption) {
  OverlayParts p;
  p.names = p.scale_bar = p.date = p.tools = caption = false;
  for (std::size_t at = 0; at <= list.size();) {
    const std::size_t end = std::min(list.find(',', at), list.size());
    const std::string part = list.substr(at, end - at);
    if (part == "date")
      p.date = true;
    else if (part == "scale")
      p.scale_bar = true;
    else if (part == "caption")
      caption = true;
    else if (part != "none")
      fail("--burn-in ", list, ": '", part, "' is not one of date, scale, caption, none");
    at = end + 1;
  }
  // body names go with the rest, as in the window's recordings
  p.names = p.date || p.scale_bar || caption;
  return p;
}

// `nbody render --burn-in`: the window's overlays drawn over the frames written, through an
// ImGui context of its own on the EGL context (made at the first frame written, ended by the
// renderer before the context)
class RenderOverlays {
 public:
  RenderOverlays(OverlayParts parts, std::string caption)
      : parts_(parts), caption_(std::move(caption)) {
    panel_.visible = false;
  }
  void draw(Viewer& v, int width, int height) {
    if (!context_) {
      context_ = ImGui::CreateContext();
      ImGui::GetIO().IniFilename = nullptr;
      ImGui::StyleColorsDark();
      ImGui_ImplOpenGL3_Init("#version 450");
    }
    ImGuiIO& io = ImGui::GetIO();
    io.DisplaySize = ImVec2(static_cast<float>(width), static_cast<float>(height));
    io.DeltaTime = 1.0f / 60.0f;
    // the window's UI scale for a window this high
    panel_.scale = std::round(std::clamp(static_cast<float>(height) / 820.0f, 1.0f, 2.0f) * 8) / 8;
    io.FontGlobalScale = panel_.scale;
    ImGui_ImplOpenGL3_NewFrame();
    ImGui::NewFrame();
    ImDrawList* dl = ImGui::GetForegroundDrawList();
    draw_overlays(dl, v, panel_, width, height, parts_);
    if (!caption_.empty()) draw_caption(dl, caption_.c_str(), 0, height, panel_.scale);
    ImGui::Render();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
  }
  void end() {
    if (!context_) return;
    ImGui_ImplOpenGL3_Shutdown();
    ImGui::DestroyContext(context_);
    context_ = nullptr;
  }

 private:
  OverlayParts parts_;
  std::string caption_;
  PanelState panel_;
  ImGuiContext* context_ = nullptr;
};

// window options on the top level: `nbody --width 1280 --smoke-test 30 --screenshot a.png`
void add_window_options(CLI::App& app) {
  // (the window's options): `nbody --width 1280 --smoke-test 30 --screenshot a.png`
  GuiOptions& g = gui_options();
  app.add_option("--width", g.width,
                 "window width (default: the last size, else 1600, within the screen's work area)")
      ->check(CLI::Range(320, 16384))
      ->group("Window");
  app.add_option("--height", g.height, "window height (default: the last size, else 900)")
      ->check(CLI::Range(240, 16384))
      ->group("Window");
  app.add_option("--smoke-test", g.smoke_frames,
                 "run FRAMES frames, write --screenshot, quit (for tests)")
      ->group("Window");
  app.add_option("--screenshot", g.screenshot,
                 "PNG written at the end of --smoke-test or --exit-after")
      ->check(non_empty())
      ->group("Window");
  app.add_option("--panel-open", g.panel_open,
                 "panel sections open at start: scene,display,map,health,classroom,help")
      ->group("Window");
  app.add_flag("--panel-check", g.panel_check,
               "open every panel section and note labels cut at the panel's edge (--stats "
               "panel_overflow; a test of the layout)")
      ->group("Window");
  app.add_option("--exit-after", g.exit_after, "quit after SECONDS (writes --stats first)")
      ->group("Window");
  app.add_option("--stats", g.stats,
                 "write JSON at exit: ui_frames, ui_fps_median, sim_steps, sim_step_ms_median, ...")
      ->check(non_empty())
      ->group("Window");
  app.add_option("--debug-step-delay", g.debug_step_delay_ms,
                 "sleep MS after every batch of steps (to test a slow simulation)")
      ->group("Window");
  app.add_option("--target-step-ms", g.target_step_ms,
                 "the start-up measurement picks N and kernel for this step time")
      ->capture_default_str()
      ->group("Window");
  app.add_option("--tree-cells", g.tree_cells,
                 "tree kernels: start with the tree's cells drawn as boxes down to DEPTH (0..8)")
      ->check(CLI::Range(0, 8))
      ->group("Window");
  app.add_flag("--paused", g.paused, "start paused (Space or the panel runs the simulation)")
      ->group("Window");
  app.add_flag("--orbits", g.orbits,
               "draw the named bodies' orbit ellipses (the planets about the Sun, the Moon "
               "about the Earth; also in Display)")
      ->group("Window");
  app.add_option("--distance-scale", g.distance_scale,
                 "draw bodies at true distances or log-compressed distances from the followed "
                 "body, else the Sun (the inner planets apart at Neptune's scale; also in "
                 "Display)")
      ->check(CLI::IsMember({"true", "log"}))
      ->capture_default_str()
      ->group("Window");
  app.add_option("--lite-render", g.lite_render,
                 "the cheaper pipeline: the HDR frame at half resolution, an unchanged view not "
                 "drawn again; auto: when a software rasterizer (llvmpipe) draws")
      ->check(CLI::IsMember({"auto", "on", "off"}))
      ->capture_default_str()
      ->group("Window");
  app.add_option("--follow", g.follow,
                 "keep the view centred on: \"centre of mass\", a galaxy (\"galaxy 1\") or a "
                 "body (\"Earth\") (also in Display)")
      ->check(CLI::Validator(
          [](std::string& v) {
            return v.empty() ? std::string("an empty name follows nothing") : std::string();
          },
          "NAME"))
      ->group("Window");
  app.add_flag("--projector", g.projector,
               "projector mode: larger text and a high-contrast panel (also in Display)")
      ->group("Window");
  app.add_flag("--gl-debug", g.gl_debug,
               "OpenGL debug context: print every driver message (errors, undefined behaviour, "
               "performance); exit 4 at the end if the driver reported an error")
      ->group("Window");
  app.add_flag("--no-interop", g.no_interop,
               "copy positions device -> host -> GL instead of CUDA-GL interop")
      ->group("Window");
  app.add_option("--record", g.record,
                 "record from the first frame until quit: PNG frames into a folder, or a movie "
                 "when PATH ends in .mp4 (ffmpeg); the view right of the panel, as shown")
      ->check(non_empty())
      ->group("Recording");
  app.add_option("--caption", g.caption, "caption burned into recorded frames (bottom left)")
      ->group("Recording");
  app.add_option("--burn-in", g.burn_in,
                 "what recorded frames show: date,scale,caption (comma list) or none")
      ->capture_default_str()
      ->group("Recording");
  app.add_option("--record-rate", g.record_rate,
                 "real-time: the recording plays as long as it took (frames repeated or "
                 "dropped); every-frame: one frame per drawn frame (fast when the window is slow)")
      ->check(CLI::IsMember({"real-time", "every-frame"}))
      ->capture_default_str()
      ->group("Recording");
  app.add_option("--record-fps", g.record_fps, "frames per second of the recording")
      ->check(CLI::Range(1, 240))
      ->capture_default_str()
      ->group("Recording");
}

// nbody render
void add_render_command(CLI::App& app) {
  auto* cmd = app.add_subcommand(
      "render",
      "Render frames offscreen (EGL, no display needed) to PNG files plus summary.json with "
      "timings and energy drift");
  struct State {
    LaunchOptions launch;
    HeadlessOptions opt;
    bool no_interop = false;
    bool trails_on = false, trails_off = false;
    std::string burn_in = "none", caption;
  };
  auto st = std::make_shared<State>();
  add_launch_options(*cmd, st->launch);
  cmd->add_option("--frames", st->opt.frames,
                  "frames to render (default: the scene's run length where it has one, e.g. a "
                  "collision through its first pericentre and tails, in at most 240 frames; "
                  "else 60)")
      ->check(CLI::Range(1, 10000000));
  cmd->add_option("--out", st->opt.out_dir, "output directory for PNG frames and summary.json")
      ->required()
      ->check(non_empty());
  cmd->add_option("--width", st->opt.width, "image width")
      ->capture_default_str()
      ->check(CLI::Range(16, 8192));
  cmd->add_option("--height", st->opt.height, "image height")
      ->capture_default_str()
      ->check(CLI::Range(16, 8192));
  cmd->add_option("--png-every", st->opt.png_every, "write every k-th frame (0: only the last)")
      ->capture_default_str()
      ->check(CLI::Range(0, 10000000));
  cmd->add_flag("--no-interop", st->no_interop, "copy device -> host -> GL instead of interop");
  cmd->add_flag("!--no-energy", st->opt.energy, "skip the O(N^2) energy check");
  cmd->add_flag("--map", st->opt.map, "compute the activity map and draw it as an overlay");
  cmd->add_flag("--fit", st->opt.fit, "fit the camera to the bodies");
  cmd->add_flag("!--no-hdr", st->opt.hdr,
                "draw straight into 8 bits: no float frame, no tone curve (default: HDR)");
  cmd->add_flag("--glow", st->opt.glow, "glow around the bright light (HDR only)");
  auto* trails_on = cmd->add_flag("--trails", st->trails_on,
                                  "draw trails (default: the scene's; at most 2,048 bodies)");
  cmd->add_flag("--no-trails", st->trails_off, "no trails")->excludes(trails_on);
  cmd->add_flag("--gl-debug", st->opt.gl_debug,
                "OpenGL debug context: print every driver message, time each pass of the first "
                "frames and count its pixels; exit 4 on a GL error");
  cmd->add_option("--tree-cells", st->opt.tree_cells,
                  "tree kernels: draw the tree's cells as boxes down to DEPTH (0..8)")
      ->check(CLI::Range(0, 8));
  cmd->add_option("--burn-in", st->burn_in,
                  "draw over the frames as the window does: date,scale,caption (comma list) or "
                  "none")
      ->capture_default_str();
  cmd->add_option("--caption", st->caption,
                  "caption burned in bottom left (with --burn-in caption)");
  cmd->callback([st, cmd] {
    st->opt.interop = !st->no_interop;
    st->opt.trails = st->trails_on ? 1 : (st->trails_off ? 0 : -1);
    bool caption = false;
    const OverlayParts parts = burn_in_parts(st->burn_in, caption);
    std::shared_ptr<RenderOverlays> overlays;
    if (parts.names) {
      overlays = std::make_shared<RenderOverlays>(parts, caption ? st->caption : std::string());
      st->opt.overlay = [overlays](Viewer& v, int w, int h) { overlays->draw(v, w, h); };
      st->opt.overlay_end = [overlays] { overlays->end(); };
    }
    // a named kernel without a tree: --tree-cells fails before anything is made
    if (!st->launch.kernel.empty()) check_tree_cells(st->opt.tree_cells, st->launch.kernel);
    // the output directory is checked before the scene is built
    {
      std::error_code ec;
      std::filesystem::create_directories(st->opt.out_dir, ec);
      if (ec || !std::filesystem::is_directory(st->opt.out_dir) ||
          ::access(st->opt.out_dir.c_str(), W_OK | X_OK) != 0)
        fail("--out ", st->opt.out_dir, ": cannot write there (",
             ec ? ec.message() : std::string(std::strerror(errno)), ")");
    }
    Launch l = make_launch(st->launch);
    check_tree_cells(st->opt.tree_cells, l.params.kernel);
    if (!l.kernel_reason.empty())
      std::printf("kernel %s: %s\n", l.params.kernel.c_str(), l.kernel_reason.c_str());
    // run length: the user's frames, else the scene's duration in frames of the user's steps
    // per frame (or as many as keep to 240 frames)
    if (cmd->count("--frames") == 0) {
      const int per = cmd->count("--steps-per-frame") > 0 ? l.params.steps_per_frame : 0;
      if (const RunPlan plan = plan_frames(l.scene, l.params.dt, per); plan.steps > 0) {
        st->opt.frames = plan.frames;
        l.params.steps_per_frame = plan.steps_per_frame;
        std::printf("%s\n", plan.line.c_str());
      }
    }
    auto bar = std::make_shared<ProgressBar>("render", double(st->opt.frames));
    st->opt.progress = [bar](int done) { bar->update(done); };
    int rc = run_headless(l, st->opt);
    bar->finish();
    if (rc != 0) throw CLI::RuntimeError(rc);
  });
}

}  // namespace

void register_gui_commands(CLI::App& app) {
  add_window_options(app);
  add_render_command(app);
}

}  // namespace nbody::app
