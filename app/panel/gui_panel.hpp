#pragma once
// The ImGui control panel. Widgets bind to the fields of viewer.controls and push requests that
// carry their payload (viewer.request()); nothing structural happens inside the panel.

#include <string>
#include <vector>

#include "app/core/file_browser.hpp"
#include "app/window/gestures.hpp"
#include "app/window/gui_viewer.hpp"

struct ImDrawList;

namespace nbody::app {

/// Width of the panel in pixels for a window `width` pixels wide at UI scale `scale`: a fraction
/// of the window, within readable limits.
float panel_width(float width, float scale);

/// What the panel keeps between frames that is not a viewer setting.
struct PanelState {
  bool visible = true;
  int scene_index = 0;     ///< preset shown in the Scene box (-1: a loaded file)
  std::string file_label;  ///< shown in the Scene box when a file was loaded
  bool loading_file = false;
  bool projector = false;  ///< larger text, high contrast (for a room)  ///< the next new scene
                           ///< comes from Load file (not a preset)
  char load_path[512] = "";
  float scale = 1.0f;  ///< UI scale (font and sizes)
  // requests to the window (screenshots and recording live there)
  bool screenshot = false;
  bool record_png = false;
  bool record_ffmpeg = false;
  bool ffmpeg_available = false;
  int mp4_fps = 30;     ///< the movie's (and a PNG sequence's) frames per second
  int record_rate = 0;  ///< 0: real time (frames repeated or dropped), 1: every drawn frame
  /// burned into recorded frames: date, speed and status (top right), scale bar, caption
  bool burn_date = true, burn_scale = true, burn_caption = true;
  char caption[256] = "";
  /// --record: where the first recording goes (a PNG folder or an .mp4), else a timestamped
  /// name in capture_dir
  std::string record_path;
  char capture_dir[512] = "";
  std::string record_status;
  bool quit = false;
  bool ask_quit = false;          ///< Esc was pressed: the window asks before quitting
  bool quit_dialog_open = false;  ///< the question is on screen
  int quit_dialog_frame = -1;     ///< ImGui's frame that opened it (its Esc must not close it)
  std::string open;  ///< sections to open at start: "scene,display,map,health,classroom,help"
  /// --panel-check: every section open, and what is cut at the panel's right edge noted in
  /// `overflow` as "Section: label" (app/panel/panel_widgets.cpp)
  bool check = false;
  std::vector<std::string> overflow;
  // the Classroom comparison: what can be compared on this machine and which are ticked
  std::vector<CompareEntry> compare_entries;
  std::vector<char> compare_pick;
  /// The mouse on the view: the tool in hand and what Add places (the Tools section edits them).
  Gestures gestures;
  /// Save and Load's file browser (one at a time), and the shipped lessons listed.
  FileBrowser browser;
  std::vector<std::string> lessons;
  int lesson_index = 0;
  std::string lesson_error;
};

/// Draws the panel at the left of a width×height window.
void draw_panel(Viewer& viewer, PanelState& state, int width, int height);
/// The hands-on keys (A, V, M, C, Del, Ctrl+Z, Ctrl+Y); true when `key` (a GLFW key code) was
/// one of them.
bool panel_key(Viewer& viewer, PanelState& state, int key, bool ctrl, bool shift);
/// The parts of the overlays on the 3D view.
struct OverlayParts {
  bool names = true;      ///< body names (L)
  bool scale_bar = true;  ///< bottom right
  bool date = true;       ///< date or time, speed, run status, top right
  bool tools = true;      ///< the hands-on tools' marks (never recorded)
};
/// Draws the overlays on the 3D view into `dl` (the foreground list, or a recording's burn-in
/// list): body names, scale bar, date and speed, run status, the tools' marks.
void draw_overlays(ImDrawList* dl, Viewer& viewer, const PanelState& state, int width, int height,
                   const OverlayParts& parts);
/// A recording's caption: bottom left of the region starting `left` pixels from the window's
/// left edge, larger text with a dark shadow.
void draw_caption(ImDrawList* dl, const char* text, float left, int height, float scale);

}  // namespace nbody::app
