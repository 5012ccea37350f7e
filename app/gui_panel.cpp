#include "app/gui_panel.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <imgui.h>

#include "app/gui_logic.hpp"
#include "app/startup.hpp"
#include "render/colormap.hpp"
#include "sim/backend.hpp"
#include "sim/integrators/integrator.hpp"
#include "sim/sky/ephemeris.hpp"
#include "sim/units.hpp"

namespace nbody::app {

float panel_width(float width, float scale) {
  return std::clamp(width * 0.28f, 290.0f * scale, 520.0f * scale);
}

namespace {

ImU32 to_u32(const glm::vec3& c, float a = 1.0f) {
  return ImGui::ColorConvertFloat4ToU32(ImVec4(c.r, c.g, c.b, a));
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
  if (ImGui::IsItemHovered()) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
    ImGui::TextUnformatted(text);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

// `s` with newlines where ImGui's word wrap would break it at `width` pixels
std::string wrap_text(const std::string& s, float width) {
  ImFont* font = ImGui::GetFont();
  float scale = ImGui::GetFontSize() / font->FontSize;
  std::string out;
  const char* p = s.c_str();
  const char* end = p + s.size();
  while (p < end) {
    const char* brk = font->CalcWordWrapPositionA(scale, p, end, std::max(width, 40.0f));
    if (brk == p) ++brk;
    out.append(p, brk);
    p = brk;
    if (p < end && out.back() != '\n') out.push_back('\n');
    while (p < end && *p == ' ')
      ++p;
  }
  return out;
}

void wrapped(const std::string& s) {
  ImGui::PushTextWrapPos(0.0f);
  ImGui::TextUnformatted(s.c_str());
  ImGui::PopTextWrapPos();
}

void wrapped_colored(const ImVec4& c, const std::string& s) {
  ImGui::PushStyleColor(ImGuiCol_Text, c);
  wrapped(s);
  ImGui::PopStyleColor();
}

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
  bool edited = ImGui::InputInt4("year month day hour", ymdh);
  if (edited) {
    ymdh[1] = std::clamp(ymdh[1], 1, 12);
    ymdh[2] = std::clamp(ymdh[2], 1, 31);
    ymdh[3] = std::clamp(ymdh[3], 0, 23);
    try {
      const double next = sky::jd_tt_from_utc(ymdh[0], ymdh[1], ymdh[2], ymdh[3]);
      v.preset_params.values["jd"] = next;
      shown_jd = next;
    } catch (const std::exception& e) {
      v.set_message(std::string("date: ") + e.what());
    }
  }
  if (ImGui::Button("now")) {
    v.preset_params.values["jd"] = 0;
    shown_jd = -1;
  }
  help_marker(
      "The planets, the Moon and Pluto from the Swiss Ephemeris at this date; press Start this "
      "scene to go there");
}

void scene_section(Viewer& v, PanelState& s) {
  const auto& table = scene_table();
  if (table.empty()) return;
  const char* shown = s.scene_index >= 0 && s.scene_index < static_cast<int>(table.size())
                          ? table[static_cast<std::size_t>(s.scene_index)].label.c_str()
                          : s.file_label.c_str();
  if (ImGui::BeginCombo("preset", shown)) {
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
  if (s.scene_index >= 0 && s.scene_index < static_cast<int>(table.size())) {
    const SceneInfo* cur = &table[static_cast<std::size_t>(s.scene_index)];
    v.preset_name = cur->name;
    wrapped(cur->description);
    if (cur->has_n) {
      int n = static_cast<int>(v.preset_params.n ? v.preset_params.n : cur->default_n);
      if (ImGui::InputInt("N", &n, 1024, 16384))
        v.preset_params.n = static_cast<std::size_t>(std::clamp(n, 2, 1 << 24));
    }
    // a seed only where bodies are drawn at random (the scenes with a chosen N)
    if (cur->has_n) {
      int seed = static_cast<int>(v.preset_params.seed);
      if (ImGui::InputInt("seed", &seed))
        v.preset_params.seed = static_cast<std::uint64_t>(std::max(seed, 0));
    }
    for (const auto& p : cur->params) {
      auto it = v.preset_params.values.find(p.key);
      double val = it != v.preset_params.values.end() ? it->second : p.def;
      if (p.key == "jd") {
        date_picker(v, val);
        continue;
      }
      // each parameter in its own ID scope: a label may repeat another widget's ("preset" is
      // also the scene combo's), and one ID for two widgets aborts Dear ImGui on a click
      ImGui::PushID(p.key.c_str());
      if (ImGui::SliderScalar(p.label.c_str(), ImGuiDataType_Double, &val, &p.min, &p.max, "%.3g"))
        v.preset_params.values[p.key] = std::clamp(val, p.min, p.max);
      if (!p.help.empty() && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", p.help.c_str());
      ImGui::PopID();
    }
    if (ImGui::Button("Start this scene")) {
      v.pending.make_preset = true;
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
  if (ImGui::TreeNode("components of AGORA and Tipsy files")) {
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
    ImGui::TreePop();
  }
  if (ImGui::Button("Load file") && s.load_path[0]) {
    v.load_path = s.load_path;
    v.pending.load_file = true;
    s.loading_file = true;
  }
}

// the kernel's force error vs the direct sum (measured in the background every few seconds)
// and, for a tree kernel, the wireframe of its cells
void accuracy_lines(Viewer& v, const KernelInfo& k) {
  const SimState& st = v.state();
  ImGui::Checkbox("check accuracy", &v.accuracy);
  help_marker(
      "Every few seconds the force on 256 bodies spread over the system is recomputed by the "
      "direct sum in double precision on a worker thread and compared with this kernel's");
  if (v.accuracy) {
    if (st.accuracy && st.accuracy->kernel == st.kernel) {
      const AccuracyReport& r = *st.accuracy;
      char buf[200];
      std::snprintf(buf, sizeof buf,
                    "force error vs direct sum (%zu bodies, %.0f s ago): median %.2g, 99%% %.2g, "
                    "max %.2g",
                    r.sample, std::max(0.0, now_seconds() - st.accuracy_wall), r.error.median,
                    r.error.p99, r.error.max);
      wrapped(buf);
    } else {
      wrapped("force error vs direct sum: measuring...");
    }
  }
  if (!k.tree) return;
  ImGui::Checkbox("show tree cells", &v.tree_boxes);
  help_marker(
      "The octree of the last step as wireframe boxes, shallow cells orange, deep ones blue: "
      "far from a body, a whole box acts as one mass at its centre of mass");
  if (v.tree_boxes) {
    ImGui::SliderInt("cell depth", &v.tree_depth, 0, 8);
    if (st.has_tree) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%zu cells drawn", st.tree.size());
      wrapped(buf);
    }
  }
}

void kernel_section(Viewer& v) {
  const KernelInfo* cur = nullptr;
  for (const auto& k : kernel_table())
    if (k.name == v.state().kernel) cur = &k;
  if (ImGui::BeginCombo("kernel", cur ? cur->label.c_str() : v.state().kernel.c_str())) {
    for (const auto& k : kernel_table()) {
      bool usable = !k.gpu || cuda_available();
      if (!usable) ImGui::BeginDisabled();
      if (ImGui::Selectable(k.label.c_str(), cur == &k) && cur != &k) {
        // a request: the simulation switches between steps and keeps the state
        SimParams next = v.params();
        next.choice() = v.kernel_choice();
        v.set_kernel_choice(params_for_kernel(next, k.name).choice());
      }
      if (!usable) ImGui::EndDisabled();
      if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
        ImGui::SetTooltip("%s%s", kernel_description(k.name, k.description).c_str(),
                          usable ? "" : " (needs a CUDA device)");
    }
    ImGui::EndCombo();
  }
  if (!v.startup.summary.empty()) wrapped_colored(ImVec4(0.6f, 0.85f, 1, 1), v.startup.summary);
  if (!v.startup.details.empty()) help_marker(v.startup.details.c_str());
  if (!cur) return;
  wrapped(kernel_description(cur->name, cur->description));
  // tunables from the table: slider over the range, snapped to the step
  SimParams shown = v.params();
  shown.choice() = v.kernel_choice();
  for (const Tunable& t : cur->tunables) {
    const double now = cur->value(shown, t.key);
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
    if (next != now && t.valid(next)) {
      KernelChoice c = v.kernel_choice();
      c.tunables[t.key] = next;
      v.set_kernel_choice(c);
    }
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("%s (allowed: %s)", t.help.c_str(), t.allowed().c_str());
  }
  accuracy_lines(v, *cur);
  int prec = v.state().precision == Precision::Double ? 1 : 0;
  if (!cur->supports_float) ImGui::BeginDisabled();
  bool changed = ImGui::RadioButton("float", &prec, 0);
  if (!cur->supports_float) ImGui::EndDisabled();
  ImGui::SameLine();
  if (!cur->supports_double) ImGui::BeginDisabled();
  changed |= ImGui::RadioButton("double", &prec, 1);
  if (!cur->supports_double) ImGui::EndDisabled();
  if (changed) {
    KernelChoice c = v.kernel_choice();
    c.precision = prec ? Precision::Double : Precision::Float;
    v.set_kernel_choice(c);
  }
  // GPUs: one slice of the bodies per GPU, positions exchanged with NCCL each step
  const int devices = cuda_device_count();
  if (cur->gpu && devices > 1) {
    int gpus = v.kernel_choice().gpus == 0 ? devices : v.kernel_choice().gpus;
    if (ImGui::SliderInt("GPUs", &gpus, 1, devices)) {
      KernelChoice c = v.kernel_choice();
      c.gpus = gpus;
      v.set_kernel_choice(c);
    }
    if (ImGui::IsItemHovered())
      ImGui::SetTooltip("bodies split into one slice per GPU, positions exchanged with NCCL");
  }
}

void physics_section(Viewer& v) {
  const UnitSystem& u = v.scene().units;
  const SimState& st = v.state();
  if (v.scene().epoch_jd > 0)
    ImGui::Text("date: %s",
                sky::utc_string(v.scene().epoch_jd + st.time * u.time_s / 86400.0).c_str());
  ImGui::Text("t = %s  (%lld steps)", format_span(st.time, u).c_str(), st.steps);
  // the integrator (same kernel underneath) and Einstein's correction of the Sun's pull
  // the integrators are rows of a table (sim/integrators/)
  // edits go to a copy, sent to the simulation (the owner) as one request when changed
  PhysicsParams ph = v.physics();
  bool edited = false;
  const IntegratorRow& now = find_integrator(ph.integrator);
  if (ImGui::BeginCombo("integrator", now.label.c_str())) {
    for (const IntegratorRow& r : integrator_table()) {
      const std::string item = r.label + ", " + std::to_string(r.force_evaluations) +
                               (r.force_evaluations == 1 ? " force/step" : " forces/step");
      if (ImGui::Selectable(item.c_str(), r.id == now.id) && r.id != now.id) {
        ph.integrator = r.id;
        edited = true;
      }
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", r.description.c_str());
    }
    ImGui::EndCombo();
  }
  help_marker(
      "Leapfrog kick-drift-kick, or Yoshida's 4th-order composition of three leapfrog steps: "
      "for planets, far smaller errors for the same cost (docs/PERFORMANCE.md)");
  if (u.physical()) {
    if (ImGui::Checkbox("general relativity (1PN, Sun)", &ph.post_newtonian)) {
      ph.speed_of_light = 299792458.0 * u.time_s / u.length_m;
      edited = true;
    }
    help_marker(
        "Adds the first post-Newtonian correction of the most massive body's gravity: Mercury's "
        "perihelion then advances by the observed extra 43 arc seconds per century");
  }

  // speed: simulated time per real second; steps per frame follow from it and dt
  if (v.threaded()) {
    double lo = ph.dt * 0.5, hi = std::max(ph.dt * 1e5, lo * 10);
    double speed = std::clamp(v.speed, lo, hi);
    std::string fmt = format_speed(speed, u);
    if (ImGui::SliderScalar("speed", ImGuiDataType_Double, &speed, &lo, &hi, fmt.c_str(),
                            ImGuiSliderFlags_Logarithmic))
      v.speed = speed;
    help_marker(
        "Simulated time per real second. dt stays as set; the number of steps per second "
        "follows from the speed.");
    ImGui::Checkbox("as fast as the kernel goes", &v.max_speed);
    double sps = steps_per_second(v.speed, ph.dt);
    double fps = v.fps();
    if (!v.max_speed)
      ImGui::Text("%.4g steps/s = %.3g steps per frame", sps, fps > 0 ? sps / fps : 0.0);
    if (!v.is_paused() && v.achieved_speed() > 0) {
      std::string reached = format_speed(v.achieved_speed(), u);
      if (st.behind)
        wrapped_colored(ImVec4(1, 0.75f, 0.3f, 1), "the kernel cannot keep up: reached " + reached);
      else
        wrapped("reached: " + reached);
    }
  } else {
    ImGui::SliderInt("steps per frame", &v.steps_per_frame, 1, 64);
  }

  // short labels beside the fields ("N-body" for G = 1 units, whose names are T and L)
  const bool nbody_units = u.name == "henon";
  std::string dt_label = "dt [" + (nbody_units ? std::string("N-body") : time_label(u)) + "]";
  double dt = ph.dt;
  if (ImGui::InputDouble(dt_label.c_str(), &dt, 0, 0, "%.4g") && dt > 0 && std::isfinite(dt)) {
    ph.dt = dt;
    edited = true;
  }
  std::string eps_label =
      "softening [" + (nbody_units ? std::string("N-body") : length_label(u)) + "]";
  double eps = ph.softening;
  if (ImGui::InputDouble(eps_label.c_str(), &eps, 0, 0, "%.4g") && eps >= 0 && std::isfinite(eps)) {
    ph.softening = eps;
    edited = true;
  }
  double G = ph.G;
  if (ImGui::InputDouble("G", &G, 0, 0, "%.6g") && G > 0 && std::isfinite(G)) {
    ph.G = G;
    edited = true;
  }
  if (edited) v.set_physics(ph);
  bool paused = v.paused;
  if (ImGui::Checkbox("pause (Space)", &paused)) v.paused = paused;
  ImGui::SameLine();
  if (ImGui::Button("step (S)")) v.pending.single_step = true;
  ImGui::SameLine();
  if (ImGui::Button("reset")) v.pending.reset = true;
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("back to t = 0 with the scene's own dt, G and softening (edits are undone)");
}

const char* const kComponentNames[kComponentCount] = {"star",      "disk", "bulge",
                                                      "dark halo", "gas",  "planet"};

void display_section(Viewer& v) {
  auto& st = v.style;
  const Scene& scene = v.scene();
  int present[kComponentCount] = {};
  for (Component c : scene.bodies.component)
    ++present[static_cast<int>(c)];
  bool named = st.color == render::ColorMode::Body || !scene.bodies.name.empty();

  int mode = static_cast<int>(st.color);
  ImGui::Combo("colour by", &mode, "speed\0component\0mass\0body (own colour)\0");
  st.color = static_cast<render::ColorMode>(mode);
  ImGui::SliderFloat("point size", &st.point_size, 0.5f, 16.0f, "%.1f");
  ImGui::SliderFloat("brightness", &st.brightness, 0.02f, 4.0f, "%.2f",
                     ImGuiSliderFlags_Logarithmic);
  ImGui::SliderFloat("exposure", &v.tone.exposure, 0.05f, 20.0f, "%.2f",
                     ImGuiSliderFlags_Logarithmic);
  help_marker(
      "Light from all bodies adds up in a floating-point image; exposure scales it before a "
      "soft curve brings it to the screen, so dense cores keep their colour.");
  ImGui::SliderFloat("faint light", &v.tone.gamma, 1.0f, 3.0f, "%.2f");
  help_marker("Lifts faint light (tidal tails) without burning the cores.");
  ImGui::Checkbox("HDR", &v.tone.hdr);
  help_marker(
      "Off: bodies go straight to the screen in 8 bits (bright cores clip to white; exposure, "
      "faint light and glow do nothing). Cheaper on a weak GPU.");
  ImGui::SameLine();
  ImGui::Checkbox("glow", &v.tone.glow);
  if (v.tone.glow) {
    ImGui::SameLine();
    ImGui::SliderFloat("##glow", &v.tone.glow_strength, 0.0f, 3.0f, "strength %.2f");
  }

  // legend: only what the scene has
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
  // components: shown, dimmed or hidden (only those the scene has)
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
      ImGui::SameLine(ImGui::GetContentRegionAvail().x * 0.45f);
      bool ch = ImGui::RadioButton("shown", &state, 0);
      ImGui::SameLine();
      ch |= ImGui::RadioButton("dim", &state, 1);
      ImGui::SameLine();
      ch |= ImGui::RadioButton("hidden", &state, 2);
      if (ch) g = state == 0 ? 1.0f : (state == 1 ? 0.2f : 0.0f);
      ImGui::PopID();
    }
  }

  if (named) ImGui::Checkbox("names (L)", &v.labels);
  if (named) ImGui::SameLine();
  if (!v.trails_possible()) ImGui::BeginDisabled();
  ImGui::Checkbox("trails", &v.trails_enabled);
  if (!v.trails_possible()) ImGui::EndDisabled();
  if (!v.trails_possible()) help_marker("trails are for small scenes (N <= 2048)");
  if (v.trails_enabled && v.trails_possible()) {
    const UnitSystem& u = scene.units;
    double lo = v.physics().dt * 50, hi = v.physics().dt * Viewer::kTrailLength * 200;
    double span = std::clamp(v.trail_span, lo, hi);
    std::string fmt = "trail " + format_span(span, u);
    if (ImGui::SliderScalar("##trail", ImGuiDataType_Double, &span, &lo, &hi, fmt.c_str(),
                            ImGuiSliderFlags_Logarithmic))
      v.trail_span = span;
    help_marker(
        "How much simulated time a trail covers; it is sampled every step or every few "
        "steps, whatever the speed, so it stays smooth.");
  }
  // follow a body (from the list, or click it in the view)
  if (!v.host_positions().empty() && scene.bodies.size() <= 64) {
    std::string cur = v.follow >= 0 && v.follow < static_cast<int>(scene.bodies.name.size())
                          ? scene.bodies.name[static_cast<std::size_t>(v.follow)]
                          : (v.follow >= 0 ? "body " + std::to_string(v.follow) : "none");
    if (ImGui::BeginCombo("follow", cur.c_str())) {
      if (ImGui::Selectable("none", v.follow < 0)) v.follow = -1;
      for (std::size_t i = 0; i < scene.bodies.size(); ++i) {
        std::string name = i < scene.bodies.name.size() && !scene.bodies.name[i].empty()
                               ? scene.bodies.name[i]
                               : "body " + std::to_string(i);
        if (ImGui::Selectable(name.c_str(), v.follow == static_cast<int>(i)))
          v.follow = static_cast<int>(i);
      }
      ImGui::EndCombo();
    }
    help_marker(
        "The view stays centred on the chosen body. Click a body in the view to follow "
        "it; F or 'none' stops.");
  }
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
  ImGui::Checkbox("bounds follow the bodies", &m.follow);
  if (!m.follow && ImGui::Button("fit bounds now")) v.pending.fit_map = true;
  if (m.overlay) ImGui::SliderFloat("overlay alpha", &m.overlay_alpha, 0.05f, 1.0f);
  const auto& tex = v.density();
  if (m.enabled && tex.size() > 0) {
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
                  m.params.scale == MapScale::Log ? " (log)" : "");
    color_bar(render::heat_color, "0", scale_text);
    double cell = (p.u_max - p.u_min) / std::max(p.size, 1);
    char info[160];
    std::snprintf(info, sizeof info, "%llu of %s bodies inside; cell %.3g %s",
                  static_cast<unsigned long long>(a.inside), with_commas(v.size()).c_str(), cell,
                  unit.c_str());
    wrapped(info);
  }
}

void timings_section(Viewer& v) {
  auto plot = [](const char* label, const History& h) {
    char overlay[64];
    std::snprintf(overlay, sizeof overlay, "%.3g ms (median %.3g)", h.last(), h.median());
    ImGui::PlotLines(label, h.values().data(), static_cast<int>(h.values().size()), 0, overlay,
                     0.0f, std::max(h.max() * 1.1f, 1e-3f), ImVec2(0, 40));
  };
  // the display: frames actually drawn
  ImGui::Text("display: %.1f frames/s drawn", v.fps());
  plot("frame", v.frame_history());
  // the simulation
  const SimState& st = v.state();
  double running = v.batch_running_s();
  if (v.is_paused() && !st.comparing) {
    ImGui::TextColored(ImVec4(1, 0.8f, 0.3f, 1), "simulation: paused");
  } else if (running > 0.1) {
    ImGui::TextColored(ImVec4(1, 0.8f, 0.3f, 1), "simulation: %d step%s running for %.1f s",
                       v.batch_running_steps(), v.batch_running_steps() == 1 ? "" : "s", running);
  } else {
    double ips = v.interactions_per_s();
    char line[256];
    std::snprintf(line, sizeof line, "simulation: %.3g ms/step on %s; %s interactions/s, %s",
                  v.sim_history().median(), st.kernel.c_str(), si(ips, "").c_str(),
                  si(ips * st.flops_per_interaction, "FLOP/s").c_str());
    wrapped(line);
    if (!st.work.phases.empty()) {
      std::string text = "step phases (ms):";
      char buf[64];
      for (const StepPhase& ph : st.work.phases) {
        std::snprintf(buf, sizeof buf, " %s %.3g", ph.name.c_str(), ph.ms);
        text += buf;
      }
      wrapped(text);
    }
  }
  plot("sim/step", v.sim_history());
  if (v.render_timing_valid()) {
    plot("render", v.render_history());
  } else {
    wrapped(
        "render time: not measured (software OpenGL: its timer queries do not time the "
        "drawing)");
  }
  plot("transfer", v.interop_history());
  help_marker("transfer: device copy into the mapped buffers on the GPU path, upload otherwise");
  wrapped(cuda_device_summary());
}

// several histories in one frame on a shared scale from 0, `label` at its top left (ImGui's
// PlotLines draws one)
void plot_histories(std::initializer_list<std::pair<const History*, ImU32>> series, float height,
                    const char* label) {
  const float w = ImGui::GetContentRegionAvail().x;
  const ImVec2 p0 = ImGui::GetCursorScreenPos(), p1(p0.x + w, p0.y + height);
  ImGui::Dummy(ImVec2(w, height));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(p0, p1, ImGui::GetColorU32(ImGuiCol_FrameBg), ImGui::GetStyle().FrameRounding);
  float top = 0;
  std::size_t count = 0;
  for (const auto& [h, c] : series) {
    top = std::max(top, h->max());
    count = std::max(count, h->values().size());
  }
  top = std::max(top * 1.1f, 1e-30f);
  for (const auto& [h, c] : series) {
    const std::vector<float>& y = h->values();
    if (y.size() < 2) continue;
    std::vector<ImVec2> pts(y.size());
    for (std::size_t i = 0; i < y.size(); ++i)
      pts[i] = ImVec2(p0.x + w * static_cast<float>(i) / static_cast<float>(count - 1),
                      p1.y - height * std::clamp(y[i] / top, 0.0f, 1.0f));
    dl->AddPolyline(pts.data(), static_cast<int>(pts.size()), c, ImDrawFlags_None, 1.5f);
  }
  dl->AddText(ImVec2(p0.x + 4, p0.y + 2), ImGui::GetColorU32(ImGuiCol_Text), label);
}

// per group: the Lagrangian radii and the disk's thickness over time, current values as text
void structure_plots(Viewer& v) {
  const auto& hist = v.structure_history();
  const auto& now = v.state().structure;
  if (hist.empty() || !now) {
    ImGui::TextUnformatted("structure: measuring...");
    return;
  }
  const char* len = v.scene().units.length.c_str();
  const ImU32 dim = IM_COL32(110, 160, 230, 200), bright = IM_COL32(150, 210, 255, 255);
  const ImU32 disk = IM_COL32(240, 190, 90, 255);
  char buf[160];
  for (std::size_t i = 0; i < hist.size() && i < now->groups.size(); ++i) {
    const StructureHistory& h = hist[i];
    const GroupStructure& g = now->groups[i];
    // the name, then the radii and the disk with their current values as the plots' labels
    ImGui::TextUnformatted(h.name.c_str());
    const auto& r = g.lagrangian;  // fractions 0.1, 0.25, 0.5, 0.75, 0.9
    std::snprintf(buf, sizeof buf, "r10/50/90 %.3g / %.3g / %.3g %s", r[0], r[2], r[4], len);
    plot_histories({{&h.r10, dim}, {&h.r50, bright}, {&h.r90, dim}},
                   3.5f * ImGui::GetTextLineHeight(), buf);
    if (g.disk_bodies > 0) {
      std::snprintf(buf, sizeof buf, "disk thickness %.3g %s, v/sigma %.3g", g.disk_thickness, len,
                    g.v_over_sigma);
      plot_histories({{&h.thickness, disk}}, 2.5f * ImGui::GetTextLineHeight(), buf);
    }
  }
  help_marker(
      "Lagrangian radii: the radii about each group's mass centre that hold 10, 50 and 90 % of "
      "its mass. Disk thickness: the median height of its disk bodies above their mid-plane; "
      "v/sigma: mean rotation over velocity dispersion between the radii holding 40 and 70 % of "
      "the disk. A galaxy left alone keeps them; heating or a collision changes them. Plots: "
      "since the start or reset, from 0 to the largest value; measured with the energy check "
      "off the drawing thread (every k-th body above 262,144 bodies).");
}

void health_section(Viewer& v) {
  const auto& d = v.state().diag;
  if (v.size() > 262144) {
    wrapped("energy check off for N > 262,144 (O(N^2) on the CPU)");
  } else if (!d) {
    ImGui::TextUnformatted("computing...");
  } else {
    const auto& h = v.drift_history();
    char overlay[64];
    std::snprintf(overlay, sizeof overlay, "|dE/E0| = %.2e", h.last());
    ImGui::PlotLines("drift", h.values().data(), static_cast<int>(h.values().size()), 0, overlay,
                     0.0f, std::max(h.max() * 1.1f, 1e-12f), ImVec2(0, 50));
    ImGui::Text("E0 = %.6g   E = %.6g", v.state().e0, d->total);
    double p = std::sqrt(d->momentum[0] * d->momentum[0] + d->momentum[1] * d->momentum[1] +
                         d->momentum[2] * d->momentum[2]);
    ImGui::Text("|P| = %.3e   2K/|W| = %.3f", p, d->virial_ratio);
  }
  // the galaxies' structure: scenes with groups or disk bodies
  if (v.state().shows_structure && v.health) {
    ImGui::Separator();
    structure_plots(v);
  }
  ImGui::Checkbox("check energy, NaN/Inf, structure (2/s)", &v.health);
}

// a bar filling `frac` of the cell behind `text`, with an optional tick at `tick`
void bar_cell(float frac, ImU32 color, const char* text, float tick = -1.0f) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float w = ImGui::GetContentRegionAvail().x, h = ImGui::GetTextLineHeight();
  dl->AddRectFilled(p, ImVec2(p.x + w * std::clamp(frac, 0.0f, 1.0f), p.y + h), color);
  if (tick >= 0.0f) {
    const float x = p.x + w * std::clamp(tick, 0.0f, 1.0f);
    dl->AddLine(ImVec2(x, p.y), ImVec2(x, p.y + h), IM_COL32(255, 120, 90, 255), 2.0f);
  }
  ImGui::TextUnformatted(text);
}

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
  std::snprintf(label, sizeof label, "Compare %zu on this scene (about 0.3 s each)", chosen.size());
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
  if (!s.ffmpeg_available) help_marker("ffmpeg was not found on PATH");
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

}  // namespace

