// The panel's Classroom (kernel comparison) and Help sections.
#include "app/panel_sections.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include <imgui.h>

#include "app/gui_logic.hpp"
#include "app/startup.hpp"
#include "sim/backend.hpp"

namespace nbody::app {

namespace {

// log-scale position of an error in [1e-9, 1e-1]
float error_frac(double e) {
  if (!(e > 0)) return 0.0f;
  return static_cast<float>((std::log10(e) + 9.0) / 8.0);
}

// the comparison results: per entry, time per step and interactions/s (bar: relative to the
// fastest), force error vs the double direct sum (bar: median, log scale; tick: max)
void compare_table(const std::vector<CompareOutcome>& r) {
  double best = 0;
  for (const auto& c : r)
    best = std::max(best, c.interactions_per_s);
  const ImGuiTableFlags flags =
      ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV;
  if (!ImGui::BeginTable("compare", 3, flags)) return;
  ImGui::TableSetupColumn("kernel / variant", ImGuiTableColumnFlags_WidthStretch, 1.3f);
  ImGui::TableSetupColumn("ms/step, interactions/s", ImGuiTableColumnFlags_WidthStretch, 1.0f);
  ImGui::TableSetupColumn("error median | max", ImGuiTableColumnFlags_WidthStretch, 1.0f);
  ImGui::TableHeadersRow();
  char buf[96];
  for (const auto& c : r) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(c.entry.label.c_str());
    if (!c.error.empty()) {
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", c.error.c_str());
      ImGui::TableNextColumn();
      ImGui::TextDisabled("not run (hover the name)");
      ImGui::TableNextColumn();
      continue;
    }
    ImGui::TableNextColumn();
    std::snprintf(buf, sizeof buf, "%.3g ms  %s/s", c.ms_per_step,
                  si(c.interactions_per_s, "").c_str());
    bar_cell(best > 0 ? static_cast<float>(c.interactions_per_s / best) : 0.0f,
             IM_COL32(70, 120, 220, 200), buf);
    ImGui::TableNextColumn();
    std::snprintf(buf, sizeof buf, "%.1e | %.1e", c.err_median, c.err_max);
    bar_cell(error_frac(c.err_median), IM_COL32(200, 140, 60, 200), buf, error_frac(c.err_max));
  }
  ImGui::EndTable();
}

}  // namespace

void classroom_section(Viewer& v, PanelState& s) {
  // what this machine can compare: each kernel at its defaults and each variant on its own
  if (s.compare_entries.empty()) {
    s.compare_entries = compare_entries(cuda_available());
    s.compare_pick.assign(s.compare_entries.size(), 1);
  }
  if (ImGui::TreeNode("kernels and variants to compare")) {
    if (ImGui::SmallButton("all")) std::fill(s.compare_pick.begin(), s.compare_pick.end(), 1);
    ImGui::SameLine();
    if (ImGui::SmallButton("none")) std::fill(s.compare_pick.begin(), s.compare_pick.end(), 0);
    for (std::size_t i = 0; i < s.compare_entries.size(); ++i) {
      bool on = s.compare_pick[i] != 0;
      if (ImGui::Checkbox(s.compare_entries[i].label.c_str(), &on)) s.compare_pick[i] = on;
    }
    ImGui::TreePop();
  }
  std::vector<CompareEntry> chosen;
  for (std::size_t i = 0; i < s.compare_entries.size(); ++i)
    if (s.compare_pick[i]) chosen.push_back(s.compare_entries[i]);
  char label[96];
  std::snprintf(label, sizeof label, "Compare %zu (about 0.3 s each)", chosen.size());
  const bool disabled = v.comparing() || chosen.empty();
  if (disabled) ImGui::BeginDisabled();
  if (ImGui::Button(label)) {
    v.compare_set = std::move(chosen);
    v.pending.compare = true;
  }
  if (disabled) ImGui::EndDisabled();
  help_marker(
      "Each kernel or variant runs on a copy of the current bodies while the simulation waits: "
      "time per step by CUDA events (wall clock on the CPU), interactions/s, and the per-body "
      "force error against the double-precision direct sum on 256 bodies (bar: median; tick: "
      "max)");
  if (v.comparing()) wrapped(v.compare_status());
  if (!v.compare_results().empty()) compare_table(v.compare_results());
  ImGui::Separator();
  ImGui::InputText("folder", s.capture_dir, sizeof s.capture_dir);
  help_marker("Screenshots (F12), PNG sequences and movies are saved here.");
  bool png = s.record_png;
  if (ImGui::Checkbox("record PNG sequence", &png)) s.record_png = png;
  if (!s.ffmpeg_available) ImGui::BeginDisabled();
  ImGui::Checkbox("record MP4 (ffmpeg)", &s.record_ffmpeg);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 4);
  int fps_index = s.mp4_fps == 24 ? 0 : (s.mp4_fps == 60 ? 2 : 1);
  if (s.record_ffmpeg) ImGui::BeginDisabled();
  if (ImGui::Combo("fps", &fps_index, "24\00030\00060\0"))
    s.mp4_fps = fps_index == 0 ? 24 : (fps_index == 2 ? 60 : 30);
  if (s.record_ffmpeg) ImGui::EndDisabled();
  if (!s.ffmpeg_available) ImGui::EndDisabled();
  if (!s.ffmpeg_available) ImGui::TextDisabled("(MP4: ffmpeg was not found on PATH)");
  if (s.record_png || s.record_ffmpeg)
    wrapped("Recorded frames show the view centred (as without the panel); H hides the panel.");
  if (!s.record_status.empty()) wrapped(s.record_status);
}

void help_section() {
  auto bullet = [](const char* t) {
    ImGui::Bullet();
    wrapped(t);
  };
  bullet("left drag: rotate; right/middle drag or Shift+drag: pan; wheel: zoom");
  bullet("click a body: follow it; F: fit the scene (stops following); R: reset the view");
  bullet("Space: pause; S: single step; H: hide/show this panel; L: names on/off");
  bullet("F12: screenshot into the folder of the Classroom section; Esc: quit (asks first)");
  bullet("The simulation runs on its own thread: the view stays smooth however long a step takes.");
  bullet("Kernel, precision and tunables switch live; positions carry over.");
  bullet("Scene changes, loads and resets are applied by the simulation between two steps.");
}

}  // namespace nbody::app
