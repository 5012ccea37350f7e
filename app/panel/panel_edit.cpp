// The panel's hands-on sections (issue 19): Tools (select or add, the palette, a comet, merging
// on touch, undo and redo), Inspector (the cards of the selected and pinned bodies, their mass
// and velocity edited), Timeline (rewind to a kept time, its memory budget).
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <imgui.h>

#include "app/core/state_file.hpp"
#include "app/panel/panel_sections.hpp"
#include "app/window/gui_logic.hpp"
#include "sim/edit/palette.hpp"
#include "sim/lesson/lesson.hpp"

namespace nbody::app {

namespace {

std::string number(double v, const char* fmt = "%.6g") {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

// a mass in the scene's unit, its factor folded in: 1e-10 of "1e10 Msun" reads "1 Msun"
std::string mass_of(double v, const UnitSystem& u) {
  if (!u.physical()) return number(v) + " (N-body units)";
  char* end = nullptr;
  const double factor = std::strtod(u.mass.c_str(), &end);
  if (end != u.mass.c_str() && *end == ' ' && factor > 0) return number(v * factor) + end;
  return number(v) + " " + u.mass;
}

// a mass, a length or a speed with the scene's unit names
std::string length_of(double v, const UnitSystem& u) {
  return number(v) + " " + length_label(u);
}
std::string speed_of(double v, const UnitSystem& u) {
  if (u.physical()) return number(v * u.length_m / u.time_s / 1000.0, "%.4g") + " km/s";
  return number(v) + " " + length_label(u) + "/" + time_label(u);
}

void remove_selection(Viewer& v) {
  if (v.controls.sim.selection.empty()) return;
  Edit e;
  e.kind = Edit::Kind::Remove;
  e.indices = v.controls.sim.selection;
  std::sort(e.indices.begin(), e.indices.end());
  const auto& names = v.scene().bodies.name;
  const std::size_t first = e.indices[0];
  if (e.indices.size() == 1)
    e.label = "delete " + (first < names.size() && !names[first].empty()
                               ? names[first]
                               : "body " + std::to_string(first));
  else
    e.label = "delete " + std::to_string(e.indices.size()) + " bodies";
  v.edit(std::move(e));
}

void merge_selection(Viewer& v) {
  if (v.controls.sim.selection.size() < 2) return;
  Edit e;
  e.kind = Edit::Kind::Merge;
  e.indices = v.controls.sim.selection;
  std::sort(e.indices.begin(), e.indices.end());
  e.label = "merge " + std::to_string(v.controls.sim.selection.size()) + " bodies";
  v.controls.sim.selection.clear();
  v.edit(std::move(e));
}

// a Set edit of the card's body with mass m and velocity vel (position, name, component and
// class kept)
void set_body(Viewer& v, const BodyCard& c, double m, const std::array<double, 3>& vel,
              std::string label) {
  Edit e;
  e.kind = Edit::Kind::Set;
  e.indices = {c.index};
  BodySpec b;
  b.x = c.x, b.y = c.y, b.z = c.z, b.vx = vel[0], b.vy = vel[1], b.vz = vel[2], b.m = m;
  b.name = c.name;
  const Scene& s = v.scene();
  if (c.index < s.bodies.component.size()) b.component = s.bodies.component[c.index];
  if (c.index < s.body_class.size()) b.body_class = s.body_class[c.index];
  e.bodies.push_back(std::move(b));
  e.label = std::move(label);
  v.edit(std::move(e));
}

// one body's card: what it is, where, how fast, its orbit; mass and velocity editable
void body_card_ui(Viewer& v, const BodyCard& c) {
  const UnitSystem& u = v.scene().units;
  ImGui::PushID(static_cast<int>(c.index));
  const bool pinned = std::find(v.controls.sim.pinned.begin(), v.controls.sim.pinned.end(),
                                c.index) != v.controls.sim.pinned.end();
  ImGui::Separator();
  ImGui::TextUnformatted(c.name.c_str());
  ImGui::Text("mass %s", mass_of(c.mass, u).c_str());
  ImGui::Text("position %s, %s, %s", number(c.x, "%.4g").c_str(), number(c.y, "%.4g").c_str(),
              number(c.z, "%.4g").c_str());
  ImGui::Text("speed %s", speed_of(c.speed, u).c_str());
  if (c.dominant >= 0) {
    ImGui::Text("%s away from %s", length_of(c.distance, u).c_str(), c.dominant_name.c_str());
    if (c.has_elements) {
      char buf[256];
      if (c.bound)
        std::snprintf(buf, sizeof buf, "orbit: a = %s, e = %.4f, i = %.2f deg, period %s",
                      length_of(c.a, u).c_str(), c.e, c.inc, format_span(c.period, u).c_str());
      else
        std::snprintf(buf, sizeof buf, "unbound (e = %.4g): passes %s from %s", c.e,
                      length_of(c.q, u).c_str(), c.dominant_name.c_str());
      wrapped(buf);
    }
  }
  ImGui::Text("kinetic %s, potential %s", number(c.kinetic, "%.4g").c_str(),
              number(c.potential, "%.4g").c_str());
  if (ImGui::SmallButton(pinned ? "unpin" : "pin")) {
    if (pinned)
      v.controls.sim.pinned.erase(
          std::remove(v.controls.sim.pinned.begin(), v.controls.sim.pinned.end(), c.index),
          v.controls.sim.pinned.end());
    else
      v.controls.sim.pinned.push_back(c.index);
  }
  ImGui::SameLine();
  if (ImGui::SmallButton(v.controls.follow == static_cast<int>(c.index) ? "unfollow" : "follow"))
    v.controls.follow =
        v.controls.follow == static_cast<int>(c.index) ? -1 : static_cast<int>(c.index);
  ImGui::SameLine();
  if (ImGui::SmallButton("delete")) {
    Edit e;
    e.kind = Edit::Kind::Remove;
    e.indices = {c.index};
    e.label = "delete " + c.name;
    v.edit(std::move(e));
  }
  // edits of mass and velocity (applied on Enter)
  double m = c.mass;
  if (ImGui::InputDouble("mass", &m, 0, 0, "%.6g", ImGuiInputTextFlags_EnterReturnsTrue) &&
      m >= 0 && std::isfinite(m))
    set_body(v, c, m, {c.vx, c.vy, c.vz}, "set the mass of " + c.name);
  double vel[3] = {c.vx, c.vy, c.vz};
  if (ImGui::InputScalarN("velocity", ImGuiDataType_Double, vel, 3, nullptr, nullptr, "%.4g",
                          ImGuiInputTextFlags_EnterReturnsTrue) &&
      std::isfinite(vel[0] + vel[1] + vel[2]))
    set_body(v, c, c.mass, {vel[0], vel[1], vel[2]}, "set the velocity of " + c.name);
  ImGui::PopID();
}

}  // namespace

void tools_section(Viewer& v, PanelState& s) {
  Gestures& g = s.gestures;
  int tool = g.tool == Tool::Add ? 1 : 0;
  ImGui::RadioButton("select (V)", &tool, 0);
  ImGui::SameLine();
  ImGui::RadioButton("add bodies (A)", &tool, 1);
  g.tool = tool == 1 ? Tool::Add : Tool::Select;
  if (g.tool == Tool::Select)
    wrapped(
        "Click a body for its card (Shift: add to the selection), Ctrl+drag a box, drag a "
        "selected body to move it. Del deletes, M merges the selection, Ctrl+Z undoes.");
  // the palette of this scene
  const std::vector<PaletteEntry> entries = palette(v.scene());
  if (!entries.empty()) {
    int idx = 0;
    for (std::size_t i = 0; i < entries.size(); ++i)
      if (entries[i].label == g.body.label) idx = static_cast<int>(i);
    if (g.body.label.empty() || entries[static_cast<std::size_t>(idx)].label != g.body.label)
      g.body = entries[static_cast<std::size_t>(idx)];
    float widest = 0;
    for (const PaletteEntry& e : entries)
      widest = std::max(widest, ImGui::CalcTextSize(e.label.c_str()).x);
    const std::string label = fit_combo("body to add", widest);
    for (const PaletteEntry& e : entries)
      combo_check("body to add", e.label.c_str());  // any may be chosen (--panel-check)
    if (begin_combo(label.c_str(), g.body.label.c_str())) {
      for (std::size_t i = 0; i < entries.size(); ++i) {
        if (ImGui::Selectable(entries[i].label.c_str(), static_cast<int>(i) == idx))
          g.body = entries[i];
        if (ImGui::IsItemHovered() && !entries[i].help.empty())
          ImGui::SetTooltip("%s", entries[i].help.c_str());
      }
      ImGui::EndCombo();
    }
    ImGui::Text("mass %s", mass_of(g.body.mass, v.scene().units).c_str());
  }
  if (g.tool == Tool::Add)
    wrapped(
        "Press where the body goes and drag its velocity: the arrow is where it will be "
        "after one second at this speed; its path is drawn while you drag.");
  if (ImGui::Button("throw a comet")) {
    static std::uint64_t seed = 1;
    Edit e;
    e.kind = Edit::Kind::Add;
    BodySpec b = throw_comet(v.scene(), v.params().G, seed++);
    e.label = "throw " + b.name;
    e.bodies.push_back(std::move(b));
    v.edit(std::move(e));
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("a comet from the edge of the system on a near-parabolic orbit into it");
  ImGui::Checkbox("merge bodies that touch", &v.controls.sim.merge);
  if (v.controls.sim.merge) {
    ImGui::SameLine();
    ImGui::Text("(%lld merged)", v.state().mergers);
    const bool physical = v.scene().units.physical();
    if (physical) {
      ImGui::Checkbox("touch within the softening", &v.controls.sim.merge_rule.use_softening);
      if (!v.controls.sim.merge_rule.use_softening) {
        float rho = static_cast<float>(v.controls.sim.merge_rule.density_kg_m3);
        if (ImGui::SliderFloat("density [kg/m3]", &rho, 100.0f, 20000.0f, "%.0f",
                               ImGuiSliderFlags_Logarithmic))
          v.controls.sim.merge_rule.density_kg_m3 = rho;
      }
    } else {
      wrapped("bodies touch when closer than the softening");
    }
  }
  // undo and redo
  const SimState& st = v.state();
  ImGui::BeginDisabled(st.undo_labels.empty());
  if (ImGui::Button("undo")) v.undo();
  ImGui::EndDisabled();
  if (!st.undo_labels.empty() && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("undo %s (Ctrl+Z)", st.undo_labels.back().c_str());
  ImGui::SameLine();
  ImGui::BeginDisabled(st.redo_labels.empty());
  if (ImGui::Button("redo")) v.redo();
  ImGui::EndDisabled();
  if (!st.redo_labels.empty() && ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip("redo %s (Ctrl+Y)", st.redo_labels.front().c_str());
  ImGui::SameLine();
  ImGui::TextDisabled("%zu edits", st.undo_labels.size());
}

void inspector_section(Viewer& v) {
  if (v.controls.sim.selection.empty() && v.controls.sim.pinned.empty()) {
    wrapped("Click a body to see its card.");
    return;
  }
  if (v.controls.sim.selection.size() > 1) {
    ImGui::Text("%zu bodies selected", v.controls.sim.selection.size());
    ImGui::SameLine();
    if (ImGui::SmallButton("merge (M)")) merge_selection(v);
    ImGui::SameLine();
    if (ImGui::SmallButton("delete (Del)")) remove_selection(v);
    ImGui::SameLine();
  }
  if (ImGui::SmallButton("clear selection")) v.controls.sim.selection.clear();
  int shown = 0;
  std::vector<std::size_t> order = v.controls.sim.pinned;
  for (std::size_t i : v.controls.sim.selection)
    if (std::find(order.begin(), order.end(), i) == order.end()) order.push_back(i);
  for (std::size_t i : order) {
    if (shown == 8) {
      ImGui::TextDisabled("and %zu more", order.size() - 8);
      break;
    }
    if (const BodyCard* c = v.card(i)) {
      body_card_ui(v, *c);
      ++shown;
    }
  }
  if (shown == 0) ImGui::TextDisabled("measuring ...");
}

void timeline_section(Viewer& v) {
  const SimState& st = v.state();
  const UnitSystem& u = v.scene().units;
  static float scrub = -1;
  if (st.timeline.size() >= 1) {
    const auto t0 = static_cast<float>(st.timeline.front()),
               t1 = static_cast<float>(std::max(st.timeline.back(), st.time));
    float t = scrub >= 0 ? scrub : static_cast<float>(st.time);
    if (t1 > t0) {
      ImGui::SliderFloat("time", &t, t0, t1, "%.4g");
      if (ImGui::IsItemActive()) {
        scrub = t;
        v.controls.sim.paused = true;
      }
      if (ImGui::IsItemDeactivatedAfterEdit()) {
        v.rewind(t);
        scrub = -1;
      } else if (!ImGui::IsItemActive()) {
        scrub = -1;
      }
    }
    wrapped(std::to_string(st.timeline.size()) + " snapshots from t = " +
            format_span(st.timeline.front(), u) + " to " + format_span(st.timeline.back(), u) +
            ", " + std::to_string(st.timeline_bytes >> 20) + " MB");
    if (ImGui::Button("back to the first")) v.rewind(st.timeline.front());
    ImGui::SameLine();
    if (ImGui::Button("back 1 snapshot")) {
      double target = st.timeline.front();
      for (double x : st.timeline)
        if (x < st.time - 1e-12 * std::max(1.0, std::abs(st.time))) target = x;
      v.rewind(target);
    }
  } else {
    wrapped(
        "Snapshots are kept while the simulation runs forward; drag back to any of them "
        "and play on from there.");
  }
  ImGui::SliderInt("memory [MB]", &v.controls.sim.timeline_budget_mb, 16, 4096, "%d",
                   ImGuiSliderFlags_Logarithmic);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("the snapshots' budget: when full, older ones are thinned out");
}

bool edit_key(Viewer& v, PanelState& s, int key, bool ctrl, bool shift) {
  // keys of the hands-on tools (GLFW key codes are ASCII for letters)
  if (ctrl && (key == 'Z')) {
    if (shift)
      v.redo();
    else
      v.undo();
    return true;
  }
  if (ctrl && key == 'Y') {
    v.redo();
    return true;
  }
  if (ctrl) return false;
  if (key == 127) {  // Delete or Backspace
    remove_selection(v);
    return true;
  }
  if (key == 'A') {
    s.gestures.tool = s.gestures.tool == Tool::Add ? Tool::Select : Tool::Add;
    return true;
  }
  if (key == 'V') {
    s.gestures.tool = Tool::Select;
    return true;
  }
  if (key == 'M') {
    merge_selection(v);
    return true;
  }
  if (key == 'C' && !v.controls.sim.selection.empty()) {
    v.controls.follow = static_cast<int>(v.controls.sim.selection.front());
    return true;
  }
  return false;
}

void delete_selection(Viewer& v) {
  remove_selection(v);
}

void files_section(Viewer& v, PanelState& s) {
  FileBrowser& fb = s.browser;
  const char* popup = "Choose a file";
  if (ImGui::Button("Save state ...")) {
    fb.set_mode(FileBrowser::Mode::Save);
    if (fb.folder().empty()) fb.open(".");
    fb.name() = v.scene().name + ".bin";
    ImGui::OpenPopup(popup);
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "bodies, time, dt, integrator, kernel and camera, in the native format "
        "(.bin or .csv)");
  ImGui::SameLine();
  if (ImGui::Button("Load ...")) {
    fb.set_mode(FileBrowser::Mode::Load);
    if (fb.folder().empty()) fb.open(".");
    ImGui::OpenPopup(popup);
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "a saved state (restores time, physics, kernel and camera) or any file "
        "nbody reads (CSV, binary, Tipsy, AGORA)");
  std::string chosen;
  if (file_browser_modal(popup, fb, chosen)) {
    if (fb.mode() == FileBrowser::Mode::Save) {
      const std::map<std::string, double> view = v.view_values();
      v.save_state(chosen,
                   [chosen, view](const Scene& sc, const SimParams& p, double t, long long steps) {
                     save_state_file(chosen, sc, p, t, steps, view);
                   });
    } else {
      const std::string ext = chosen.size() > 4 ? chosen.substr(chosen.size() - 4) : "";
      if (ext == ".bin" || ext == ".csv") {
        v.load_state(chosen);
      } else {
        v.controls.load_path = chosen;
        v.controls.load_options = {};
        v.request(load_request(v.controls.load_path, v.controls.load_options));
        s.loading_file = true;
      }
    }
  }
  // the shipped lessons
  if (s.lessons.empty()) {
    std::error_code ec;
    for (const auto& e : std::filesystem::directory_iterator(lessons_dir(), ec))
      if (e.path().extension() == ".json") s.lessons.push_back(e.path().string());
    std::sort(s.lessons.begin(), s.lessons.end());
  }
  if (!s.lessons.empty()) {
    s.lesson_index = std::clamp(s.lesson_index, 0, static_cast<int>(s.lessons.size()) - 1);
    const std::string shown =
        std::filesystem::path(s.lessons[static_cast<std::size_t>(s.lesson_index)]).stem();
    if (begin_combo("lesson", shown.c_str())) {
      for (std::size_t i = 0; i < s.lessons.size(); ++i)
        if (ImGui::Selectable(std::filesystem::path(s.lessons[i]).stem().c_str(),
                              static_cast<int>(i) == s.lesson_index))
          s.lesson_index = static_cast<int>(i);
      ImGui::EndCombo();
    }
    if (ImGui::Button("play the lesson")) {
      try {
        auto l = std::make_shared<const Lesson>(
            load_lesson(s.lessons[static_cast<std::size_t>(s.lesson_index)]));
        v.play_lesson(l, true);
        v.controls.sim.paused = false;
        s.lesson_error.clear();
      } catch (const std::exception& e) {
        s.lesson_error = e.what();
      }
    }
    if (!v.lesson_title().empty()) {
      ImGui::SameLine();
      if (ImGui::Button("stop")) v.play_lesson(nullptr, false);
      wrapped("playing: " + v.lesson_title());
    }
    if (!s.lesson_error.empty()) wrapped_colored(ImVec4(1, 0.45f, 0.4f, 1), s.lesson_error);
  }
}

void edit_overlays(Viewer& v, const PanelState& s, int width, int height) {
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  const float scale = s.scale;
  // the selected bodies: a ring each (pinned ones: a second, dashed-looking ring)
  int drawn = 0;
  for (const auto* list : {&v.controls.sim.selection, &v.controls.sim.pinned})
    for (std::size_t i : *list) {
      if (++drawn > 2000) break;
      glm::vec3 p;
      float x = 0, y = 0;
      if (!v.body_position(i, p) || !v.world_to_screen(p, width, height, x, y)) continue;
      const float r = (list == &v.controls.sim.pinned ? 13.0f : 10.0f) * scale;
      dl->AddCircle(ImVec2(x, y), r, IM_COL32(120, 220, 255, 230), 24, 1.8f * scale);
    }
  // the predicted path of a body being placed, and its velocity arrow
  const SimState& st = v.state();
  if (v.controls.sim.probe && st.preview.size() >= 2) {
    std::vector<ImVec2> pts;
    pts.reserve(st.preview.size());
    for (const auto& q : st.preview) {
      float x = 0, y = 0;
      if (v.world_to_screen(glm::vec3(q[0], q[1], q[2]), width, height, x, y))
        pts.emplace_back(x, y);
    }
    if (pts.size() >= 2)
      dl->AddPolyline(pts.data(), static_cast<int>(pts.size()), IM_COL32(255, 210, 120, 200),
                      ImDrawFlags_None, 1.5f * scale);
  }
  const Gestures& g = s.gestures;
  if (g.placing()) {
    const glm::vec2 a = g.press(), b = g.cursor();
    dl->AddCircleFilled(ImVec2(a.x, a.y), 4.0f * scale, IM_COL32(255, 230, 160, 255));
    dl->AddLine(ImVec2(a.x, a.y), ImVec2(b.x, b.y), IM_COL32(255, 230, 160, 255), 2.0f * scale);
    const glm::vec2 d = b - a;
    const float len = glm::length(d);
    if (len > 8) {
      const glm::vec2 u = d / len, n(-u.y, u.x);
      const glm::vec2 h1 = b - u * (9.0f * scale) + n * (5.0f * scale);
      const glm::vec2 h2 = b - u * (9.0f * scale) - n * (5.0f * scale);
      dl->AddTriangleFilled(ImVec2(b.x, b.y), ImVec2(h1.x, h1.y), ImVec2(h2.x, h2.y),
                            IM_COL32(255, 230, 160, 255));
    }
  }
  if (g.boxing()) {
    const glm::vec2 a = g.press(), b = g.cursor();
    dl->AddRectFilled(ImVec2(std::min(a.x, b.x), std::min(a.y, b.y)),
                      ImVec2(std::max(a.x, b.x), std::max(a.y, b.y)), IM_COL32(120, 200, 255, 40));
    dl->AddRect(ImVec2(std::min(a.x, b.x), std::min(a.y, b.y)),
                ImVec2(std::max(a.x, b.x), std::max(a.y, b.y)), IM_COL32(120, 200, 255, 200));
  }
  // a lesson's caption, at the top centre of the view, wrapped
  const std::string caption = v.caption();
  if (!caption.empty()) {
    const float left = s.visible ? panel_width(static_cast<float>(width), scale) : 0.0f;
    const float wrap = std::min(640.0f * scale, (static_cast<float>(width) - left) * 0.8f);
    const ImVec2 ts = ImGui::CalcTextSize(caption.c_str(), nullptr, false, wrap);
    const ImVec2 at(left + (static_cast<float>(width) - left - ts.x) * 0.5f, 40.0f * scale);
    const float pad = 10.0f * scale;
    dl->AddRectFilled(ImVec2(at.x - pad, at.y - pad), ImVec2(at.x + ts.x + pad, at.y + ts.y + pad),
                      IM_COL32(10, 14, 24, 200), 6.0f * scale);
    dl->AddText(nullptr, 0.0f, at, IM_COL32(255, 245, 220, 255), caption.c_str(), nullptr, wrap);
  }
  // the tool and the gesture, at the bottom centre of the view
  std::string line = g.hint();
  if (line.empty() && g.tool == Tool::Add)
    line = "add: press and drag to place a " + g.body.label + " (A: back to select)";
  if (!line.empty()) {
    const ImVec2 ts = ImGui::CalcTextSize(line.c_str());
    const float left = s.visible ? panel_width(static_cast<float>(width), scale) : 0.0f;
    const ImVec2 at(left + (static_cast<float>(width) - left - ts.x) * 0.5f,
                    static_cast<float>(height) - ts.y - 40.0f * scale);
    dl->AddText(ImVec2(at.x + 1, at.y + 1), IM_COL32(0, 0, 0, 220), line.c_str());
    dl->AddText(at, IM_COL32(255, 235, 190, 255), line.c_str());
  }
}

}  // namespace nbody::app
