#pragma once
// The panel's sections (one file each: panel_scene, panel_physics, panel_display, panel_health,
// panel_classroom) and the small ImGui helpers they share (panel_widgets). Internal to the
// panel: draw_panel() in gui_panel.cpp calls the sections.

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include <imgui.h>
#include <glm/glm.hpp>

#include "app/panel/gui_panel.hpp"
#include "app/window/gui_viewer.hpp"

namespace nbody::app {

// sections
void scene_section(Viewer& v, PanelState& s);
void kernel_section(Viewer& v);
void physics_section(Viewer& v);
void display_section(Viewer& v);
void map_section(Viewer& v);
void timings_section(Viewer& v);
void health_section(Viewer& v);
void classroom_section(Viewer& v, PanelState& s);
void help_section();
// hands on (panel_edit.cpp)
void tools_section(Viewer& v, PanelState& s);
void inspector_section(Viewer& v);
void timeline_section(Viewer& v);
void files_section(Viewer& v, PanelState& s);
/// The hands-on keys (A, V, M, C, Ctrl+Z, Ctrl+Y, Ctrl+Shift+Z); true when `key` was one.
bool edit_key(Viewer& v, PanelState& s, int key, bool ctrl, bool shift);
/// Deletes the selected bodies (one undoable edit).
void delete_selection(Viewer& v);
/// On the view: rings around the selected bodies, the predicted path and velocity arrow of a
/// body being placed, the selection box, the gesture's hint line.
void edit_overlays(Viewer& v, const PanelState& s, int width, int height);

// widgets
/// A colour as ImGui's packed RGBA.
ImU32 to_u32(const glm::vec3& c, float a = 1.0f);
/// A number with an SI prefix and unit: "1.2 G" + unit.
std::string si(double v, const char* unit);
/// A "(?)" with `text` as its tooltip.
void help_marker(const char* text);
/// `s` with line breaks so that no line is wider than `width` pixels in the current font.
std::string wrap_text(const std::string& s, float width);
/// The label for the next widget: `label` when it fits right of the widget; else `label` is
/// drawn on its own line above and the widget gets the whole width and "##" + `label`.
std::string fit_label(const std::string& label);
/// Text wrapped short of the panel's width, a "(?)" with `help` beside it.
void wrapped_help(const std::string& s, const char* help);
/// Text wrapped at the panel's width (plain, or in colour c).
void wrapped(const std::string& s);
void wrapped_colored(const ImVec4& c, const std::string& s);
/// Several histories in one frame on a shared scale from 0, `label` at its top left.
void plot_histories(std::initializer_list<std::pair<const History*, ImU32>> series, float height,
                    const char* label);
/// A bar filling `frac` of the cell behind `text`, with an optional tick at `tick`.
void bar_cell(float frac, ImU32 color, const char* text, float tick = -1.0f);
/// ImGui::BeginCombo and ImGui::Combo; with --panel-check a choice cut by the box is noted.
bool begin_combo(const char* label, const char* preview);
bool combo(const char* label, int* current, const char* items_zero_separated);
/// The label for the next combo, whose widest choice is `widest` pixels: `label` when the choice
/// fits the usual box; else `label` is drawn above and the combo gets the whole width (less room
/// for a help_marker() after it when `marker_after`).
std::string fit_combo(const std::string& label, float widest, bool marker_after = false);
/// With --panel-check: notes `choice` when the next combo's box would cut it.
void combo_check(const char* label, const char* choice);

// the check for cut labels (--panel-check): between probe_begin() and probe_end() every text
// drawn in the panel's window that runs past its visible right edge, and every item whose
// rectangle does, is noted as "Section: text"; probe_section() names the section that follows
/// Starts the check in the current window; the notes are added to `notes` (once each).
void probe_begin(std::vector<std::string>& notes);
/// Checks what was drawn since the last call and names the section that follows.
void probe_section(const char* name);
/// Checks the last section and ends the check.
void probe_end();

/// A horizontal colour bar (a colour map) with labels at its ends.
template <typename F>
void color_bar(F color, const char* left, const char* right, float height = 12.0f) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  ImVec2 p = ImGui::GetCursorScreenPos();
  float w = ImGui::GetContentRegionAvail().x;
  const int steps = 64;
  for (int i = 0; i < steps; ++i) {
    float x0 = p.x + w * i / steps, x1 = p.x + w * (i + 1) / steps;
    dl->AddRectFilled(ImVec2(x0, p.y), ImVec2(x1 + 1, p.y + height),
                      to_u32(color((i + 0.5f) / steps)));
  }
  ImGui::Dummy(ImVec2(w, height));
  ImGui::TextUnformatted(left);
  float rw = ImGui::CalcTextSize(right).x;
  ImGui::SameLine(std::max(w - rw, 0.0f) + ImGui::GetStyle().WindowPadding.x);
  ImGui::TextUnformatted(right);
}

}  // namespace nbody::app
