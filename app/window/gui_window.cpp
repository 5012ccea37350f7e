// The window: GLFW + OpenGL 4.5 core + Dear ImGui around the Viewer. Start-up order: window,
// GL loader, ImGui, viewer; shutdown runs in reverse.
#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <deque>
#include <filesystem>
#include <fstream>
#include <memory>
#include <set>
#include <string>
#include <thread>

#include <unistd.h>

#include "render/gl_check.hpp"  // glad before GLFW

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include "app/cli/commands.hpp"
#include "app/panel/gui_panel.hpp"
#include "app/window/gui_logic.hpp"
#include "app/window/gui_options.hpp"
#include "app/window/gui_viewer.hpp"
#include "app/window/gui_window_setup.hpp"
#include "app/window/recorder.hpp"
#include "app/window/startup.hpp"
#include "render/capture.hpp"
#include "render/gl_debug.hpp"
#include "sim/core/backend.hpp"
#include "sim/core/error.hpp"
#include "sim/io/io.hpp"

#include <nlohmann/json.hpp>

namespace nbody::app {
namespace {

// input gathered by GLFW callbacks, consumed once per frame
struct Input {
  std::deque<int> keys;
  double scroll = 0;
  /// left-button presses (true) and releases (false) since the last frame, in order: a click
  /// shorter than a frame is seen (polling the button would miss it)
  std::deque<bool> left;
};

// the shown bodies that the last frame drew inside the window (panel included), where the
// viewer keeps host positions; -1 where they stay on the GPU
long bodies_in_window(const Viewer& v) {
  const std::size_t n = v.host_positions().size() / 4;
  if (n == 0) return -1;
  const int w = v.last_width(), h = v.last_height();
  long inside = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (!v.shown(i)) continue;
    float px = 0, py = 0;
    inside += v.project(i, w, h, px, py) && px >= 0 && py >= 0 && px < w && py < h;
  }
  return inside;
}

Input* input_of(GLFWwindow* w) {
  return static_cast<Input*>(glfwGetWindowUserPointer(w));
}

void on_key(GLFWwindow* w, int key, int, int action, int mods) {
  // the key and its modifiers (Ctrl, Shift) in one value: key | mods << 16
  if (action == GLFW_PRESS) input_of(w)->keys.push_back(key | (mods << 16));
}
void on_mouse_button(GLFWwindow* w, int button, int action, int) {
  if (button == GLFW_MOUSE_BUTTON_LEFT && (action == GLFW_PRESS || action == GLFW_RELEASE))
    input_of(w)->left.push_back(action == GLFW_PRESS);
}
void on_scroll(GLFWwindow* w, double, double dy) {
  input_of(w)->scroll += dy;
}

// "nbody_20260101_120000" + suffix
std::string timestamped_name(const char* suffix) {
  std::time_t t = std::time(nullptr);
  char buf[64];
  std::strftime(buf, sizeof buf, "nbody_%Y%m%d_%H%M%S", std::localtime(&t));
  return buf + std::string(suffix);
}

std::string in_dir(const char* dir, const std::string& name) {
  std::filesystem::path d = dir[0] ? std::filesystem::path(dir) : std::filesystem::path(".");
  std::filesystem::create_directories(d);
  return std::filesystem::absolute(d / name).lexically_normal().string();
}

double median_of(std::vector<float> v) {
  if (v.empty()) return 0;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
  return v[v.size() / 2];
}

bool have_ffmpeg() {
  return std::system("command -v ffmpeg >/dev/null 2>&1") == 0;
}

// GLFW's own lifetime: init in the constructor, terminate in the destructor
struct GlfwLibrary {
  bool ok = false;
  GlfwLibrary() { ok = glfwInit() == GLFW_TRUE; }
  ~GlfwLibrary() {
    if (ok) glfwTerminate();
  }
};
struct WindowHandle {
  GLFWwindow* w = nullptr;
  ~WindowHandle() {
    if (w) glfwDestroyWindow(w);
  }
};
struct ImGuiSession {
  bool glfw = false, gl = false;
  ImGuiSession() { ImGui::CreateContext(); }
  ~ImGuiSession() {
    if (gl) ImGui_ImplOpenGL3_Shutdown();
    if (glfw) ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext();
  }
};

std::string glfw_error_text;
void on_glfw_error(int code, const char* text) {
  glfw_error_text = text ? text : "";
  (void)code;
}

constexpr int kNoDisplay = 4;

// what a recording keeps fixed from its first frame: the recorded rectangle (framebuffer
// pixels, origin top-left: the view right of the panel, even sizes for H.264) and the view's
// offset, so starting, hiding the panel or resizing never moves the view in the file
struct RecordFrame {
  int x = 0, y = 0, w = 0, h = 0;
  float view_offset = 0;
};

// starts and stops what the panel asks to record; the first recording of a run fixes the
// rectangle and the view offset (a second one started beside it shares them)
void sync_recording(Recorder& r, PanelState& p, RecordFrame& f, int fbw, int fbh,
                    float live_offset) {
  try {
    const RecordRate rate = p.record_rate == 1 ? RecordRate::EveryFrame : RecordRate::RealTime;
    if (!r.active() && (p.record_png || p.record_ffmpeg)) {
      f.view_offset = live_offset;
      f.x = std::clamp(static_cast<int>(std::ceil(live_offset)), 0, std::max(fbw - 2, 0));
      f.y = 0;
      f.w = std::max((fbw - f.x) & ~1, 2);
      f.h = std::max(fbh & ~1, 2);
    }
    // --record names the first recording; the panel's ones are timestamped in its folder
    auto target = [&](bool mp4) {
      if (!p.record_path.empty() && is_mp4(p.record_path) == mp4) {
        std::string path = std::move(p.record_path);
        p.record_path.clear();
        return path;
      }
      return in_dir(p.capture_dir, timestamped_name(mp4 ? ".mp4" : "_frames"));
    };
    if (p.record_png && !r.png()) r.start_png(target(false), rate, p.mp4_fps);
    if (p.record_ffmpeg && !r.mp4()) r.start_mp4(target(true), f.w, f.h, rate, p.mp4_fps);
    if (!p.record_png && r.png()) r.stop_png();
    if (!p.record_ffmpeg && r.mp4()) r.stop_mp4();
  } catch (const std::exception& e) {
    p.record_png = p.record_ffmpeg = false;
    r.abort(e.what());
    std::fprintf(stderr, "nbody: %s\n", r.status().c_str());
  }
  p.record_status = r.status();
}

// the recorded rectangle's left edge in a framebuffer `fbw` wide: a window resized smaller keeps
// the rectangle's size, moved left to fit (black where the window has no pixels)
int recorded_x(const RecordFrame& f, int fbw) {
  return std::clamp(f.x, 0, std::max(fbw - f.w, 0));
}

// the recorded rectangle of the framebuffer drawn so far, to the recording; a failed write
// stops it
void capture(Recorder& r, PanelState& p, const RecordFrame& f, int fbw, int fbh) {
  try {
    r.add(crop(render::read_framebuffer(fbw, fbh), recorded_x(f, fbw), f.y, f.w, f.h),
          now_seconds());
  } catch (const std::exception& e) {
    p.record_png = p.record_ffmpeg = false;
    r.abort(e.what());
    std::fprintf(stderr, "nbody: %s\n", r.status().c_str());
  }
  p.record_status = r.status();
}

// the command line's settings of the viewer and the panel
void setup_viewer_and_panel(Viewer& viewer, PanelState& panel, const GuiOptions& opt,
                            const LaunchOptions& launch_options, const Launch& launch,
                            bool ffmpeg_found) {
  Controls& c = viewer.controls;
  if (launch_options.steps_per_frame > 1)
    c.sim.speed = launch_options.steps_per_frame * launch.params.dt * 60.0;
  c.sim.debug_step_delay_ms = opt.debug_step_delay_ms;
  if (opt.tree_cells >= 0) {
    c.sim.tree_boxes = true;
    c.sim.tree_depth = opt.tree_cells;
  }
  c.sim.paused = opt.paused;
  c.orbits = opt.orbits;
  render::parse_distance_scale(opt.distance_scale.c_str(), c.distance_scale);
  viewer.set_lite_render(opt.lite_render == "on" ||
                         (opt.lite_render == "auto" && viewer.software_rendering()));
  if (!opt.follow.empty()) {
    std::string why;
    if (!viewer.follow_named(opt.follow, why)) throw Error("--follow: " + why);
  }
  panel.open = opt.panel_open;
  panel.projector = opt.projector;
  panel.check = opt.panel_check;
  panel.ffmpeg_available = ffmpeg_found;
  std::snprintf(panel.capture_dir, sizeof panel.capture_dir, "%s", default_capture_dir().c_str());
  // the recording settings of the command line; --record starts one at the first frame
  panel.mp4_fps = opt.record_fps;
  panel.record_rate = opt.record_rate == "every-frame" ? 1 : 0;
  panel.burn_date = opt.burn_in.find("date") != std::string::npos;
  panel.burn_scale = opt.burn_in.find("scale") != std::string::npos;
  panel.burn_caption = opt.burn_in.find("caption") != std::string::npos;
  std::snprintf(panel.caption, sizeof panel.caption, "%s", opt.caption.c_str());
  if (!opt.record.empty()) {
    panel.record_path = std::filesystem::absolute(opt.record).lexically_normal().string();
    (is_mp4(opt.record) ? panel.record_ffmpeg : panel.record_png) = true;
  }
  panel.scene_index = -1;
  for (std::size_t i = 0; i < scene_table().size(); ++i)
    if (scene_table()[i].name == launch.scene.name && launch_options.load.empty())
      panel.scene_index = static_cast<int>(i);
  panel.file_label = "file: " + std::filesystem::path(launch_options.load).filename().string() +
                     ", N = " + with_commas(viewer.size());
  c.preset_name = launch_options.scene;
  c.preset_params.n = launch_options.n ? launch_options.n : launch.scene.bodies.size();
  c.preset_params.seed = launch_options.seed.value_or(1);
  c.load_options = load_options(launch_options);
  // files loaded later in the panel may be of any format: the command line's options apply to
  // them where they can
  c.load_options.input_units_given = c.load_options.components_given = false;
  std::snprintf(panel.load_path, sizeof panel.load_path, "%s", launch_options.load.c_str());
}

// opens the window (hidden until placed) with a GL 4.5 core context; null when it cannot
GLFWwindow* open_window(const GuiOptions& opt, const std::string& scene) {
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 5);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  glfwWindowHint(GLFW_OPENGL_DEBUG_CONTEXT, opt.gl_debug ? GLFW_TRUE : GLFW_FALSE);
  const Geometry geo = initial_geometry(opt);
  glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
  GLFWwindow* w = glfwCreateWindow(geo.w, geo.h, "nbody", nullptr, nullptr);
  if (!w) {
    std::fprintf(stderr,
                 "nbody: cannot create an OpenGL 4.5 core window: %s.\n"
                 "For frames without a window use the headless renderer, e.g.\n"
                 "  nbody render --scene %s --frames 120 --out frames/\n",
                 glfw_error_text.c_str(), scene.c_str());
    return nullptr;
  }
  if (geo.placed) glfwSetWindowPos(w, geo.x, geo.y);
  glfwShowWindow(w);
  return w;
}

