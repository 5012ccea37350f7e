#pragma once
// The ImGui control panel. Widgets edit the viewer's settings and raise flags in
// viewer.pending; nothing structural happens inside the panel.

#include <string>

#include "app/gui_viewer.hpp"

namespace nbody::app {

/// Width of the panel in window pixels.
inline constexpr float kPanelWidth = 390.0f;

/// What the panel keeps between frames that is not a viewer setting.
struct PanelState {
  bool visible = true;
  int scene_index = 0;
  char load_path[512] = "";
  // requests to the window (screenshots and recording live there)
  bool screenshot = false;
  bool record_png = false;
  bool record_ffmpeg = false;
  bool ffmpeg_available = false;
  char record_dir[256] = "nbody_frames";
  std::string record_status;
  bool quit = false;
  std::string open;  ///< sections to open at start: "scene,display,map,health,classroom,help"
};

/// Draws the panel at the left of a width×height window.
void draw_panel(Viewer& viewer, PanelState& state, int width, int height);

}  // namespace nbody::app
