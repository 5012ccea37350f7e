#pragma once
// The window's start-up (app/window/gui_window_setup.cpp): what run_gui() does before and while
// it opens the window. Bad options fail here, naming the option, before a window opens.

#include <string>

#include "app/core/launch.hpp"
#include "app/window/gui_options.hpp"
#include "app/window/gui_viewer.hpp"

struct GLFWwindow;

namespace nbody::app {

/// The scene, parameters and kernel of the run: the command line's `launch_options` (adjusted
/// here: rigid halos for the galaxies, N and the kernel from a start-up measurement when it
/// names neither, which `startup` describes); `given` is the command line as given.
Launch prepare_launch(LaunchOptions& launch_options, const LaunchOptions& given,
                      const GuiOptions& opt, StartupChoice& startup);

/// --record, --burn-in: a bad path, a missing ffmpeg or an unknown part fail, naming the option.
void check_record_options(const GuiOptions& opt, bool ffmpeg);
/// Whether `path` names an MP4 file (else a PNG folder).
bool is_mp4(const std::string& path);

/// The window's size and place.
struct Geometry {
  int x = 0, y = 0, w = 0, h = 0;
  bool placed = false;  ///< x, y known
};
/// The size as given, else the last one, else 1600x900; never larger than the monitor's work
/// area, and placed inside it (GLFW initialised).
Geometry initial_geometry(const GuiOptions& opt);
/// Remembers the window's size and place for the next start.
void save_geometry(GLFWwindow* w);

}  // namespace nbody::app