// the window's frame loop: the input, the viewer's frame, the panel, recordings, screenshots
struct WindowLoop {
  WindowLoop(GLFWwindow* w, const GuiOptions& o, Viewer& v, PanelState& p, Input& i,
             const ImGuiStyle& style)
      : window(w), opt(o), viewer(v), panel(p), input(i), base_style(style) {}

  GLFWwindow* window;
  const GuiOptions& opt;
  Viewer& viewer;
  PanelState& panel;
  Input& input;
  ImGuiStyle base_style;
  Recorder recorder;
  RecordFrame record_frame;
  // a recording's burned-in overlays: drawn in ImGui's frame, rendered before the panel
  ImDrawList burn{ImGui::GetDrawListSharedData()};
  long long frame = 0;
  int exit_code = 0;
  float applied_scale = 0;
  bool applied_projector = false;
  long long seen_scene = 0;
  const double start_time = now_seconds();
  double first_frame_s = -1;        // process start to the first presented frame
  std::set<std::string> inspected;  // names of the bodies whose cards were shown (--stats)
  // this frame's sizes (window and framebuffer pixels) and UI scale
  int ww = 0, wh = 0, fbw = 0, fbh = 0;
  float scale = 1;

  /// Runs frames until the window closes, the panel quits or the scripted run ends.
  void run();
  bool one_frame();  // false: the scripted run ended
  void update_scale();
  void keys();
  void pointer();
  void scene_changed();
  void draw_ui(bool burn_in, bool caption);
  bool screenshot(bool end);  // false: the screenshot failed
  void write_stats(bool gl_reports);
};