namespace {

// Esc asks before quitting (a class loses its run to a stray key otherwise): Enter or the
// button quits, Esc again or the other button keeps running
void quit_dialog(PanelState& s) {
  const char* title = "Quit nbody?";
  if (s.ask_quit) {
    ImGui::OpenPopup(title);
    s.ask_quit = false;
  }
  s.quit_dialog_open = ImGui::IsPopupOpen(title);
  if (!ImGui::BeginPopupModal(title, nullptr, ImGuiWindowFlags_AlwaysAutoResize)) return;
  ImGui::TextUnformatted("Quit nbody? The simulation is not saved.");
  if (ImGui::Button("Quit (Enter)") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter)))
    s.quit = true;
  ImGui::SameLine();
  if (ImGui::Button("Keep running (Esc)") ||
      ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape)))
    ImGui::CloseCurrentPopup();
  ImGui::EndPopup();
}

}  // namespace

void draw_panel(Viewer& v, PanelState& s, int width, int height) {
  quit_dialog(s);
  if (!s.visible) return;
  float pw = panel_width(static_cast<float>(width), s.scale);
  ImGui::SetNextWindowPos(ImVec2(0, 0), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(pw, static_cast<float>(height)), ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(0.85f);
  ImGui::Begin("nbody", nullptr,
               ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                   ImGuiWindowFlags_NoTitleBar);
  ImGui::PushItemWidth(-pw * 0.38f);
  // status lines
  const SimState& st = v.state();
  ImGui::Text("%s: %s bodies", v.scene().name.c_str(), with_commas(v.size()).c_str());
  ImGui::SameLine(ImGui::GetContentRegionAvail().x - ImGui::CalcTextSize("hide (H)").x);
  if (ImGui::SmallButton("hide (H)")) s.visible = false;
  if (!cuda_available())
    wrapped_colored(ImVec4(1, 0.8f, 0.3f, 1), "No CUDA device: CPU kernels only.");
  if (!v.interop_note().empty()) wrapped(v.interop_note());
  if (st.health_paused && !st.pause_reason.empty())
    wrapped_colored(ImVec4(1, 0.35f, 0.3f, 1), st.pause_reason);
  if (!v.error().empty() && v.error() != st.pause_reason) {
    // the whole message, wrapped at the box's width, selectable for copying
    static std::string shown;
    static float shown_width = 0;
    static std::vector<char> buf;
    float box = ImGui::GetContentRegionAvail().x - ImGui::GetStyle().FramePadding.x * 2 - 4;
    if (shown != v.error() || shown_width != box) {
      shown = v.error();
      shown_width = box;
      std::string w = wrap_text(shown, box);
      buf.assign(w.begin(), w.end());
      buf.push_back('\0');
    }
    int lines = static_cast<int>(std::count(buf.begin(), buf.end(), '\n')) + 1;
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 0.45f, 0.4f, 1));
    ImGui::InputTextMultiline(
        "##error", buf.data(), buf.size(),
        ImVec2(-1, (static_cast<float>(std::min(lines, 10)) + 0.6f) * ImGui::GetTextLineHeight()),
        ImGuiInputTextFlags_ReadOnly);
    ImGui::PopStyleColor();
    if (ImGui::SmallButton("copy")) ImGui::SetClipboardText(shown.c_str());
    ImGui::SameLine();
    if (ImGui::SmallButton("dismiss")) v.clear_error();
  }
  if (!v.message().empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    wrapped(v.message());
    ImGui::PopStyleColor();
  }

  // sections named in --panel-open start open
  auto open = [&](const char* key) {
    if (s.open.find(key) != std::string::npos) ImGui::SetNextItemOpen(true, ImGuiCond_Once);
  };
  open("scene");
  if (ImGui::CollapsingHeader("Scene")) scene_section(v, s);
  if (ImGui::CollapsingHeader("Kernel", ImGuiTreeNodeFlags_DefaultOpen)) kernel_section(v);
  if (ImGui::CollapsingHeader("Physics", ImGuiTreeNodeFlags_DefaultOpen)) physics_section(v);
  open("display");
  if (ImGui::CollapsingHeader("Display")) {
    ImGui::Checkbox("projector mode", &s.projector);
    help_marker("Larger text and a high-contrast panel, for the back of a classroom");
    display_section(v);
  }
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
}

