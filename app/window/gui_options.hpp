#pragma once
// Window options that are not launch options: size, smoke test, interop switch. Set by
// register_gui_commands() on the top-level app, read by run_gui().

#include <string>

namespace nbody::app {

struct GuiOptions {
  int width = 0, height = 0;       ///< 0: the last size, else 1600x900, within the work area
  int smoke_frames = 0;            ///< > 0: run this many frames, write --screenshot, quit
  std::string screenshot;          ///< PNG written after the smoke frames
  bool no_interop = false;         ///< force device -> host -> GL copies
  bool gl_debug = false;           ///< debug context, GL messages printed, errors counted
  bool projector = false;          ///< start in projector mode (large text, high contrast)
  std::string panel_open;          ///< panel sections open at start (comma list)
  bool panel_check = false;        ///< every section open, cut labels in --stats panel_overflow
  double exit_after = 0;           ///< > 0: quit after this many seconds (writing --stats)
  std::string stats;               ///< JSON written at exit: frames, fps, steps, step time, ...
  double debug_step_delay_ms = 0;  ///< sleep per batch of steps (tests of a slow simulation)
  double target_step_ms = 20;      ///< the start-up measurement aims at this step time
  int tree_cells = -1;  ///< >= 0: tree kernels start with their cells drawn to this depth
  bool paused = false;  ///< start paused (Space runs)
  bool orbits = false;  ///< draw the named bodies' orbit ellipses
  std::string distance_scale = "true";
  std::string lite_render = "auto";  ///< "auto" (software rasterizers), "on" or "off"  ///< "true"
                                     ///< or "log" distances from the Sun (Display)
  std::string follow;  ///< "centre of mass", a group ("galaxy 1") or a body name to follow
  // a recording from the first frame (scripts, tests): the Classroom section's settings
  std::string record;                          ///< PNG folder or .mp4 file
  std::string caption;                         ///< burned in bottom left
  std::string burn_in = "date,scale,caption";  ///< what is burned in ("none": nothing)
  std::string record_rate = "real-time";       ///< or "every-frame"
  int record_fps = 30;
};

/// The process-wide window options.
GuiOptions& gui_options();

}  // namespace nbody::app