void WindowLoop::run() {
  seen_scene = viewer.state().scene_serial;
  while (!glfwWindowShouldClose(window) && !panel.quit)
    if (!one_frame()) break;
  // a recording ends with the window (the movie is closed, the counts are final)
  recorder.stop();
}

bool WindowLoop::one_frame() {
  glfwPollEvents();
  glfwGetWindowSize(window, &ww, &wh);
  glfwGetFramebufferSize(window, &fbw, &fbh);
  update_scale();
  keys();
  pointer();
  if (fbw <= 0 || fbh <= 0) {  // minimised
    glfwWaitEventsTimeout(0.1);
    return true;
  }
  scene_changed();
  // draw the bodies right of the panel; a recording keeps the offset it started with
  const float live_offset = panel.visible
                                ? panel_width(static_cast<float>(ww), scale) *
                                      static_cast<float>(fbw) / static_cast<float>(std::max(ww, 1))
                                : 0;
  sync_recording(recorder, panel, record_frame, fbw, fbh, live_offset);
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
  viewer.controls.view_offset_px = recorder.active() ? record_frame.view_offset : live_offset;
  viewer.frame(fbw, fbh);
  for (const BodyCard& c : viewer.state().cards)
    inspected.insert(c.name);
  // what is burned into recorded frames; without any, the frame is read before ImGui draws
  const bool caption = panel.burn_caption && panel.caption[0] != '\0';
  const bool burn_in = recorder.active() && (panel.burn_date || panel.burn_scale || caption);
  if (recorder.active() && !burn_in) capture(recorder, panel, record_frame, fbw, fbh);
  draw_ui(burn_in, caption);
  ++frame;
  const bool smoke_done = opt.smoke_frames > 0 && frame >= opt.smoke_frames;
  const bool time_up = opt.exit_after > 0 && now_seconds() - start_time >= opt.exit_after;
  // a scripted run whose --screenshot fails fails
  if (!screenshot(smoke_done || time_up) && (smoke_done || time_up)) exit_code = 1;
  glfwSwapBuffers(window);
  if (first_frame_s < 0) {
    first_frame_s = seconds_since_process_start();
    std::printf("nbody: first frame %.2f s after the process started\n", first_frame_s);
    std::fflush(stdout);
  }
  return !(smoke_done || time_up);
}

