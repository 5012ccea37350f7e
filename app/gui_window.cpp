// The window: GLFW + OpenGL 4.5 core + Dear ImGui around the Viewer. Start-up order: window,
// GL loader, ImGui, viewer; shutdown runs in reverse.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <deque>
#include <filesystem>
#include <memory>
#include <string>

#include "render/gl_check.hpp"  // glad before GLFW

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>

#include "app/commands.hpp"
#include "app/gui_options.hpp"
#include "app/gui_panel.hpp"
#include "app/gui_viewer.hpp"
#include "render/capture.hpp"
#include "sim/backend.hpp"
#include "sim/error.hpp"

namespace nbody::app {
namespace {

// input gathered by GLFW callbacks, consumed once per frame
struct Input {
  std::deque<int> keys;
  double scroll = 0;
};

Input* input_of(GLFWwindow* w) {
  return static_cast<Input*>(glfwGetWindowUserPointer(w));
}

void on_key(GLFWwindow* w, int key, int, int action, int) {
  if (action == GLFW_PRESS) input_of(w)->keys.push_back(key);
}
void on_scroll(GLFWwindow* w, double, double dy) {
  input_of(w)->scroll += dy;
}

std::string timestamped_name() {
  std::time_t t = std::time(nullptr);
  char buf[64];
  std::strftime(buf, sizeof buf, "nbody_%Y%m%d_%H%M%S.png", std::localtime(&t));
  return buf;
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

// a movie through an ffmpeg pipe
struct FfmpegPipe {
  FILE* pipe = nullptr;
  int width = 0, height = 0;
  ~FfmpegPipe() { close(); }
  bool open(const std::string& path, int w, int h) {
    std::string cmd = "ffmpeg -loglevel error -y -f rawvideo -pix_fmt rgba -s " +
                      std::to_string(w) + "x" + std::to_string(h) +
                      " -r 30 -i - -c:v libx264 -pix_fmt yuv420p '" + path + "'";
    pipe = popen(cmd.c_str(), "w");
    width = w;
    height = h;
    return pipe != nullptr;
  }
  void close() {
    if (pipe) pclose(pipe);
    pipe = nullptr;
  }
};

std::string glfw_error_text;
void on_glfw_error(int code, const char* text) {
  glfw_error_text = text ? text : "";
  (void)code;
}

constexpr int kNoDisplay = 4;

}  // namespace

int run_gui(const LaunchOptions& launch_options) {
  const GuiOptions& opt = gui_options();
  // the scene first: bad options fail before a window opens
  Launch launch = make_launch(launch_options);

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
  glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 4);
  glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 5);
  glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
  glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
  WindowHandle window;
  window.w = glfwCreateWindow(opt.width, opt.height, "nbody", nullptr, nullptr);
  if (!window.w) {
    std::fprintf(stderr,
                 "nbody: cannot create an OpenGL 4.5 core window: %s.\n"
                 "For frames without a window use the headless renderer, e.g.\n"
                 "  nbody render --scene %s --frames 120 --out frames/\n",
                 glfw_error_text.c_str(), launch_options.scene.c_str());
    return kNoDisplay;
  }
  Input input;
  glfwSetWindowUserPointer(window.w, &input);
  glfwSetKeyCallback(window.w, on_key);
  glfwSetScrollCallback(window.w, on_scroll);
  glfwMakeContextCurrent(window.w);
  glfwSwapInterval(opt.smoke_frames > 0 ? 0 : 1);
  render::load_gl(reinterpret_cast<GLADloadfunc>(glfwGetProcAddress));
  std::printf("nbody: %s\n", render::gl_description().c_str());

  // ImGui after the callbacks so its handlers chain to ours
  ImGuiSession imgui;
  ImGui::GetIO().IniFilename = nullptr;
  ImGui::StyleColorsDark();
  imgui.glfw = ImGui_ImplGlfw_InitForOpenGL(window.w, true);
  imgui.gl = ImGui_ImplOpenGL3_Init("#version 450");

  Viewer viewer(launch.scene, launch.params, !opt.no_interop);
  viewer.params = launch.params;
  viewer.pending.switch_kernel = true;
  PanelState panel;
  panel.open = opt.panel_open;
  panel.ffmpeg_available = have_ffmpeg();
  for (std::size_t i = 0; i < scene_table().size(); ++i)
    if (scene_table()[i].name == launch.scene.name) panel.scene_index = static_cast<int>(i);
  viewer.preset_params.n = launch_options.n ? launch_options.n : launch.scene.bodies.size();
  viewer.preset_params.seed = launch_options.seed;
  viewer.load_options = load_options(launch_options);
  std::snprintf(panel.load_path, sizeof panel.load_path, "%s", launch_options.load.c_str());

  int record_index = 0;
  FfmpegPipe ffmpeg;
  double last_x = 0, last_y = 0;
  glfwGetCursorPos(window.w, &last_x, &last_y);
  long long frame = 0;
  int exit_code = 0;