void draw_overlays(Viewer& v, const PanelState& s, int width, int height) {
  ImDrawList* dl = ImGui::GetForegroundDrawList();
  const Scene& scene = v.scene();
  float left = s.visible ? panel_width(static_cast<float>(width), s.scale) : 0.0f;
  float pad = 10.0f * s.scale;
  // names next to the bodies
  // (with small bodies: the planets' names only)
  const bool sky = scene.body_class.size() == v.size();
  if (v.labels && !v.host_positions().empty() && scene.bodies.name.size() == v.size() &&
      (v.size() <= 64 || sky)) {
    std::vector<ImVec4> placed;  // label boxes drawn so far: later ones that overlap are skipped
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (scene.bodies.name[i].empty()) continue;
      if (sky && !scene.body_class[i].empty()) continue;
      if (v.style.component_gain[static_cast<int>(scene.bodies.component[i])] <= 0) continue;
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
  // the scale bar at the centre of the view's depth, bottom right
  {
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
      dl->AddText(ImVec2(b.x - px * 0.5f - ts.x * 0.5f, b.y - ts.y - 6), col, t.c_str());
    }
  }
  // date, speed and run status, top right
  std::vector<std::string> lines;
  const SimState& st = v.state();
  if (scene.epoch_jd > 0)
    lines.push_back(sky::utc_string(scene.epoch_jd + st.time * scene.units.time_s / 86400.0));
  else
    lines.push_back("t = " + format_span(st.time, scene.units));
  if (v.is_paused() && !st.comparing) {
    lines.push_back("paused");
  } else if (v.threaded()) {
    lines.push_back(v.max_speed ? "as fast as it goes" : format_speed(v.speed, scene.units));
    double running = v.batch_running_s();
    if (running > 0.25) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "step running: %.1f s", running);
      lines.push_back(buf);
    }
  }
  if (v.follow >= 0 && static_cast<std::size_t>(v.follow) < scene.bodies.name.size())
    lines.push_back("following " + scene.bodies.name[static_cast<std::size_t>(v.follow)]);
  float y = pad;
  for (const std::string& l : lines) {
    ImVec2 ts = ImGui::CalcTextSize(l.c_str());
    ImVec2 at(static_cast<float>(width) - pad - ts.x, y);
    dl->AddText(ImVec2(at.x + 1, at.y + 1), IM_COL32(0, 0, 0, 220), l.c_str());
    dl->AddText(at, IM_COL32(240, 240, 240, 255), l.c_str());
    y += ts.y + 2;
  }
}

}  // namespace nbody::app