// UI scale from the monitor's content scale and the window height
void WindowLoop::update_scale() {
  float csx = 1, csy = 1;
  glfwGetWindowContentScale(window, &csx, &csy);
  ImGuiIO& io = ImGui::GetIO();
  scale = std::clamp(std::max(csy, 1.0f) * std::clamp(wh / 820.0f, 1.0f, 2.0f), 1.0f, 3.0f);
  // projector mode: larger text and a high-contrast panel for the back of a classroom
  if (panel.projector) scale *= 1.4f;
  scale = std::round(scale * 8.0f) / 8.0f;
  if (scale != applied_scale || panel.projector != applied_projector) {
    ImGui::GetStyle() = base_style;
    if (panel.projector) {
      ImGuiStyle& st = ImGui::GetStyle();
      st.Colors[ImGuiCol_WindowBg] = ImVec4(0, 0, 0, 1);
      st.Colors[ImGuiCol_Text] = ImVec4(1, 1, 1, 1);
      st.Colors[ImGuiCol_TextDisabled] = ImVec4(0.8f, 0.8f, 0.8f, 1);
      st.Colors[ImGuiCol_FrameBg] = ImVec4(0.18f, 0.22f, 0.32f, 1);
      st.Colors[ImGuiCol_Header] = ImVec4(0.15f, 0.35f, 0.7f, 1);
      st.Colors[ImGuiCol_SliderGrab] = ImVec4(0.55f, 0.8f, 1, 1);
      st.Colors[ImGuiCol_CheckMark] = ImVec4(0.55f, 0.9f, 1, 1);
      st.FrameBorderSize = 1.0f;
    }
    ImGui::GetStyle().ScaleAllSizes(scale);
    io.FontGlobalScale = scale;
    applied_scale = scale;
    applied_projector = panel.projector;
  }
  panel.scale = scale;
}