  while (!glfwWindowShouldClose(window.w) && !panel.quit) {
    glfwPollEvents();
    ImGuiIO& io = ImGui::GetIO();

    // keys raise flags (ignored while a text field has focus)
    while (!input.keys.empty()) {
      int key = input.keys.front();
      input.keys.pop_front();
      if (key == GLFW_KEY_ESCAPE) panel.quit = true;
      if (key == GLFW_KEY_F12) panel.screenshot = true;
      if (io.WantCaptureKeyboard) continue;
      if (key == GLFW_KEY_SPACE) viewer.paused = !viewer.paused;
      if (key == GLFW_KEY_S) viewer.pending.single_step = true;
      if (key == GLFW_KEY_R) viewer.pending.reset_view = true;
      if (key == GLFW_KEY_F) viewer.pending.fit_view = true;
      if (key == GLFW_KEY_H) panel.visible = !panel.visible;
    }
    // mouse: left drag rotates, right/middle or Shift+left pans, wheel zooms
    double x = 0, y = 0;
    glfwGetCursorPos(window.w, &x, &y);
    auto dx = static_cast<float>(x - last_x), dy = static_cast<float>(y - last_y);
    last_x = x;
    last_y = y;
    int fbw = 0, fbh = 0, ww = 0, wh = 0;
    glfwGetFramebufferSize(window.w, &fbw, &fbh);
    glfwGetWindowSize(window.w, &ww, &wh);
    if (!io.WantCaptureMouse) {
      bool shift = glfwGetKey(window.w, GLFW_KEY_LEFT_SHIFT) == GLFW_PRESS ||
                   glfwGetKey(window.w, GLFW_KEY_RIGHT_SHIFT) == GLFW_PRESS;
      bool left = glfwGetMouseButton(window.w, GLFW_MOUSE_BUTTON_LEFT) == GLFW_PRESS;
      bool right = glfwGetMouseButton(window.w, GLFW_MOUSE_BUTTON_RIGHT) == GLFW_PRESS ||
                   glfwGetMouseButton(window.w, GLFW_MOUSE_BUTTON_MIDDLE) == GLFW_PRESS;
      if ((left && shift) || right)
        viewer.camera().pan(dx, dy, static_cast<float>(std::max(wh, 1)));
      else if (left)
        viewer.camera().rotate(dx, dy);
      if (input.scroll != 0) viewer.camera().zoom(static_cast<float>(input.scroll));
    }
    input.scroll = 0;
    if (fbw <= 0 || fbh <= 0) {  // minimised
      glfwWaitEventsTimeout(0.1);
      continue;
    }

    // simulate and draw the bodies
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    viewer.view_offset_px =
        panel.visible ? kPanelWidth * static_cast<float>(fbw) / std::max(ww, 1) : 0;
    viewer.frame(fbw, fbh);

    // recording captures the 3D view without the panel
    if (panel.record_png || panel.record_ffmpeg) {
      try {
        render::Image img = render::read_framebuffer(fbw, fbh);
        if (panel.record_png) {
          std::filesystem::create_directories(panel.record_dir);
          char name[32];
          std::snprintf(name, sizeof name, "frame_%06d.png", record_index++);
          render::write_png((std::filesystem::path(panel.record_dir) / name).string(), img);
          panel.record_status =
              "recording PNG frames: " + std::to_string(record_index) + " in " + panel.record_dir;
        }
        if (panel.record_ffmpeg) {
          if (!ffmpeg.pipe || ffmpeg.width != fbw || ffmpeg.height != fbh) {
            ffmpeg.close();
            std::string mp4 = timestamped_name();
            mp4.replace(mp4.size() - 4, 4, ".mp4");
            if (!ffmpeg.open(mp4, fbw, fbh)) throw Error("could not start ffmpeg");
            panel.record_status = "recording " + mp4;
          }
          std::fwrite(img.rgba.data(), 1, img.rgba.size(), ffmpeg.pipe);
        } else {
          ffmpeg.close();
        }
      } catch (const std::exception& e) {
        panel.record_png = panel.record_ffmpeg = false;
        panel.record_status = std::string("recording stopped: ") + e.what();
      }
    } else if (ffmpeg.pipe) {
      ffmpeg.close();
      panel.record_status = "movie written";
    }

    // the panel on top
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    draw_panel(viewer, panel, ww, wh);
    ImGui::Render();
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());

    // screenshots include the panel (F12, --screenshot after the smoke frames)
    ++frame;
    bool smoke_done = opt.smoke_frames > 0 && frame >= opt.smoke_frames;
    bool smoke_shot = smoke_done && !opt.screenshot.empty();
    if (panel.screenshot || smoke_shot) {
      std::string path = smoke_shot ? opt.screenshot : timestamped_name();
      try {
        render::write_png(path, render::read_framebuffer(fbw, fbh));
        viewer.set_message("screenshot saved: " + path);
        std::printf("nbody: screenshot %s\n", path.c_str());
      } catch (const std::exception& e) {
        viewer.set_message(std::string("screenshot failed: ") + e.what());
        if (smoke_done) exit_code = 1;
      }
      panel.screenshot = false;
    }
    glfwSwapBuffers(window.w);
    if (smoke_done) {
      if (!viewer.error().empty()) std::fprintf(stderr, "nbody: %s\n", viewer.error().c_str());
      std::printf("nbody: smoke test: %lld frames, %.1f fps, kernel %s, N = %zu\n", frame,
                  viewer.fps(), viewer.params.kernel.c_str(), viewer.sim().size());
      break;
    }
  }
  return exit_code;
}

}  // namespace nbody::app
