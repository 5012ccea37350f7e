// The window's start-up (split from gui_window.cpp): the start-up measurement and the launch,
// the recording options, the window's size and place.
#include "app/window/gui_window_setup.hpp"

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <thread>

#include "render/gl_check.hpp"  // glad before GLFW

#include <GLFW/glfw3.h>
#include <nlohmann/json.hpp>

#include "app/window/startup.hpp"
#include "sim/core/backend.hpp"
#include "sim/core/error.hpp"

namespace nbody::app {
namespace {

// where the window was: $XDG_CONFIG_HOME/nbody/window.json (or ~/.config/...)
std::filesystem::path geometry_file() {
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  const char* home = std::getenv("HOME");
  if (xdg && *xdg) return std::filesystem::path(xdg) / "nbody" / "window.json";
  if (home && *home) return std::filesystem::path(home) / ".config" / "nbody" / "window.json";
  return {};
}

bool load_geometry(Geometry& g) {
  const std::filesystem::path f = geometry_file();
  if (f.empty()) return false;
  std::ifstream in(f);
  if (!in) return false;
  try {
    const nlohmann::json j = nlohmann::json::parse(in);
    g.x = j.at("x").get<int>();
    g.y = j.at("y").get<int>();
    g.w = j.at("width").get<int>();
    g.h = j.at("height").get<int>();
    g.placed = true;
    return g.w >= 320 && g.h >= 240;
  } catch (const std::exception&) {
    return false;  // a damaged file: the default size
  }
}

}  // namespace

void save_geometry(GLFWwindow* w) {
  const std::filesystem::path f = geometry_file();
  if (f.empty()) return;
  Geometry g;
  glfwGetWindowPos(w, &g.x, &g.y);
  glfwGetWindowSize(w, &g.w, &g.h);
  std::error_code ec;
  std::filesystem::create_directories(f.parent_path(), ec);
  std::ofstream out(f);
  if (out) out << nlohmann::json{{"x", g.x}, {"y", g.y}, {"width", g.w}, {"height", g.h}}.dump();
}

bool is_mp4(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext)
    c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext == ".mp4";
}

// --record, --burn-in: a bad path, a missing ffmpeg or an unknown part fail before the window
// opens, naming the option
void check_record_options(const GuiOptions& opt, bool ffmpeg) {
  for (std::size_t at = 0; at <= opt.burn_in.size();) {
    std::size_t end = std::min(opt.burn_in.find(',', at), opt.burn_in.size());
    const std::string part = opt.burn_in.substr(at, end - at);
    if (part != "date" && part != "scale" && part != "caption" && part != "none")
      fail("--burn-in ", opt.burn_in, ": '", part, "' is not one of date, scale, caption, none");
    at = end + 1;
  }
  if (opt.record.empty()) return;
  if (is_mp4(opt.record)) {
    if (!ffmpeg)
      fail("--record ", opt.record,
           ": ffmpeg was not found on PATH (install it, or give a folder for PNG frames)");
    const std::filesystem::path dir = std::filesystem::path(opt.record).parent_path();
    const std::string d = dir.empty() ? "." : dir.string();
    if (!std::filesystem::is_directory(d) || ::access(d.c_str(), W_OK | X_OK) != 0)
      fail("--record ", opt.record, ": cannot write into the folder ", d);
    return;
  }
  std::error_code ec;
  std::filesystem::create_directories(opt.record, ec);
  if (ec || !std::filesystem::is_directory(opt.record) ||
      ::access(opt.record.c_str(), W_OK | X_OK) != 0)
    fail("--record ", opt.record, ": cannot write PNG frames into this folder (",
         ec ? ec.message() : std::string("not a writable folder"), ")");
}