// keys ask for requests and flip settings (ignored while a text field has focus)
void WindowLoop::keys() {
  ImGuiIO& io = ImGui::GetIO();
  while (!input.keys.empty()) {
    const int mods = input.keys.front() >> 16;
    const int key = input.keys.front() & 0xffff;
    input.keys.pop_front();
    // Esc: never while a field is edited (it cancels the edit there), and it asks first
    if (key == GLFW_KEY_ESCAPE && !io.WantTextInput && !panel.quit_dialog_open)
      panel.ask_quit = true;
    if (key == GLFW_KEY_F12) panel.screenshot = true;
    // Enter answers the quit question (a press and release within one slow frame never
    // reaches ImGui's key state)
    if ((key == GLFW_KEY_ENTER || key == GLFW_KEY_KP_ENTER) && panel.quit_dialog_open)
      panel.quit = true;
    if (io.WantCaptureKeyboard) continue;
    const bool ctrl = (mods & GLFW_MOD_CONTROL) != 0, shift = (mods & GLFW_MOD_SHIFT) != 0;
    const int edit_key =
        key == GLFW_KEY_DELETE || key == GLFW_KEY_BACKSPACE ? 127 : key;  // Del: 127
    if (panel_key(viewer, panel, edit_key, ctrl, shift)) continue;
    if (key == GLFW_KEY_SPACE) viewer.controls.sim.paused = !viewer.controls.sim.paused;
    if (key == GLFW_KEY_S) viewer.request(SimRequest::of(SimRequest::Kind::SingleStep));
    if (key == GLFW_KEY_R) viewer.request(ViewRequest::Reset);
    if (key == GLFW_KEY_F) viewer.request(ViewRequest::Fit);
    if (key == GLFW_KEY_H) panel.visible = !panel.visible;
    if (key == GLFW_KEY_L) viewer.controls.labels = !viewer.controls.labels;
  }
}

// the mouse on the view: the tool in hand (app/window/gestures.hpp)
void WindowLoop::pointer() {
  ImGuiIO& io = ImGui::GetIO();
  double x = 0, y = 0;
  glfwGetCursorPos(window, &x, &y);
  PointerInput in;
  in.x = x;
  in.y = y;
  in.left = glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS;
  in.right = glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_RIGHT) == GLFW_PRESS ||
             glfwGetMouseButton(window, GLFW_MOUSE_BUTTON_MIDDLE) == GLFW_PRESS;
  in.shift = glfwGetKey(window, GLFW_KEY_LEFT_SHIFT) == GLFW_PRESS ||
             glfwGetKey(window, GLFW_KEY_RIGHT_SHIFT) == GLFW_PRESS;
  in.ctrl = glfwGetKey(window, GLFW_KEY_LEFT_CONTROL) == GLFW_PRESS ||
            glfwGetKey(window, GLFW_KEY_RIGHT_CONTROL) == GLFW_PRESS;
  in.scroll = input.scroll;
  in.over_ui = io.WantCaptureMouse;
  // every press and release in order, then the state now
  const bool held = in.left;
  for (bool down : input.left) {
    in.left = down;
    panel.gestures.update(in, viewer, ww, wh, scale);
    in.scroll = 0;
  }
  input.left.clear();
  in.left = held;
  panel.gestures.update(in, viewer, ww, wh, scale);
  input.scroll = 0;
}

// a loaded file clears the preset shown in the Scene box
void WindowLoop::scene_changed() {
  if (viewer.state().scene_serial != seen_scene) {
    seen_scene = viewer.state().scene_serial;
    // a loaded file is a file even when it was written from a preset (its name says plummer)
    bool preset = false;
    if (!panel.loading_file)
      for (std::size_t i = 0; i < scene_table().size(); ++i)
        if (scene_table()[i].name == viewer.scene().name) {
          panel.scene_index = static_cast<int>(i);
          preset = true;
        }
    if (!preset) {
      panel.scene_index = -1;
      panel.file_label =
          "file: " + std::filesystem::path(viewer.controls.load_path).filename().string() +
          ", N = " + with_commas(viewer.size());
    }
    panel.loading_file = false;
    // what the start-up chose no longer describes this scene
    viewer.startup = {};
  }
}

