#include "app/panel/gui_panel.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <imgui.h>

#include "app/panel/panel_sections.hpp"
#include "app/window/gui_logic.hpp"
#include "app/window/startup.hpp"
#include "render/colormap.hpp"
#include "sim/core/backend.hpp"
#include "sim/core/units.hpp"
#include "sim/integrators/integrator.hpp"
#include "sim/sky/ephemeris.hpp"

namespace nbody::app {

float panel_width(float width, float scale) {
  return std::clamp(width * 0.28f, 290.0f * scale, 520.0f * scale);
}

namespace {

// Esc asks before quitting (a class loses its run to a stray key otherwise): Enter or the
// button quits, Esc again or the other button keeps running
void quit_dialog(PanelState& s) {
  const char* title = "Quit nbody?";
  if (s.ask_quit) {
    ImGui::OpenPopup(title);
    s.ask_quit = false;
    s.quit_dialog_frame = ImGui::GetFrameCount();
  }
  s.quit_dialog_open = ImGui::IsPopupOpen(title);
  if (!ImGui::BeginPopupModal(title, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
  ImGui::TextUnformatted("Quit nbody? The simulation is not saved.");
  if (ImGui::Button("Quit (Enter)") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter)))
    s.quit = true;
  ImGui::SameLine();
  // the Esc that asked is still "pressed" in ImGui's frame that opened the question: only a
  // later one keeps running
  if (ImGui::Button("Keep running (Esc)") ||
      (ImGui::GetFrameCount() > s.quit_dialog_frame &&
       ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false)))
    ImGui::CloseCurrentPopup();
  ImGui::EndPopup();
}

// Notices that come and go (a paused run's reason, an error, the last message) sit in a box at
// the bottom left of the view, so that the panel never moves under the cursor when one appears
void draw_notices(Viewer& v, const PanelState& s, int width, int height) {
  const SimState& st = v.state();
  const bool paused = st.health_paused && !st.pause_reason.empty();
  const bool error = !v.error().empty() && v.error() != st.pause_reason;
  if (!paused && !error && v.message().empty()) return;
  const float left = s.visible ? panel_width(static_cast<float>(width), s.scale) : 0.0f;
  const float pad = 10.0f * s.scale;
  const float box = std::min(560.0f * s.scale, (static_cast<float>(width) - left) * 0.62f);
  ImGui::SetNextWindowPos(ImVec2(left + pad, static_cast<float>(height) - pad), ImGuiCond_Always,
                          ImVec2(0, 1));
  ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(box, static_cast<float>(height) * 0.5f));
  ImGui::SetNextWindowBgAlpha(0.8f);
  ImGui::Begin("##notices", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                   ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings |
                   ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav);
  const float text_width = box - ImGui::GetStyle().WindowPadding.x * 2;
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + text_width);
  if (paused) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.35f, 0.3f, 1));
    ImGui::TextUnformatted(st.pause_reason.c_str());
    ImGui::PopStyleColor();
  }
  if (error) {
    // the whole message, wrapped at the box's width, selectable for copying
    static std::string shown;
    static float shown_width = 0;
    static std::vector<char> buf;
    const float inner = text_width - ImGui::GetStyle().FramePadding.x * 2 - 4;
    if (shown != v.error() || shown_width != inner) {
      shown = v.error();
      shown_width = inner;
      std::string w = wrap_text(shown, inner);
      buf.assign(w.begin(), w.end());
      buf.push_back('\0');
    }
    int lines = static_cast<int>(std::count(buf.begin(), buf.end(), '\n')) + 1;
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.45f, 0.4f, 1));
    ImGui::InputTextMultiline("##error", buf.data(), buf.size(),
                              ImVec2(text_width, (static_cast<float>(std::min(lines, 10)) + 0.6f) *
                                                     ImGui::GetTextLineHeight()),
                              ImGuiInputTextFlags_ReadOnly);
    ImGui::PopStyleColor();
    if (ImGui::SmallButton("copy")) ImGui::SetClipboardText(shown.c_str());
    ImGui::SameLine();
    if (ImGui::SmallButton("dismiss")) v.clear_error();
  }
  if (!v.message().empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.85f, 0.88f, 0.95f, 1));
    ImGui::TextUnformatted(v.message().c_str());
    ImGui::PopStyleColor();
  }
  ImGui::PopTextWrapPos();
  ImGui::End();
}

}  // namespace

