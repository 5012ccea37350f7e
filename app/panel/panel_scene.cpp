// The panel's Scene section: presets, their parameters, the date, loading a file.
#include "app/panel/panel_sections.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include <imgui.h>

#include "app/window/gui_logic.hpp"
#include "sim/core/units.hpp"
#include "sim/sky/ephemeris.hpp"

namespace nbody::app {

namespace {

// the date of a real-sky scene as a UTC calendar date (0 = now), kept as "jd" (TT)
void date_picker(Viewer& v, double jd) {
  static int ymdh[4] = {0, 0, 0, 0};
  static double shown_jd = -1;
  if (jd != shown_jd) {
    // fill the fields from the current value ("now" when 0)
    const std::string t = sky::utc_string(jd > 0 ? jd : sky::jd_now_tt());
    std::sscanf(t.c_str(), "%d-%d-%d %d", &ymdh[0], &ymdh[1], &ymdh[2], &ymdh[3]);
    shown_jd = jd;
  }
  ImGui::TextUnformatted(jd > 0 ? "date (UTC):" : "date (UTC): now");
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x * 0.6f);
  bool edited = ImGui::InputInt4(fit_label("year month day hour").c_str(), ymdh);
  if (edited) {
    ymdh[1] = std::clamp(ymdh[1], 1, 12);
    ymdh[2] = std::clamp(ymdh[2], 1, 31);
    ymdh[3] = std::clamp(ymdh[3], 0, 23);
    try {
      const double next = sky::jd_tt_from_utc(ymdh[0], ymdh[1], ymdh[2], ymdh[3]);
      v.controls.preset_params.values["jd"] = next;
      shown_jd = next;
    } catch (const std::exception& e) {
      v.set_message(std::string("date: ") + e.what());
    }
  }
  if (ImGui::Button("now")) {
    v.controls.preset_params.values["jd"] = 0;
    shown_jd = -1;
  }
  help_marker(
      "The planets, the Moon and Pluto from the Swiss Ephemeris at this date; press Start this "
      "scene to go there");
}

}  // namespace

void scene_section(Viewer& v, PanelState& s) {
  const auto& table = scene_table();
  if (table.empty()) return;
  const char* shown = s.scene_index >= 0 && s.scene_index < static_cast<int>(table.size())
                          ? table[static_cast<std::size_t>(s.scene_index)].label.c_str()
                          : s.file_label.c_str();
  float widest = ImGui::CalcTextSize(shown).x;
  for (const SceneInfo& row : table)
    widest = std::max(widest, ImGui::CalcTextSize(row.label.c_str()).x);
  const std::string preset = fit_combo("preset", widest);
  for (const SceneInfo& row : table)
    combo_check("preset", row.label.c_str());  // any may be chosen (--panel-check)
  if (begin_combo(preset.c_str(), shown)) {
    for (std::size_t i = 0; i < table.size(); ++i) {
      bool sel = static_cast<int>(i) == s.scene_index;
      if (ImGui::Selectable(table[i].label.c_str(), sel)) {
        s.scene_index = static_cast<int>(i);
        v.controls.preset_name = table[i].name;
        v.controls.preset_params = {};
        v.controls.preset_params.n = table[i].default_n;
        for (const auto& p : table[i].params)
          v.controls.preset_params.values[p.key] = p.def;
      }
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", table[i].description.c_str());
    }
    ImGui::EndCombo();
  }
  if (s.scene_index >= 0 && s.scene_index < static_cast<int>(table.size())) {
    const SceneInfo* cur = &table[static_cast<std::size_t>(s.scene_index)];
    v.controls.preset_name = cur->name;
    wrapped(cur->description);
    if (cur->has_n) {
      int n = static_cast<int>(v.controls.preset_params.n ? v.controls.preset_params.n
                                                          : cur->default_n);
      if (ImGui::InputInt("N", &n, 1024, 16384))
        v.controls.preset_params.n = static_cast<std::size_t>(std::clamp(n, 2, 1 << 24));
    }
    // a seed only where bodies are drawn at random (the scenes with a chosen N)
    if (cur->has_n) {
      int seed = static_cast<int>(v.controls.preset_params.seed);
      if (ImGui::InputInt("seed", &seed))
        v.controls.preset_params.seed = static_cast<std::uint64_t>(std::max(seed, 0));
    }
    for (const auto& p : cur->params) {
      auto it = v.controls.preset_params.values.find(p.key);
      double val = it != v.controls.preset_params.values.end() ? it->second : p.def;
      if (p.key == "jd") {
        date_picker(v, val);
        continue;
      }
      // each parameter in its own ID scope: a label may repeat another widget's ("preset" is
      // also the scene combo's), and one ID for two widgets aborts Dear ImGui on a click
      ImGui::PushID(p.key.c_str());
      const std::string label = fit_label(p.label);
      if (ImGui::SliderScalar(label.c_str(), ImGuiDataType_Double, &val, &p.min, &p.max, "%.3g"))
        v.controls.preset_params.values[p.key] = std::clamp(val, p.min, p.max);
      if (!p.help.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", p.help.c_str());
      ImGui::PopID();
    }
    if (ImGui::Button("Start this scene")) {
      v.request(scene_request(v.controls.preset_name, v.controls.preset_params));
      s.loading_file = false;
    }
  } else {
    wrapped(s.file_label + " is loaded; pick a preset above to start a generated scene.");
  }

  ImGui::Separator();
  ImGui::InputText("file", s.load_path, sizeof s.load_path);
  help_marker(
      "CSV, native binary, Tipsy (either byte order) or an AGORA directory; the format is "
      "detected");
  // which particles of an AGORA directory or a Tipsy file: folded away (most files have none)
  if (ImGui::TreeNode("AGORA and Tipsy components")) {
    ImGui::TextUnformatted("AGORA:");
    ImGui::SameLine();
    ImGui::Checkbox("disk", &v.controls.load_options.agora_disk);
    ImGui::SameLine();
    ImGui::Checkbox("bulge", &v.controls.load_options.agora_bulge);
    ImGui::SameLine();
    ImGui::Checkbox("halo", &v.controls.load_options.agora_halo);
    ImGui::SameLine();
    ImGui::Checkbox("gas##agora", &v.controls.load_options.agora_gas);
    ImGui::TextUnformatted("Tipsy:");
    ImGui::SameLine();
    ImGui::Checkbox("star", &v.controls.load_options.tipsy_star);
    ImGui::SameLine();
    ImGui::Checkbox("dark", &v.controls.load_options.tipsy_dark);
    ImGui::SameLine();
    ImGui::Checkbox("gas##tipsy", &v.controls.load_options.tipsy_gas);
    ImGui::TreePop();
  }
  if (ImGui::Button("Load file") && s.load_path[0]) {
    v.controls.load_path = s.load_path;
    v.request(load_request(v.controls.load_path, v.controls.load_options));
    s.loading_file = true;
  }
}

}  // namespace nbody::app