// the panel and the overlays on top of the frame; the burned-in ones into the recording
void WindowLoop::draw_ui(bool burn_in, bool caption) {
  ImGuiIO& io = ImGui::GetIO();
  ImGui_ImplOpenGL3_NewFrame();
  ImGui_ImplGlfw_NewFrame();
  ImGui::NewFrame();
  // the overlays burned in go into their own list (the window shows them from there); the
  // rest into ImGui's foreground list
  OverlayParts shown;
  if (burn_in) {
    OverlayParts burned;
    burned.date = panel.burn_date;
    burned.scale_bar = panel.burn_scale;
    burned.tools = false;
    shown.names = false;
    shown.date = !burned.date;
    shown.scale_bar = !burned.scale_bar;
    burn._ResetForNewFrame();
    burn.PushClipRectFullScreen();
    burn.PushTextureID(io.Fonts->TexID);
    draw_overlays(&burn, viewer, panel, ww, wh, burned);
    // the caption: bottom left of the recorded rectangle (window pixels)
    if (caption)
      draw_caption(&burn, panel.caption,
                   static_cast<float>(recorded_x(record_frame, fbw)) * static_cast<float>(ww) /
                       static_cast<float>(std::max(fbw, 1)),
                   wh, scale);
  }
  draw_overlays(ImGui::GetForegroundDrawList(), viewer, panel, ww, wh, shown);
  draw_panel(viewer, panel, ww, wh);
  if (!panel.visible) {
    ImGui::SetNextWindowPos(ImVec2(6, 6));
    ImGui::SetNextWindowBgAlpha(0.5f);
    ImGui::Begin("##show", nullptr,
                 ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                     ImGuiWindowFlags_NoMove);
    if (ImGui::SmallButton("panel (H)")) panel.visible = true;
    ImGui::End();
  }
  ImGui::Render();
  if (burn_in) {
    // the burned-in overlays alone, read into the recording, then the panel on top: the
    // window looks as always and nothing is drawn twice
    burn._PopUnusedDrawCmd();
    ImDrawList* lists[] = {&burn};
    const ImDrawData* drawn = ImGui::GetDrawData();
    ImDrawData data;
    data.Valid = true;
    data.CmdLists = lists;
    data.CmdListsCount = 1;
    data.TotalVtxCount = burn.VtxBuffer.Size;
    data.TotalIdxCount = burn.IdxBuffer.Size;
    data.DisplayPos = drawn->DisplayPos;
    data.DisplaySize = drawn->DisplaySize;
    data.FramebufferScale = drawn->FramebufferScale;
    ImGui_ImplOpenGL3_RenderDrawData(&data);
    capture(recorder, panel, record_frame, fbw, fbh);
  }
  ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
}

// screenshots include the panel (F12, --screenshot after the smoke frames)
bool WindowLoop::screenshot(bool end) {
  const bool smoke_shot = end && !opt.screenshot.empty();
  bool ok = true;
  if (panel.screenshot || smoke_shot) {
    try {
      std::string path =
          smoke_shot ? opt.screenshot : in_dir(panel.capture_dir, timestamped_name(".png"));
      render::write_png(path, render::read_framebuffer(fbw, fbh));
      viewer.set_message("screenshot saved: " + path);
      std::printf("nbody: screenshot %s\n", path.c_str());
    } catch (const std::exception& e) {
      viewer.set_message(std::string("screenshot failed: ") + e.what());
      std::fprintf(stderr, "nbody: screenshot failed: %s\n", e.what());
      ok = false;
    }
    panel.screenshot = false;
  }
  return ok;
}