namespace {

// defaults that fit the machine: a short measurement picks N and the kernel of a generated
// scene when the command line names neither
void measure_at_startup(LaunchOptions& launch_options, const GuiOptions& opt,
                        StartupChoice& startup) {
  std::vector<std::string> kernels;
  if (!launch_options.kernel.empty()) {
    kernels.push_back(launch_options.kernel);
  } else {
    for (const KernelInfo& k : kernel_table())
      // (naive and pairwise-atomic are lessons: never the fastest, pairwise-atomic refuses
      // N > 65,536; with --tree-cells only the tree kernels, whose cells it draws)
      if (k.gpu == cuda_available() && !k.oracle && !k.lesson && (opt.tree_cells < 0 || k.tree))
        kernels.push_back(k.name);
  }
  bool gpu = cuda_available() && find_kernel(kernels.front()).gpu;
  std::printf("nbody: measuring at start-up...\n");
  std::fflush(stdout);
  // the scene's parameters as it will run
  const std::map<std::string, double> values = parse_values(launch_options.scene_values);
  // on the CPU one fixed size for the machine's cores, the same every run (a race of timed
  // kernels flips between sizes with the noise of a busy laptop); on a GPU the measurement
  StartupMeasurement m;
  if (gpu) {
    m = measure_startup(launch_options.scene, kernels, 16384, 1u << 20, opt.target_step_ms, values);
  } else {
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    std::size_t n = 8192;
    while (n < 65536 && n * 2 <= 8192u * std::max(1u, cores / 2))
      n *= 2;
    const std::string kernel =
        launch_options.kernel.empty() ? std::string("cpu-barnes-hut") : launch_options.kernel;
    m = measure_fixed_start(launch_options.scene, kernel, n, 1024, opt.target_step_ms, values);
  }
  launch_options.n = m.n;
  launch_options.kernel = m.kernel;
  startup.measured = true;
  startup.summary = m.summary;
  for (const std::string& l : m.lines)
    startup.details += l + "\n";
  std::printf("nbody: %s\n", m.summary.c_str());
}

}  // namespace

Launch prepare_launch(LaunchOptions& launch_options, const LaunchOptions& given,
                      const GuiOptions& opt, StartupChoice& startup) {
  // (a lesson brings its own scene and N)
  const bool generated = launch_options.load.empty() && launch_options.lesson.empty();
  // the galaxies in the window: rigid dark halos unless the command line says otherwise, so
  // every body is a visible star (a live halo is 81 % of the bodies, all hidden, and a small
  // machine would show a few hundred scattered dots)
  const bool galaxies =
      launch_options.scene == "galaxy-collision" || launch_options.scene == "disk-galaxy";
  if (generated && galaxies &&
      std::none_of(launch_options.scene_values.begin(), launch_options.scene_values.end(),
                   [](const std::string& kv) { return kv.rfind("halo=", 0) == 0; })) {
    launch_options.scene_values.push_back("halo=1");
    std::printf(
        "nbody: %s with rigid dark halos, all bodies stars (--param halo=0: a live "
        "halo)\n",
        launch_options.scene.c_str());
  }
  const SceneInfo* scene_row = nullptr;
  for (const SceneInfo& s : scene_table())
    if (s.name == launch_options.scene) scene_row = &s;
  if (generated && scene_row && scene_row->has_n && launch_options.n == 0)
    measure_at_startup(launch_options, opt, startup);
  // the scene first: bad options fail before a window opens
  Launch launch = make_launch(launch_options);
  check_tree_cells(opt.tree_cells, launch.params.kernel);
  // no measurement: say which kernel the crossover rule chose and why
  if (!startup.measured && !launch.kernel_reason.empty()) {
    startup.summary = "kernel " + launch.params.kernel + ": " + launch.kernel_reason;
    std::printf("nbody: %s\n", startup.summary.c_str());
  }
  // planetary scenes (few bodies, or the solar system with its small bodies): double
  // precision when the kernel has it
  if ((launch.scene.bodies.size() <= 64 || launch.scene.units.name == "solar") &&
      given.precision.empty()) {
    const KernelInfo& k = find_kernel(launch.params.kernel);
    if (k.supports_double) launch.params.precision = Precision::Double;
  }

  return launch;
}

Geometry initial_geometry(const GuiOptions& opt) {
  // the size: as given, else the last one, else 1600x900; never larger than the monitor's
  // work area (a 1,280x800 laptop or a 1,024x768 projector), and placed inside it
  Geometry geo;
  const bool given = opt.width > 0 && opt.height > 0;
  if (given) {
    geo.w = opt.width;
    geo.h = opt.height;
  } else if (!load_geometry(geo)) {
    geo = {0, 0, 1600, 900, false};
  }
  int area_x = 0, area_y = 0, area_w = 0, area_h = 0;
  if (GLFWmonitor* monitor = glfwGetPrimaryMonitor())
    glfwGetMonitorWorkarea(monitor, &area_x, &area_y, &area_w, &area_h);
  if (area_w > 0 && area_h > 0) {
    // room for the title bar and borders when the size was not asked for
    const int max_w = given ? area_w : area_w * 96 / 100,
              max_h = given ? area_h : area_h * 92 / 100;
    geo.w = std::min(geo.w, max_w);
    geo.h = std::min(geo.h, max_h);
    if (!geo.placed || geo.x < area_x || geo.y < area_y || geo.x + geo.w > area_x + area_w ||
        geo.y + geo.h > area_y + area_h) {
      geo.x = area_x + (area_w - geo.w) / 2;
      geo.y = area_y + (area_h - geo.h) / 2;
    }
    geo.placed = true;
  }
  return geo;
}

}  // namespace nbody::app
