// The panel's Classroom (kernel comparison) and Help sections.
#include "app/panel/panel_sections.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include <imgui.h>

#include "app/window/gui_logic.hpp"
#include "app/window/startup.hpp"
#include "sim/core/backend.hpp"

namespace nbody::app {

namespace {

// log-scale position of an error in [1e-9, 1e-1]
float error_frac(double e) {
  if (!(e > 0)) return 0.0f;
  return static_cast<float>((std::log10(e) + 9.0) / 8.0);
}

// the comparison results, three columns that fit the panel: the entry; its time per step
// (bar: speed, the fastest full and the others in proportion to their steps per second, so the
// longest bar is the fastest kernel); its force error against the double direct sum (bar:
// median, log scale; tick: max). Interactions/s and the time the entry took on hover.
void compare_table(const std::vector<CompareOutcome>& r) {
  double fastest = 0;
  for (const auto& c : r)
    if (c.error.empty() && c.ms_per_step > 0)
      fastest = fastest > 0 ? std::min(fastest, c.ms_per_step) : c.ms_per_step;
  const ImGuiTableFlags flags =
      ImGuiTableFlags_SizingStretchProp | ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV;
  if (!ImGui::BeginTable("compare", 3, flags)) return;
  ImGui::TableSetupColumn("kernel", ImGuiTableColumnFlags_WidthStretch, 1.2f);
  ImGui::TableSetupColumn("ms/step", ImGuiTableColumnFlags_WidthStretch, 0.9f);
  ImGui::TableSetupColumn("error", ImGuiTableColumnFlags_WidthStretch, 0.9f);
  ImGui::TableHeadersRow();
  char buf[96];
  for (const auto& c : r) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextWrapped("%s", c.entry.label.c_str());
    if (!c.error.empty()) {
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", c.error.c_str());
      ImGui::TableNextColumn();
      ImGui::TextDisabled("not run");
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", c.error.c_str());
      ImGui::TableNextColumn();
      continue;
    }
    ImGui::TableNextColumn();
    std::snprintf(buf, sizeof buf, "%.3g ms", c.ms_per_step);
    bar_cell(fastest > 0 ? static_cast<float>(fastest / c.ms_per_step) : 0.0f,
             IM_COL32(70, 120, 220, 200), buf);
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip(
          "%s interactions/s; %.2g times the fastest's time per step; the entry "
          "took %.1f s",
          si(c.interactions_per_s, "").c_str(), c.ms_per_step / fastest, c.wall_s);
    ImGui::TableNextColumn();
    std::snprintf(buf, sizeof buf, "%.0e", c.err_median);
    bar_cell(error_frac(c.err_median), IM_COL32(200, 140, 60, 200), buf, error_frac(c.err_max));
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("per-body force error: median %.2e, max %.2e", c.err_median, c.err_max);
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
  // an honest time: the entries' own times when they ran at this N before, else a model from
  // the live kernel's step time
  const SimState& st = v.state();
  const CompareEstimate est =
      KernelComparison::estimate(chosen, v.size(), st.kernel, st.step_ms, v.compare_results());
  char label[96];
  if (est.seconds < 1.5)
    std::snprintf(label, sizeof label, "Compare %zu (%s1 s)", chosen.size(),
                  est.measured ? "about " : "roughly ");
  else
    std::snprintf(label, sizeof label, "Compare %zu (%s%.0f s)", chosen.size(),
                  est.measured ? "about " : "roughly ", est.seconds);
  const bool disabled = v.comparing() || chosen.empty();
  if (disabled) ImGui::BeginDisabled();
  if (ImGui::Button(label)) {
    v.controls.compare_set = std::move(chosen);
    v.request(compare_request(v.controls.compare_set));
  }
  if (disabled) ImGui::EndDisabled();
  help_marker(
      "Each kernel or variant runs on a copy of the current bodies while the simulation waits: "
      "time per step by CUDA events (wall clock on the CPU; bar: speed, the longest is the "
      "fastest), and the per-body force error against the double-precision direct sum on 256 "
      "bodies (bar: median, log scale; tick: max). Hover a row for interactions/s. The time on "
      "the button is measured when these entries ran before at this N, else a rough guess from "
      "the running kernel's step time.");
  if (v.comparing()) wrapped(v.compare_status());
  if (!v.compare_results().empty()) compare_table(v.compare_results());
  ImGui::Separator();
  ImGui::InputText("folder", s.capture_dir, sizeof s.capture_dir);
  help_marker("Screenshots (F12), PNG sequences and movies are saved here.");
  const bool recording = s.record_png || s.record_ffmpeg;
  bool png = s.record_png;
  if (ImGui::Checkbox("record PNG sequence", &png)) s.record_png = png;
  if (!s.ffmpeg_available) ImGui::BeginDisabled();
  ImGui::Checkbox("record MP4 (ffmpeg)", &s.record_ffmpeg);
  if (!s.ffmpeg_available) ImGui::EndDisabled();
  if (!s.ffmpeg_available) ImGui::TextDisabled("(MP4: ffmpeg was not found on PATH)");
  // the movie's clock is fixed while a recording runs
  if (recording) ImGui::BeginDisabled();
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 4);
  int fps_index = s.mp4_fps == 24 ? 0 : (s.mp4_fps == 60 ? 2 : 1);
  if (ImGui::Combo("frames/s", &fps_index, "24\00030\00060\0"))
    s.mp4_fps = fps_index == 0 ? 24 : (fps_index == 2 ? 60 : 30);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 9);
  ImGui::Combo("rate", &s.record_rate, "real time\0every drawn frame\0");
  if (recording) ImGui::EndDisabled();
  help_marker(
      "real time: the recording plays as long as it took; each drawn frame is repeated or "
      "dropped to the chosen frames/s (PNG frames too: repeats are links to one file).\n"
      "every drawn frame: one movie frame per window frame, smooth, but it plays faster than "
      "real time when the window draws fewer frames/s than the movie has.");
  ImGui::TextUnformatted("burn in:");
  ImGui::SameLine();
  ImGui::Checkbox("date", &s.burn_date);
  ImGui::SameLine();
  ImGui::Checkbox("scale bar", &s.burn_scale);
  ImGui::Checkbox("caption", &s.burn_caption);
  ImGui::SameLine();
  if (!s.burn_caption) ImGui::BeginDisabled();
  ImGui::SetNextItemWidth(-ImGui::GetFontSize() * 2);
  ImGui::InputTextWithHint("##caption", "caption text", s.caption, sizeof s.caption);
  if (!s.burn_caption) ImGui::EndDisabled();
  help_marker(
      "Drawn into the recorded frames as the window shows them: the date or time with speed "
      "and status (top right), the scale bar (bottom right), the caption (bottom left, when "
      "not empty); body names too when any is on.");
  if (recording)
    wrapped(
        "Recording the view right of the panel as it is shown; the size is fixed until the "
        "recording stops.");
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