// statistics at exit: one line, and --stats as JSON
void WindowLoop::write_stats(bool gl_reports) {
  const SimState& st = viewer.state();
  if (!viewer.error().empty()) std::fprintf(stderr, "nbody: %s\n", viewer.error().c_str());
  double fps_median = 0;
  double ms = median_of(viewer.all_frame_ms());
  if (ms > 0) fps_median = 1000.0 / ms;
  std::printf("nbody: %lld frames, %.1f frames/s (median), %lld steps, kernel %s, N = %zu\n", frame,
              fps_median, st.steps, st.kernel.c_str(), st.n);
  const std::size_t gl_errors = gl_reports ? render::gl_debug_error_count() : 0;
  if (gl_errors > 0) {
    std::fprintf(stderr, "nbody: the GL driver reported %zu error(s)%s\n", gl_errors,
                 opt.gl_debug ? " (printed above)" : " (--gl-debug prints them)");
    if (opt.gl_debug && exit_code == 0) exit_code = 4;
  }
  if (opt.stats.empty()) return;
  nlohmann::json j;
  j["gl_errors"] = gl_reports ? nlohmann::json(gl_errors) : nlohmann::json("not available");
  j["ui_frames"] = frame;
  j["ui_frames_since_reset"] = viewer.all_frame_ms().size() + 1;
  j["ui_fps_median"] = fps_median;
  float worst = 0;
  for (float f : viewer.all_frame_ms())
    worst = std::max(worst, f);
  j["ui_frame_ms_max"] = worst;
  j["seconds"] = now_seconds() - start_time;
  j["first_frame_s"] = first_frame_s;
  // what a person sees: the bodies of the components shown, and the window's size
  long visible = 0;
  for (Component c : viewer.scene().bodies.component)
    visible += viewer.controls.style.component_gain[static_cast<int>(c)] > 0;
  j["visible_bodies"] = visible;
  j["bodies_in_window"] = bodies_in_window(viewer);
  j["lite_render"] = viewer.lite_render();
  j["frames_reused"] = viewer.frames_reused();
  int win_w = 0, win_h = 0;
  glfwGetWindowSize(window, &win_w, &win_h);
  j["window"] = {win_w, win_h};
  j["sim_steps"] = st.steps;
  j["sim_batches"] = viewer.batches();
  j["sim_step_ms_median"] = median_of(viewer.all_step_ms());
  j["sim_time"] = st.time;
  j["sim_time_unit"] = viewer.scene().units.time;
  // the applied physics (the simulation's: the command line's --dt/--softening/--G, the
  // scene's or the panel's last accepted change)
  j["dt"] = st.params.dt;
  j["softening"] = st.params.softening;
  j["G"] = st.params.G;
  j["integrator"] = integrator_name(st.params.integrator);
  j["kernel"] = st.kernel;
  j["precision"] = precision_name(st.precision);
  j["n"] = st.n;
  j["scene"] = viewer.scene().name;
  j["interactions_per_step"] = st.interactions;
  j["data_path"] = data_path_name(viewer.data_path());
  j["paused"] = viewer.is_paused();
  j["health_paused"] = st.health_paused;
  j["debug_step_delay_ms"] = opt.debug_step_delay_ms;
  j["startup"] = viewer.startup.summary;
  j["error"] = viewer.error();
  // hands on: the edits that stand and those undone, the cards shown, the mergers
  j["undo"] = st.undo_labels;
  j["redo"] = st.redo_labels;
  j["inspected"] = std::vector<std::string>(inspected.begin(), inspected.end());
  j["selected"] = viewer.controls.sim.selection.size();
  j["mergers"] = st.mergers;
  // the last recording: movie frames (PNG files or MP4 frames) and the wall time it covered
  j["record_frames"] = std::max(recorder.png_frames(), recorder.mp4_frames());
  j["record_seconds"] = recorder.seconds();
  // --panel-check: the labels cut at the panel's right edge ("Section: label")
  j["panel_overflow"] =
      panel.check ? nlohmann::json(panel.overflow) : nlohmann::json("not checked");
  try {
    io::write_file(opt.stats, j.dump(2) + "\n");  // the one safe writer
    std::printf("nbody: stats written to %s\n", opt.stats.c_str());
  } catch (const std::exception& e) {
    std::fprintf(stderr, "nbody: --stats: %s\n", e.what());
    if (exit_code == 0) exit_code = 1;
  }
}

}  // namespace