void draw_panel(Viewer& v, PanelState& s, int width, int height) {
  quit_dialog(s);
  draw_notices(v, s, width, height);
  if (!s.visible) return;
  float pw = panel_width(static_cast<float>(width), s.scale);
  ImGui::SetNextWindowPos(ImVec2(0, 0), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(pw, static_cast<float>(height)), ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(0.85f);
  ImGui::Begin("nbody", nullptr,
               ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                   ImGuiWindowFlags_NoTitleBar);
  ImGui::PushItemWidth(-pw * 0.38f);
  if (s.check) probe_begin(s.overflow);
  // status lines
  // the scene and N, "hide (H)" at the right (under them when a long file name leaves no room)
  const std::string title = v.scene().name + ": " + with_commas(v.size()) + " bodies";
  const float hide_w = ImGui::CalcTextSize("hide (H)").x + ImGui::GetStyle().FramePadding.x * 2;
  const float hide_x = ImGui::GetContentRegionMax().x - hide_w;
  wrapped(title);
  if (ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x + ImGui::GetStyle().ItemSpacing.x <=
      hide_x)
    ImGui::SameLine(hide_x);
  if (ImGui::SmallButton("hide (H)")) s.visible = false;
  if (!cuda_available())
    wrapped_colored(ImVec4(1, 0.8f, 0.3f, 1), "No CUDA device: CPU kernels only.");
  if (!v.interop_note().empty()) wrapped(v.interop_note());
  // sections named in --panel-open start open; with --panel-check all are open and checked
  auto open = [&](const char* key, const char* name) {
    if (s.check) {
      probe_section(name);
      ImGui::SetNextItemOpen(true, ImGuiCond_Always);
    } else if (key && s.open.find(key) != std::string::npos) {
      ImGui::SetNextItemOpen(true, ImGuiCond_Once);
    }
  };
  open("scene", "Scene");
  if (ImGui::CollapsingHeader("Scene")) scene_section(v, s);
  open("tools", "Tools");
  if (ImGui::CollapsingHeader("Tools", ImGuiTreeNodeFlags_DefaultOpen)) tools_section(v, s);
  if (!v.controls.sim.selection.empty() || !v.controls.sim.pinned.empty())
    ImGui::SetNextItemOpen(true, ImGuiCond_Once);
  open(nullptr, "Inspector");
  if (ImGui::CollapsingHeader("Inspector")) inspector_section(v);
  open("timeline", "Timeline");
  if (ImGui::CollapsingHeader("Timeline")) timeline_section(v);
  open("files", "Save, load, lessons");
  if (ImGui::CollapsingHeader("Save, load, lessons")) files_section(v, s);
  open(nullptr, "Kernel");
  if (ImGui::CollapsingHeader("Kernel", ImGuiTreeNodeFlags_DefaultOpen)) kernel_section(v);
  open(nullptr, "Physics");
  if (ImGui::CollapsingHeader("Physics", ImGuiTreeNodeFlags_DefaultOpen)) physics_section(v);
  open("display", "Display");
  if (ImGui::CollapsingHeader("Display")) {
    ImGui::Checkbox("projector mode", &s.projector);
    help_marker("Larger text and a high-contrast panel, for the back of a classroom");
    display_section(v);
  }
  open("map", "Activity-density map");
  if (ImGui::CollapsingHeader("Activity-density map")) map_section(v);
  open(nullptr, "Timings");
  if (ImGui::CollapsingHeader("Timings", ImGuiTreeNodeFlags_DefaultOpen)) timings_section(v);
  open("health", "Physics health");
  if (ImGui::CollapsingHeader("Physics health")) health_section(v);
  open("classroom", "Classroom");
  if (ImGui::CollapsingHeader("Classroom")) classroom_section(v, s);
  open("help", "Help");
  if (ImGui::CollapsingHeader("Help")) help_section();
  if (s.check) probe_end();
  ImGui::PopItemWidth();
  ImGui::End();
}

namespace {

// the scale bar of log distances: marks at 1, 10, 100 ... length units, each where a body at
// that distance from the centre is drawn (at the depth of the view's centre)
void draw_log_ruler(ImDrawList* dl, Viewer& v, int width, int height, float pad, float scale) {
  const float tan_half = std::tan(v.camera().fov_y() * 0.5f);
  const double units_per_px = 2.0 * v.camera().distance() * tan_half / std::max(height, 1);
  const std::vector<RulerMark> marks =
      log_ruler(v.distance_map(), units_per_px, 0.3 * width, 58.0 * scale);
  if (marks.empty()) return;
  const ImU32 col = IM_COL32(230, 230, 230, 230);
  const ImVec2 b(static_cast<float>(width) - pad, static_cast<float>(height) - pad * 2.5f);
  const float x0 = b.x - static_cast<float>(marks.back().px);
  dl->AddLine(ImVec2(x0, b.y), b, col, 2.0f);
  dl->AddLine(ImVec2(x0, b.y - 5), ImVec2(x0, b.y + 5), col, 2.0f);
  const std::string unit = length_label(v.scene().units);
  for (const RulerMark& m : marks) {
    const float x = x0 + static_cast<float>(m.px);
    dl->AddLine(ImVec2(x, b.y - 5), ImVec2(x, b.y + 5), col, 2.0f);
    const std::string t = format_length(m.length, unit);
    const ImVec2 ts = ImGui::CalcTextSize(t.c_str());
    dl->AddText(ImVec2(std::min(x - ts.x * 0.5f, b.x - ts.x), b.y - ts.y - 6), col, t.c_str());
  }
  std::string from = v.distance_centre_name();
  if (from == "Sun" || from == "centre of mass") from = "the " + from;
  const std::string note = "log distances from " + from;
  const ImVec2 ns = ImGui::CalcTextSize(note.c_str());
  dl->AddText(ImVec2(std::min(x0, b.x - ns.x), b.y + 7), col, note.c_str());
}

}  // namespace

void draw_overlays(ImDrawList* dl, Viewer& v, const PanelState& s, int width, int height,
                   const OverlayParts& parts) {
  const Scene& scene = v.scene();
  float left = s.visible ? panel_width(static_cast<float>(width), s.scale) : 0.0f;
  float pad = 10.0f * s.scale;
  // names next to the bodies
  // (with small bodies: the planets' names only)
  const bool sky = scene.body_class.size() == v.size();
  if (parts.names && v.controls.labels && !v.host_positions().empty() &&
      scene.bodies.name.size() == v.size() && (v.size() <= 64 || sky)) {
    std::vector<ImVec4> placed;  // label boxes drawn so far: later ones that overlap are skipped
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (scene.bodies.name[i].empty()) continue;
      if (sky && !scene.body_class[i].empty()) continue;
      if (v.controls.style.component_gain[static_cast<int>(scene.bodies.component[i])] <= 0)
        continue;
      float x = 0, y = 0;
      if (!v.project(i, width, height, x, y)) continue;
      if (x < left || x > static_cast<float>(width) || y < 0 || y > static_cast<float>(height))
        continue;
      glm::vec3 c(0.85f);
      body_color(scene.bodies.name[i], c);
      c = glm::mix(c, glm::vec3(1.0f), 0.35f);
      float r = body_size_px(scene.bodies.name[i]) * 0.5f * static_cast<float>(height) / 800.0f;
      ImVec2 at(x + std::max(r, 3.0f) + 3, y - ImGui::GetTextLineHeight() * 0.5f);
      ImVec2 ts = ImGui::CalcTextSize(scene.bodies.name[i].c_str());
      bool overlaps = false;
      for (const ImVec4& b : placed)
        overlaps |= at.x < b.z && at.x + ts.x > b.x && at.y < b.w && at.y + ts.y > b.y;
      if (overlaps) continue;
      placed.push_back(ImVec4(at.x, at.y, at.x + ts.x, at.y + ts.y));
      dl->AddText(ImVec2(at.x + 1, at.y + 1), IM_COL32(0, 0, 0, 200), scene.bodies.name[i].c_str());
      dl->AddText(at, to_u32(c), scene.bodies.name[i].c_str());
    }
  }
  // log distances: a ruler of powers of ten from the centre, bottom right
  if (parts.scale_bar && !v.distance_map().identity()) {
    draw_log_ruler(dl, v, width, height, pad, s.scale);
  } else if (parts.scale_bar) {
    // the scale bar at the centre of the view's depth, bottom right
    float tan_half = std::tan(v.camera().fov_y() * 0.5f);
    double units_per_px = 2.0 * v.camera().distance() * tan_half / std::max(height, 1);
    double len = nice_length(160.0 * s.scale * units_per_px);
    if (len > 0) {
      float px = static_cast<float>(len / units_per_px);
      ImVec2 b(static_cast<float>(width) - pad, static_cast<float>(height) - pad * 2.5f);
      ImU32 col = IM_COL32(230, 230, 230, 230);
      dl->AddLine(ImVec2(b.x - px, b.y), b, col, 2.0f);
      dl->AddLine(ImVec2(b.x - px, b.y - 5), ImVec2(b.x - px, b.y + 5), col, 2.0f);
      dl->AddLine(ImVec2(b.x, b.y - 5), ImVec2(b.x, b.y + 5), col, 2.0f);
      std::string t = format_length(len, length_label(scene.units));
      ImVec2 ts = ImGui::CalcTextSize(t.c_str());
      // centred on the bar, but whole inside the window ("0.5 N-body length units" is wider)
      const float tx = std::min(b.x - px * 0.5f - ts.x * 0.5f, b.x - ts.x);
      dl->AddText(ImVec2(tx, b.y - ts.y - 6), col, t.c_str());
    }
  }
  // the tools' marks (into the foreground list)
  if (parts.tools) edit_overlays(v, s, width, height);
  // date, speed and run status, top right
  if (!parts.date) return;
  std::vector<std::string> lines;
  const SimState& st = v.state();
  if (scene.epoch_jd > 0)
    lines.push_back(sky::utc_string(scene.epoch_jd + st.time * scene.units.time_s / 86400.0));
  else
    lines.push_back("t = " + format_span(st.time, scene.units));
  if (v.is_paused() && !st.comparing) {
    lines.push_back("paused");
  } else if (v.threaded()) {
    lines.push_back(v.controls.sim.max_speed ? "as fast as it goes"
                                             : format_speed(v.controls.sim.speed, scene.units));
    double running = v.batch_running_s();
    if (running > 0.25) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "step running: %.1f s", running);
      lines.push_back(buf);
    }
  }
  if (v.controls.follow >= 0 &&
      static_cast<std::size_t>(v.controls.follow) < scene.bodies.name.size())
    lines.push_back("following " + scene.bodies.name[static_cast<std::size_t>(v.controls.follow)]);
  if (v.controls.follow_group >= 0) {
    const std::vector<std::string> c = v.follow_choices();
    if (static_cast<std::size_t>(v.controls.follow_group) < c.size())
      lines.push_back((v.controls.follow_group == 0 ? "following the " : "following ") +
                      c[static_cast<std::size_t>(v.controls.follow_group)]);
  }
  float y = pad;
  for (const std::string& l : lines) {
    ImVec2 ts = ImGui::CalcTextSize(l.c_str());
    ImVec2 at(static_cast<float>(width) - pad - ts.x, y);
    dl->AddText(ImVec2(at.x + 1, at.y + 1), IM_COL32(0, 0, 0, 220), l.c_str());
    dl->AddText(at, IM_COL32(240, 240, 240, 255), l.c_str());
    y += ts.y + 2;
  }
}

void draw_caption(ImDrawList* dl, const char* text, float left, int height, float scale) {
  if (!text || !*text) return;
  ImFont* font = ImGui::GetFont();
  const float size = ImGui::GetFontSize() * 1.5f;
  const float pad = 12.0f * scale;
  const ImVec2 ts = font->CalcTextSizeA(size, 1e9f, 0.0f, text);
  const ImVec2 at(left + pad, static_cast<float>(height) - pad - ts.y);
  const float d = std::max(1.0f, 1.5f * scale);
  for (const ImVec2 o : {ImVec2(d, d), ImVec2(-d, d), ImVec2(d, -d), ImVec2(-d, -d)})
    dl->AddText(font, size, ImVec2(at.x + o.x, at.y + o.y), IM_COL32(0, 0, 0, 230), text);
  dl->AddText(font, size, at, IM_COL32(255, 255, 255, 255), text);
}

bool panel_key(Viewer& viewer, PanelState& state, int key, bool ctrl, bool shift) {
  return edit_key(viewer, state, key, ctrl, shift);
}

}  // namespace nbody::app
