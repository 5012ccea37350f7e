// The panel's Display and Activity-density map sections.
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
#include "render/colormap.hpp"

namespace nbody::app {

namespace {

const char* const kComponentNames[kComponentCount] = {"star",      "disk", "bulge",
                                                      "dark halo", "gas",  "planet"};

// colour, size, brightness and the tone mapping
void look_widgets(Controls& c) {
  auto& st = c.style;
  int mode = static_cast<int>(st.color);
  combo("colour by", &mode, "speed\0component\0mass\0body (own colour)\0");
  st.color = static_cast<render::ColorMode>(mode);
  ImGui::SliderFloat("point size", &st.point_size, 0.5f, 16.0f, "%.1f");
  ImGui::SliderFloat("brightness", &st.brightness, 0.02f, 4.0f, "%.2f",
                     ImGuiSliderFlags_Logarithmic);
  ImGui::SliderFloat("exposure", &c.tone.exposure, 0.05f, 20.0f, "%.2f",
                     ImGuiSliderFlags_Logarithmic);
  help_marker(
      "Light from all bodies adds up in a floating-point image; exposure scales it before a "
      "soft curve brings it to the screen, so dense cores keep their colour.");
  ImGui::SliderFloat("faint light", &c.tone.gamma, 1.0f, 3.0f, "%.2f");
  help_marker("Lifts faint light (tidal tails) without burning the cores.");
  ImGui::Checkbox("HDR", &c.tone.hdr);
  help_marker(
      "Off: bodies go straight to the screen in 8 bits (bright cores clip to white; exposure, "
      "faint light and glow do nothing). Cheaper on a weak GPU.");
  ImGui::SameLine();
  ImGui::Checkbox("glow", &c.tone.glow);
  if (c.tone.glow) {
    ImGui::SameLine();
    ImGui::SliderFloat("##glow", &c.tone.glow_strength, 0.0f, 3.0f, "strength %.2f");
  }
  bool half = c.tone.resolution < 1.0f;
  if (ImGui::Checkbox("half resolution", &half)) c.tone.resolution = half ? 0.5f : 1.0f;
  help_marker(
      "The HDR frame at half the window's width and height, scaled up at the end: a quarter of "
      "the pixels to draw. On by default when a software rasterizer (llvmpipe) draws, which "
      "also shows the last picture again while nothing in the view changed.");
}

// the colour legend (only what the scene has), with the speed scale
void colour_legend(const Scene& scene, render::ParticleStyle& st, bool named) {
  if (st.color == render::ColorMode::Speed) {
    float hi = st.speed_max;
    ImGui::SliderFloat("speed scale", &st.speed_max, hi * 0.2f, hi * 5.0f, "%.3g",
                       ImGuiSliderFlags_Logarithmic);
    char right[64];
    std::snprintf(right, sizeof right, "%.3g %s", st.speed_max, scene.units.velocity.c_str());
    color_bar(render::speed_color, "0", right);
  } else if (st.color == render::ColorMode::Mass) {
    char l[32], r[48];
    std::snprintf(l, sizeof l, "1e%.1f", st.log_mass_min);
    std::snprintf(r, sizeof r, "1e%.1f %s", st.log_mass_max, scene.units.mass.c_str());
    color_bar(render::speed_color, l, r);
  } else if (st.color == render::ColorMode::Body && named) {
    int shown = 0;
    // small bodies: one entry per kind present, with its count
    const bool sky = scene.body_class.size() == scene.bodies.size();
    if (sky) {
      std::map<std::string, std::pair<glm::vec3, std::size_t>> kinds_present;
      for (const std::string& cls : scene.body_class) {
        if (cls.empty()) continue;
        glm::vec3 col;
        std::string legend;
        small_body_color(cls, col, legend);
        auto& e = kinds_present[legend];
        e.first = col;
        ++e.second;
      }
      for (const auto& [legend, e] : kinds_present) {
        ImGui::ColorButton(("##k" + legend).c_str(), ImVec4(e.first.r, e.first.g, e.first.b, 1),
                           ImGuiColorEditFlags_NoTooltip, ImVec2(10, 10));
        ImGui::SameLine();
        ImGui::Text("%s (%s)", legend.c_str(), with_commas(e.second).c_str());
      }
    }
    for (std::size_t i = 0; i < scene.bodies.size() && shown < 64; ++i) {
      if (sky && !scene.body_class[i].empty()) continue;
      glm::vec3 col = render::component_color(static_cast<int>(scene.bodies.component[i]));
      const std::string& name = i < scene.bodies.name.size() ? scene.bodies.name[i] : "";
      body_color(name, col);
      ImGui::ColorButton(("##b" + std::to_string(i)).c_str(), ImVec4(col.r, col.g, col.b, 1),
                         ImGuiColorEditFlags_NoTooltip, ImVec2(10, 10));
      ImGui::SameLine();
      ImGui::TextUnformatted(name.empty() ? "body" : name.c_str());
      if (++shown % 4 != 0) ImGui::SameLine();
    }
    ImGui::NewLine();
  }
}

// components: shown, dimmed or hidden (only those the scene has)
void component_widgets(render::ParticleStyle& st, const int (&present)[kComponentCount],
                       bool named) {
  int kinds = 0;
  for (int c = 0; c < kComponentCount; ++c)
    kinds += present[c] > 0;
  if (kinds > 0 && !(named && kinds <= 2)) {
    ImGui::TextUnformatted("components:");
    for (int c = 0; c < kComponentCount; ++c) {
      if (!present[c]) continue;
      glm::vec3 col = render::component_color(c);
      ImGui::ColorButton(kComponentNames[c], ImVec4(col.r, col.g, col.b, 1),
                         ImGuiColorEditFlags_NoTooltip, ImVec2(10, 10));
      ImGui::SameLine();
      ImGui::Text("%s (%s)", kComponentNames[c],
                  with_commas(static_cast<std::size_t>(present[c])).c_str());
      float& g = st.component_gain[c];
      int state = g >= 0.99f ? 0 : (g > 0 ? 1 : 2);
      ImGui::PushID(c);
      // the three choices at the right beside the name, or under it where they do not fit
      const ImGuiStyle& style = ImGui::GetStyle();
      const float radios = ImGui::CalcTextSize("shown dim hidden").x +
                           3 * (ImGui::GetFrameHeight() + style.ItemInnerSpacing.x) +
                           2 * style.ItemSpacing.x;
      const float right = ImGui::GetContentRegionMax().x - radios;
      if (ImGui::GetItemRectMax().x - ImGui::GetWindowPos().x + style.ItemSpacing.x <= right)
        ImGui::SameLine(right);
      else
        ImGui::SetCursorPosX(std::max(right, style.IndentSpacing));
      bool ch = ImGui::RadioButton("shown", &state, 0);
      ImGui::SameLine();
      ch |= ImGui::RadioButton("dim", &state, 1);
      ImGui::SameLine();
      ch |= ImGui::RadioButton("hidden", &state, 2);
      if (ch) g = state == 0 ? 1.0f : (state == 1 ? 0.2f : 0.0f);
      ImGui::PopID();
    }
  }
}

// names, trails, orbits, and true or log distances
void trail_widgets(Viewer& v, bool named) {
  const Scene& scene = v.scene();
  if (named) ImGui::Checkbox("names (L)", &v.controls.labels);
  if (named) ImGui::SameLine();
  if (!v.trails_possible()) ImGui::BeginDisabled();
  ImGui::Checkbox("trails", &v.controls.sim.trails);
  if (!v.trails_possible()) ImGui::EndDisabled();
  if (!v.trails_possible()) help_marker("trails are for small scenes (N <= 2048)");
  if (v.has_orbits() && !v.host_positions().empty()) {
    ImGui::SameLine();
    ImGui::Checkbox("orbits", &v.controls.orbits);
    help_marker(
        "Each named body's orbit about the body pulling hardest on it (the planets about the "
        "Sun, the Moon about the Earth): the ellipse of its position and velocity as the scene "
        "started.");
  }
  if (v.controls.sim.trails && v.trails_possible()) {
    const UnitSystem& u = scene.units;
    double lo = v.physics().dt * 50, hi = v.physics().dt * Viewer::kTrailLength * 200;
    double span = std::clamp(v.controls.sim.trail_span, lo, hi);
    std::string fmt = "trail " + format_span(span, u);
    if (ImGui::SliderScalar("##trail", ImGuiDataType_Double, &span, &lo, &hi, fmt.c_str(),
                            ImGuiSliderFlags_Logarithmic))
      v.controls.sim.trail_span = span;
    help_marker(
        "How much simulated time a trail covers; it is sampled every step or every few "
        "steps, whatever the speed, so it stays smooth.");
  }
  int scale = static_cast<int>(v.controls.distance_scale);
  ImGui::TextUnformatted("distances");
  ImGui::SameLine();
  ImGui::RadioButton("true", &scale, 0);
  ImGui::SameLine();
  ImGui::RadioButton("log", &scale, 1);
  v.controls.distance_scale = static_cast<render::DistanceScale>(scale);
  help_marker(
      "log: every body is drawn at a log-compressed distance from the followed body, else the "
      "Sun (the heaviest body), so the inner planets come out from under the Sun at the scale "
      "that shows Neptune. Only the picture changes. Names, orbits, trails, picking and the "
      "scale bar (marks at 1, 10, 100 ...) follow; tree cells and the density overlay are "
      "drawn at true distances only and hidden meanwhile.");
}

// follow a centre (of mass, of a galaxy) or a body (from the list, or click it in the view)
void follow_widgets(Viewer& v) {
  const Scene& scene = v.scene();
  const std::vector<std::string> centres = v.follow_choices();
  const bool bodies = !v.host_positions().empty() && scene.bodies.size() <= 64;
  if (!centres.empty() || bodies) {
    auto body_name = [&](std::size_t i) {
      return i < scene.bodies.name.size() && !scene.bodies.name[i].empty()
                 ? scene.bodies.name[i]
                 : "body " + std::to_string(i);
    };
    std::string cur = "none";
    if (v.controls.follow_group >= 0 && v.controls.follow_group < static_cast<int>(centres.size()))
      cur = centres[static_cast<std::size_t>(v.controls.follow_group)];
    else if (v.controls.follow >= 0)
      cur = body_name(static_cast<std::size_t>(v.controls.follow));
    if (begin_combo("follow", cur.c_str())) {
      if (ImGui::Selectable("none", v.controls.follow < 0 && v.controls.follow_group < 0))
        v.controls.follow = v.controls.follow_group = -1;
      for (std::size_t i = 0; i < centres.size(); ++i)
        if (ImGui::Selectable(centres[i].c_str(), v.controls.follow_group == static_cast<int>(i))) {
          v.controls.follow_group = static_cast<int>(i);
          v.controls.follow = -1;
        }
      if (bodies)
        for (std::size_t i = 0; i < scene.bodies.size(); ++i)
          if (ImGui::Selectable(body_name(i).c_str(), v.controls.follow == static_cast<int>(i))) {
            v.controls.follow = static_cast<int>(i);
            v.controls.follow_group = -1;
          }
      ImGui::EndCombo();
    }
    help_marker(
        "The view stays centred on the choice: the centre of mass of all bodies, a galaxy's "
        "centre, or a body (click a body in the view to follow it). F, a pan or 'none' stops.");
  }
}

}  // namespace

void display_section(Viewer& v) {
  auto& st = v.controls.style;
  const Scene& scene = v.scene();
  int present[kComponentCount] = {};
  for (Component c : scene.bodies.component)
    ++present[static_cast<int>(c)];
  bool named = st.color == render::ColorMode::Body || !scene.bodies.name.empty();
  look_widgets(v.controls);
  colour_legend(scene, st, named);
  component_widgets(st, present, named);
  trail_widgets(v, named);
  follow_widgets(v);
  if (ImGui::Button("fit view (F)")) v.request(ViewRequest::Fit);
  ImGui::SameLine();
  if (ImGui::Button("reset view (R)")) v.request(ViewRequest::Reset);
  ImGui::Checkbox("keep the bodies in view", &v.controls.keep_in_view);
  help_marker(
      "When most bodies drift out of the picture, or gather in a small part of it, the camera "
      "re-centres and zooms smoothly, never nearer than the view it started from. A zoom, a "
      "pan or a saved view turns it off (it rests while the camera follows something); F and R "
      "turn it on again.");
}

void map_section(Viewer& v) {
  Controls& c = v.controls;
  ActivityMapParams& mp = c.sim.map;
  ImGui::Checkbox("compute", &c.sim.map_enabled);
  ImGui::SameLine();
  ImGui::Checkbox("overlay in 3D", &c.map_overlay);
  int plane = static_cast<int>(mp.plane);
  if (combo("plane", &plane, "XY\0XZ\0YZ\0")) {
    mp.plane = static_cast<MapPlane>(plane);
    v.request(SimRequest::of(SimRequest::Kind::FitMap));
  }
  ImGui::SliderInt("D", &mp.size, 16, 1024);
  int scale = static_cast<int>(mp.scale);
  ImGui::RadioButton("linear", &scale, 0);
  ImGui::SameLine();
  ImGui::RadioButton("log", &scale, 1);
  mp.scale = static_cast<MapScale>(scale);
  ImGui::Checkbox("bounds follow the bodies", &c.sim.map_follow);
  if (!c.sim.map_follow && ImGui::Button("fit bounds now"))
    v.request(SimRequest::of(SimRequest::Kind::FitMap));
  if (c.map_overlay) ImGui::SliderFloat("overlay alpha", &c.map_overlay_alpha, 0.05f, 1.0f);
  const auto& tex = v.density();
  if (c.sim.map_enabled && tex.size() > 0) {
    const auto& a = v.activity();
    const auto& p = v.activity_params();
    const std::string& unit = v.scene().units.length;
    const char* axes[3][2] = {{"x", "y"}, {"x", "z"}, {"y", "z"}};
    const char* const* ax = axes[static_cast<int>(p.plane)];
    // the v axis label on the left, the image, the u axis with its bounds below
    float label_w = ImGui::CalcTextSize("-0.00e+00").x;
    float w = std::min(ImGui::GetContentRegionAvail().x - label_w - 8, 300.0f);
    ImVec2 at = ImGui::GetCursorScreenPos();
    char top[32], bottom[32], left[32], right[32];
    std::snprintf(top, sizeof top, "%.3g", p.v_max);
    std::snprintf(bottom, sizeof bottom, "%.3g", p.v_min);
    std::snprintf(left, sizeof left, "%.3g", p.u_min);
    std::snprintf(right, sizeof right, "%.3g", p.u_max);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    ImU32 text = ImGui::GetColorU32(ImGuiCol_Text);
    dl->AddText(ImVec2(at.x, at.y), text, top);
    dl->AddText(ImVec2(at.x, at.y + w * 0.5f - ImGui::GetTextLineHeight()), text, ax[1]);
    dl->AddText(ImVec2(at.x, at.y + w - ImGui::GetTextLineHeight()), text, bottom);
    ImGui::SetCursorScreenPos(ImVec2(at.x + label_w + 4, at.y));
    // row 0 of the map is v_min: flip so +v points up
    ImGui::Image(reinterpret_cast<ImTextureID>(static_cast<std::uintptr_t>(tex.texture())),
                 ImVec2(w, w), ImVec2(0, 1), ImVec2(1, 0));
    ImVec2 below = ImGui::GetCursorScreenPos();
    float x0 = at.x + label_w + 4;
    dl->AddText(ImVec2(x0, below.y), text, left);
    std::string mid = std::string(ax[0]) + " [" + (unit.empty() ? "length" : unit) + "]";
    dl->AddText(ImVec2(x0 + w * 0.5f - ImGui::CalcTextSize(mid.c_str()).x * 0.5f, below.y), text,
                mid.c_str());
    dl->AddText(ImVec2(x0 + w - ImGui::CalcTextSize(right).x, below.y), text, right);
    ImGui::Dummy(ImVec2(w, ImGui::GetTextLineHeightWithSpacing()));
    char scale_text[64];
    std::snprintf(scale_text, sizeof scale_text, "%u bodies/cell%s", a.max_count,
                  mp.scale == MapScale::Log ? " (log)" : "");
    color_bar(render::heat_color, "0", scale_text);
    double cell = (p.u_max - p.u_min) / std::max(p.size, 1);
    char info[160];
    std::snprintf(info, sizeof info, "%llu of %s bodies inside; cell %.3g %s",
                  static_cast<unsigned long long>(a.inside), with_commas(v.size()).c_str(), cell,
                  unit.c_str());
    wrapped(info);
  }
}

}  // namespace nbody::app
