#include "app/gui_panel.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

#include <imgui.h>

#include "render/colormap.hpp"
#include "sim/backend.hpp"
#include "sim/units.hpp"

namespace nbody::app {
namespace {

ImU32 to_u32(const glm::vec3& c) {
  return ImGui::ColorConvertFloat4ToU32(ImVec4(c.r, c.g, c.b, 1.0f));
}

// a horizontal colour bar drawn from a colour function, with labels under both ends
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

std::string si(double v, const char* unit) {
  const char* prefix[] = {"", "k", "M", "G", "T", "P"};
  int k = 0;
  while (std::abs(v) >= 1000.0 && k < 5)
    v /= 1000.0, ++k;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3g %s%s", v, prefix[k], unit);
  return buf;
}

void help_marker(const char* text) {
  ImGui::SameLine();
  ImGui::TextDisabled("(?)");
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text);
}

void scene_section(Viewer& v, PanelState& s) {
  const auto& table = scene_table();
  if (table.empty()) return;
  s.scene_index = std::clamp(s.scene_index, 0, static_cast<int>(table.size()) - 1);
  const SceneInfo* cur = &table[static_cast<std::size_t>(s.scene_index)];
  if (ImGui::BeginCombo("preset", cur->label.c_str())) {
    for (std::size_t i = 0; i < table.size(); ++i) {
      bool sel = static_cast<int>(i) == s.scene_index;
      if (ImGui::Selectable(table[i].label.c_str(), sel)) {
        s.scene_index = static_cast<int>(i);
        v.preset_name = table[i].name;
        v.preset_params = {};
        v.preset_params.n = table[i].default_n;
        for (const auto& p : table[i].params)
          v.preset_params.values[p.key] = p.def;
      }
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", table[i].description.c_str());
    }
    ImGui::EndCombo();
  }
  cur = &table[static_cast<std::size_t>(s.scene_index)];
  v.preset_name = cur->name;
  ImGui::TextWrapped("%s", cur->description.c_str());
  if (cur->has_n) {
    int n = static_cast<int>(v.preset_params.n ? v.preset_params.n : cur->default_n);
    if (ImGui::InputInt("N", &n, 1024, 16384))
      v.preset_params.n = static_cast<std::size_t>(std::clamp(n, 2, 1 << 24));
  }
  int seed = static_cast<int>(v.preset_params.seed);
  if (ImGui::InputInt("seed", &seed))
    v.preset_params.seed = static_cast<std::uint64_t>(std::max(seed, 0));
  for (const auto& p : cur->params) {
    auto it = v.preset_params.values.find(p.key);
    double val = it != v.preset_params.values.end() ? it->second : p.def;
    if (ImGui::SliderScalar(p.label.c_str(), ImGuiDataType_Double, &val, &p.min, &p.max, "%.3g"))
      v.preset_params.values[p.key] = std::clamp(val, p.min, p.max);
    if (!p.help.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", p.help.c_str());
  }
  if (ImGui::Button("Start this scene")) v.pending.make_preset = true;

  ImGui::Separator();
  ImGui::InputText("file", s.load_path, sizeof s.load_path);
  help_marker(
      "CSV, native binary, Tipsy (either byte order) or an AGORA directory; the format is "
      "detected");
  ImGui::TextUnformatted("AGORA:");
  ImGui::SameLine();
  ImGui::Checkbox("disk", &v.load_options.agora_disk);
  ImGui::SameLine();
  ImGui::Checkbox("bulge", &v.load_options.agora_bulge);
  ImGui::SameLine();
  ImGui::Checkbox("halo", &v.load_options.agora_halo);
  ImGui::SameLine();
  ImGui::Checkbox("gas##agora", &v.load_options.agora_gas);
  ImGui::TextUnformatted("Tipsy:");
  ImGui::SameLine();
  ImGui::Checkbox("star", &v.load_options.tipsy_star);
  ImGui::SameLine();
  ImGui::Checkbox("dark", &v.load_options.tipsy_dark);
  ImGui::SameLine();
  ImGui::Checkbox("gas##tipsy", &v.load_options.tipsy_gas);
  if (ImGui::Button("Load file") && s.load_path[0]) {
    v.load_path = s.load_path;
    v.pending.load_file = true;
  }
}

void kernel_section(Viewer& v) {
  const KernelInfo* cur = nullptr;
  for (const auto& k : kernel_table())
    if (k.name == v.params.kernel) cur = &k;
  if (ImGui::BeginCombo("kernel", cur ? cur->label.c_str() : v.params.kernel.c_str())) {
    for (const auto& k : kernel_table()) {
      bool usable = !k.gpu || cuda_available();
      if (!usable) ImGui::BeginDisabled();
      if (ImGui::Selectable(k.label.c_str(), cur == &k) && cur != &k) {
        v.params.kernel = k.name;
        // the new kernel starts from its own defaults
        for (const Tunable& t : k.tunables)
          v.params.tunables.erase(t.key);
        if (!k.supports_float) v.params.precision = Precision::Double;
        if (!k.supports_double) v.params.precision = Precision::Float;
        v.pending.switch_kernel = true;
      }
      if (!usable) ImGui::EndDisabled();
      if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("%s%s", k.description.c_str(), usable ? "" : " (needs a CUDA device)");
    }
    ImGui::EndCombo();
  }
  if (!cur) return;
  ImGui::TextWrapped("%s", cur->description.c_str());
  // tunables from the table: a slider over the range snapped to the step, or a choice box
  for (const Tunable& t : cur->tunables) {
    const double now = cur->value(v.params, t.key);
    double next = now;
    if (t.kind == TunableKind::Choice) {
      int idx = static_cast<int>(now);
      if (ImGui::BeginCombo(t.label.c_str(), t.format(now).c_str())) {
        for (int c = 0; c < static_cast<int>(t.choices.size()); ++c)
          if (ImGui::Selectable(t.choices[c].c_str(), c == idx)) idx = c;
        ImGui::EndCombo();
      }
      next = idx;
    } else if (t.kind == TunableKind::Real) {
      float val = static_cast<float>(now);
      if (ImGui::SliderFloat(t.label.c_str(), &val, static_cast<float>(t.min),
                             static_cast<float>(t.max), "%.2f"))
        next = std::clamp(t.min + std::round((val - t.min) / t.step) * t.step, t.min, t.max);
    } else {
      int val = static_cast<int>(now);
      const int lo = static_cast<int>(t.min), hi = static_cast<int>(t.max);
      const int step = static_cast<int>(t.step);
      if (ImGui::SliderInt(t.label.c_str(), &val, lo, hi))
        next = std::clamp(lo + (val - lo + step / 2) / step * step, lo, hi);
    }
    if (next != now && t.valid(next)) v.params.tunables[t.key] = next;
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s (allowed: %s)", t.help.c_str(), t.allowed().c_str());
  }
  int prec = v.params.precision == Precision::Double ? 1 : 0;
  if (!cur->supports_float) ImGui::BeginDisabled();
  bool changed = ImGui::RadioButton("float", &prec, 0);
  if (!cur->supports_float) ImGui::EndDisabled();
  ImGui::SameLine();
  if (!cur->supports_double) ImGui::BeginDisabled();
  changed |= ImGui::RadioButton("double", &prec, 1);
  if (!cur->supports_double) ImGui::EndDisabled();
  if (changed) {
    v.params.precision = prec ? Precision::Double : Precision::Float;
    v.pending.switch_kernel = true;
  }
}

void physics_section(Viewer& v) {
  const UnitSystem& u = v.scene().units;
  std::string dt_label = "dt [" + (u.time.empty() ? std::string("time unit") : u.time) + "]";
  double dt = v.params.dt;
  if (ImGui::InputDouble(dt_label.c_str(), &dt, 0, 0, "%.4g") && dt > 0 && std::isfinite(dt))
    v.params.dt = dt;
  std::string eps_label =
      "softening eps [" + (u.length.empty() ? std::string("length") : u.length) + "]";
  double eps = v.params.softening;
  if (ImGui::InputDouble(eps_label.c_str(), &eps, 0, 0, "%.4g") && eps >= 0 && std::isfinite(eps))
    v.params.softening = eps;
  double G = v.params.G;
  if (ImGui::InputDouble("G", &G, 0, 0, "%.6g") && G > 0 && std::isfinite(G)) v.params.G = G;
  ImGui::SliderInt("steps per frame", &v.params.steps_per_frame, 1, 64);
  ImGui::Checkbox("pause (Space)", &v.paused);
  ImGui::SameLine();
  if (ImGui::Button("step (S)")) v.pending.single_step = true;
  ImGui::SameLine();
  if (ImGui::Button("reset")) v.pending.reset = true;
  ImGui::Text("t = %s  (%lld steps)", units::format_time(v.sim().time(), u).c_str(),
              v.sim().steps_done());
}

void display_section(Viewer& v) {
  auto& st = v.style;
  int mode = static_cast<int>(st.color);
  ImGui::Combo("colour by", &mode, "speed\0component\0mass\0");
  st.color = static_cast<render::ColorMode>(mode);
  ImGui::SliderFloat("point size", &st.point_size, 0.5f, 16.0f, "%.1f");
  ImGui::SliderFloat("brightness", &st.brightness, 0.02f, 2.0f, "%.2f",
                     ImGuiSliderFlags_Logarithmic);
  if (st.color == render::ColorMode::Speed) {
    float hi = st.speed_max;
    ImGui::SliderFloat("speed scale", &st.speed_max, hi * 0.2f, hi * 5.0f, "%.3g",
                       ImGuiSliderFlags_Logarithmic);
    char right[64];
    std::snprintf(right, sizeof right, "%.3g %s", st.speed_max, v.scene().units.velocity.c_str());
    color_bar(render::speed_color, "0", right);
  } else if (st.color == render::ColorMode::Mass) {
    char l[32], r[32];
    std::snprintf(l, sizeof l, "1e%.1f", st.log_mass_min);
    std::snprintf(r, sizeof r, "1e%.1f %s", st.log_mass_max, v.scene().units.mass.c_str());
    color_bar(render::speed_color, l, r);
  } else {
    const char* names[] = {"star", "disk", "bulge", "dark", "gas", "planet"};
    for (int c = 0; c < 6; ++c) {
      glm::vec3 col = render::component_color(c);
      ImGui::ColorButton(names[c], ImVec4(col.r, col.g, col.b, 1), ImGuiColorEditFlags_NoTooltip,
                         ImVec2(10, 10));
      ImGui::SameLine();
      ImGui::TextUnformatted(names[c]);
      if (c != 2 && c != 5) ImGui::SameLine();
    }
  }
  if (!v.trails_possible()) ImGui::BeginDisabled();
  ImGui::Checkbox("trails", &v.trails_enabled);
  if (!v.trails_possible()) ImGui::EndDisabled();
  if (!v.trails_possible()) help_marker("trails are for small scenes (N <= 2048)");
  ImGui::SameLine();
  if (ImGui::Button("fit view (F)")) v.pending.fit_view = true;
  ImGui::SameLine();
  if (ImGui::Button("reset view (R)")) v.pending.reset_view = true;
}

void map_section(Viewer& v) {
  auto& m = v.map;
  ImGui::Checkbox("compute", &m.enabled);
  ImGui::SameLine();
  ImGui::Checkbox("overlay in 3D", &m.overlay);
  int plane = static_cast<int>(m.params.plane);
  if (ImGui::Combo("plane", &plane, "XY\0XZ\0YZ\0")) {
    m.params.plane = static_cast<MapPlane>(plane);
    v.pending.fit_map = true;
  }
  ImGui::SliderInt("D", &m.params.size, 16, 1024);
  int scale = static_cast<int>(m.params.scale);
  ImGui::RadioButton("linear", &scale, 0);
  ImGui::SameLine();
  ImGui::RadioButton("log", &scale, 1);
  m.params.scale = static_cast<MapScale>(scale);
  ImGui::SameLine();
  if (ImGui::Button("fit bounds")) v.pending.fit_map = true;
  if (m.overlay) ImGui::SliderFloat("overlay alpha", &m.overlay_alpha, 0.05f, 1.0f);
  const auto& tex = v.density();
  if (m.enabled && tex.size() > 0) {
    float w = std::min(ImGui::GetContentRegionAvail().x, 300.0f);
    // row 0 of the map is v_min: flip so +v points up
    ImGui::Image(reinterpret_cast<ImTextureID>(static_cast<std::uintptr_t>(tex.texture())),
                 ImVec2(w, w), ImVec2(0, 1), ImVec2(1, 0));
    const auto& a = v.activity();
    char right[64];
    std::snprintf(right, sizeof right, "%u bodies/cell%s", a.max_count,
                  m.params.scale == MapScale::Log ? " (log)" : "");
    color_bar(render::heat_color, "0", right);
    ImGui::Text("%llu of %zu bodies inside [%.3g, %.3g]", static_cast<unsigned long long>(a.inside),
                v.sim().size(), m.params.u_min, m.params.u_max);
  }
}

void timings_section(Viewer& v) {
  auto plot = [](const char* label, const History& h) {
    char overlay[64];
    std::snprintf(overlay, sizeof overlay, "%.3g ms (median %.3g)", h.last(), h.median());
    ImGui::PlotLines(label, h.values().data(), static_cast<int>(h.values().size()), 0, overlay,
                     0.0f, std::max(h.max() * 1.1f, 1e-3f), ImVec2(0, 40));
  };
  plot("frame", v.frame_history());
  plot("sim/step", v.sim_history());
  plot("render", v.render_history());
  plot("transfer", v.interop_history());
  help_marker("transfer: interop map+unmap on the GPU path, download+upload otherwise");
  // the work the kernel counted in its last step (a tree kernel does fewer than N²)
  const StepWork w = v.sim().backend().last_work();
  double ips = v.interactions_per_s();
  ImGui::Text("%.1f fps   %s interactions/s", v.fps(), si(ips, "").c_str());
  ImGui::Text("%s   (%g flops/interaction)", si(ips * w.flops_per_interaction, "FLOP/s").c_str(),
              w.flops_per_interaction);
  if (!w.phases.empty()) {
    std::string text = "step phases (ms):";
    char buf[64];
    for (const StepPhase& ph : w.phases) {
      std::snprintf(buf, sizeof buf, " %s %.3g", ph.name.c_str(), ph.ms);
      text += buf;
    }
    ImGui::TextWrapped("%s", text.c_str());
  }
  ImGui::TextWrapped("%s", cuda_device_summary().c_str());
}

void health_section(Viewer& v) {
  const auto& d = v.last_diagnostics();
  if (v.sim().size() > 262144) {
    ImGui::TextWrapped("energy check off for N > 262,144 (O(N^2) on the CPU)");
    return;
  }
  if (!d) {
    ImGui::TextUnformatted("computing...");
    return;
  }
  const auto& h = v.drift_history();
  char overlay[64];
  std::snprintf(overlay, sizeof overlay, "|dE/E0| = %.2e", h.last());
  ImGui::PlotLines("drift", h.values().data(), static_cast<int>(h.values().size()), 0, overlay,
                   0.0f, std::max(h.max() * 1.1f, 1e-12f), ImVec2(0, 50));
  ImGui::Text("E0 = %.6g   E = %.6g", v.initial_energy(), d->total);
  double p = std::sqrt(d->momentum[0] * d->momentum[0] + d->momentum[1] * d->momentum[1] +
                       d->momentum[2] * d->momentum[2]);
  ImGui::Text("|P| = %.3e   2K/|W| = %.3f", p, d->virial_ratio);
  ImGui::SliderInt("every k frames", &v.health_every, 1, 300);
}

void classroom_section(Viewer& v, PanelState& s) {
  const char* what = cuda_available() ? "GPU" : "CPU";
  std::string label = std::string("Compare ") + what + " kernels (1 s each)";
  if (v.comparing()) ImGui::BeginDisabled();
  if (ImGui::Button(label.c_str())) v.pending.compare = true;
  if (v.comparing()) ImGui::EndDisabled();
  if (v.comparing()) ImGui::TextUnformatted(v.compare_status().c_str());
  const auto& r = v.compare_results();
  if (!r.empty()) {
    double best = 0;
    for (const auto& c : r)
      best = std::max(best, c.interactions_per_s);
    ImDrawList* dl = ImGui::GetWindowDrawList();
    float w = ImGui::GetContentRegionAvail().x;
    for (const auto& c : r) {
      ImVec2 p = ImGui::GetCursorScreenPos();
      float frac = best > 0 ? static_cast<float>(c.interactions_per_s / best) : 0.0f;
      dl->AddRectFilled(p, ImVec2(p.x + w * frac, p.y + ImGui::GetTextLineHeight()),
                        IM_COL32(70, 120, 220, 200));
      ImGui::Text("%s: %s/s", c.kernel.c_str(), si(c.interactions_per_s, "").c_str());
    }
  }
  ImGui::Separator();
  ImGui::InputText("frames dir", s.record_dir, sizeof s.record_dir);
  ImGui::Checkbox("record PNG sequence", &s.record_png);
  if (!s.ffmpeg_available) ImGui::BeginDisabled();
  ImGui::Checkbox("record MP4 (ffmpeg)", &s.record_ffmpeg);
  if (!s.ffmpeg_available) ImGui::EndDisabled();
  if (!s.ffmpeg_available) help_marker("ffmpeg was not found on PATH");
  if (!s.record_status.empty()) ImGui::TextWrapped("%s", s.record_status.c_str());
}

void help_section() {
  ImGui::BulletText("left drag: rotate   right/middle drag or Shift+drag: pan");
  ImGui::BulletText("wheel: zoom   F: fit the scene   R: reset the view");
  ImGui::BulletText("Space: pause   S: single step   H: hide/show this panel");
  ImGui::BulletText("F12: screenshot (PNG, time-stamped name)   Esc: quit");
  ImGui::BulletText("The kernel, precision and tunables switch live; positions carry over.");
  ImGui::BulletText("Scene changes, loads and resets apply at the start of the next frame.");
}

}  // namespace

void draw_panel(Viewer& v, PanelState& s, int width, int height) {
  if (!s.visible) return;
  ImGui::SetNextWindowPos(ImVec2(0, 0), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(kPanelWidth, static_cast<float>(height)), ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(0.82f);
  ImGui::Begin("nbody", nullptr,
               ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse);
  ImGui::PushItemWidth(-150.0f);
  // status lines
  ImGui::Text("%s: %zu bodies", v.scene().name.c_str(), v.sim().size());
  if (!cuda_available())
    ImGui::TextColored(ImVec4(1, 0.8f, 0.3f, 1), "No CUDA device: CPU kernels only.");
  if (!v.interop_note().empty()) ImGui::TextWrapped("%s", v.interop_note().c_str());
  if (!v.error().empty()) ImGui::TextColored(ImVec4(1, 0.35f, 0.3f, 1), "%s", v.error().c_str());
  if (!v.message().empty()) ImGui::TextDisabled("%s", v.message().c_str());

  // sections named in --panel-open start open
  auto open = [&](const char* key) {
    if (s.open.find(key) != std::string::npos) ImGui::SetNextItemOpen(true, ImGuiCond_Once);
  };
  open("scene");
  if (ImGui::CollapsingHeader("Scene")) scene_section(v, s);
  if (ImGui::CollapsingHeader("Kernel", ImGuiTreeNodeFlags_DefaultOpen)) kernel_section(v);
  if (ImGui::CollapsingHeader("Physics", ImGuiTreeNodeFlags_DefaultOpen)) physics_section(v);
  open("display");
  if (ImGui::CollapsingHeader("Display")) display_section(v);
  open("map");
  if (ImGui::CollapsingHeader("Activity-density map")) map_section(v);
  if (ImGui::CollapsingHeader("Timings", ImGuiTreeNodeFlags_DefaultOpen)) timings_section(v);
  open("health");
  if (ImGui::CollapsingHeader("Physics health")) health_section(v);
  open("classroom");
  if (ImGui::CollapsingHeader("Classroom")) classroom_section(v, s);
  open("help");
  if (ImGui::CollapsingHeader("Help")) help_section();
  ImGui::PopItemWidth();
  ImGui::End();
  (void)width;
}

}  // namespace nbody::app