int run_gui(const LaunchOptions& launch_options_in) {
  const GuiOptions& opt = gui_options();
  LaunchOptions launch_options = launch_options_in;
  StartupChoice startup;
  const bool ffmpeg_found = have_ffmpeg();
  check_record_options(opt, ffmpeg_found);
  if (!opt.screenshot.empty() && opt.smoke_frames == 0 && opt.exit_after <= 0)
    fail(
        "--screenshot is written at the end of --smoke-test or --exit-after (F12 takes one in "
        "the window)");
  // a named kernel without a tree: --tree-cells fails before any measurement
  if (!launch_options.kernel.empty()) check_tree_cells(opt.tree_cells, launch_options.kernel);
  // the scene first: bad options fail before a window opens
  Launch launch = prepare_launch(launch_options, launch_options_in, opt, startup);

  glfwSetErrorCallback(on_glfw_error);
  GlfwLibrary glfw;
  const char* display = std::getenv("DISPLAY");
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  if (!glfw.ok) {
    std::fprintf(stderr,
                 "nbody: cannot open a window: %s%s.\n"
                 "For frames without a display use the headless renderer, e.g.\n"
                 "  nbody render --scene %s --frames 120 --out frames/\n",
                 glfw_error_text.empty() ? "GLFW could not initialise" : glfw_error_text.c_str(),
                 (!display && !wayland) ? " (DISPLAY is not set)" : "",
                 launch_options.scene.c_str());
    return kNoDisplay;
  }
  WindowHandle window;
  window.w = open_window(opt, launch_options.scene);
  if (!window.w) return kNoDisplay;
  Input input;
  glfwSetWindowUserPointer(window.w, &input);
  glfwSetKeyCallback(window.w, on_key);
  glfwSetScrollCallback(window.w, on_scroll);
  glfwSetMouseButtonCallback(window.w, on_mouse_button);
  glfwMakeContextCurrent(window.w);
  glfwSwapInterval(opt.smoke_frames > 0 ? 0 : 1);
  render::load_gl(reinterpret_cast<GLADloadfunc>(glfwGetProcAddress));
  std::printf("nbody: %s\n", render::gl_description().c_str());
  // GL messages: counted always, printed with --gl-debug
  render::gl_debug_clear();
  const bool gl_reports = render::enable_gl_debug(opt.gl_debug);

  // ImGui after the callbacks so its handlers chain to ours
  ImGuiSession imgui;
  ImGui::GetIO().IniFilename = nullptr;
  ImGui::StyleColorsDark();
  const ImGuiStyle base_style = ImGui::GetStyle();
  imgui.glfw = ImGui_ImplGlfw_InitForOpenGL(window.w, true);
  imgui.gl = ImGui_ImplOpenGL3_Init("#version 450");

  // the simulation gets its own thread; the viewer and every GL call stay here
  // the command line's dt, softening and G replace the scene's
  // a lesson's speed is the scene's (the viewer takes its speed from the scene)
  if (launch.lesson && launch.lesson_speed > 0) launch.scene.speed = launch.lesson_speed;
  Viewer viewer(launch.scene, launch.params, !opt.no_interop, true, launch.override);
  if (launch.lesson) viewer.play_lesson(launch.lesson, false);
  viewer.startup = startup;
  PanelState panel;
  setup_viewer_and_panel(viewer, panel, opt, launch_options, launch, ffmpeg_found);

  WindowLoop loop(window.w, opt, viewer, panel, input, base_style);
  loop.run();
  // the window's size and place for the next start (not for scripted runs: tests, recordings)
  if (opt.smoke_frames == 0 && opt.exit_after <= 0) save_geometry(window.w);
  loop.write_stats(gl_reports);
  const int exit_code = loop.exit_code;
  // a long step in progress is not waited for (a class would watch a frozen window until it
  // ends): half a second for it to finish, then the process ends without joining the
  // simulation thread (nothing of the run is saved at exit; a recording is closed first)
  const double quit_time = now_seconds();
  while (viewer.threaded() && viewer.batch_running_s() > 0 && now_seconds() - quit_time < 0.5)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  if (viewer.threaded() && viewer.batch_running_s() > 0) {
    std::printf("nbody: quit without waiting for the step in progress (running for %.1f s)\n",
                viewer.batch_running_s());
    std::fflush(nullptr);
    std::_Exit(exit_code);
  }
  return exit_code;
}

}  // namespace nbody::app
