// The panel's Kernel and Physics sections: the force kernel, its tunables and accuracy; dt, ε, G,
// the integrator.
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
#include "sim/integrators/integrator.hpp"
#include "sim/sky/ephemeris.hpp"
#include "sim/sky/fit.hpp"

namespace nbody::app {

namespace {

// the kernel's force error vs the direct sum (measured in the background every few seconds)
// and, for a tree kernel, the wireframe of its cells
void accuracy_lines(Viewer& v, const KernelInfo& k) {
  const SimState& st = v.state();
  ImGui::Checkbox("check accuracy", &v.controls.sim.accuracy);
  help_marker(
      "Every few seconds the force on 256 bodies spread over the system is recomputed by the "
      "direct sum in double precision on a worker thread and compared with this kernel's");
  if (v.controls.sim.accuracy) {
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
  ImGui::Checkbox("show tree cells", &v.controls.sim.tree_boxes);
  help_marker(
      "The octree of the last step as wireframe boxes, shallow cells orange, deep ones blue: "
      "far from a body, a whole box acts as one mass at its centre of mass");
  if (v.controls.sim.tree_boxes) {
    ImGui::SliderInt("cell depth", &v.controls.sim.tree_depth, 0, 8);
    if (st.has_tree) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%zu cells drawn", st.tree ? st.tree->size() : 0);
      wrapped(buf);
    }
  }
}

}  // namespace

void kernel_section(Viewer& v) {
  const KernelInfo* cur = nullptr;
  for (const auto& k : kernel_table())
    if (k.name == v.state().kernel) cur = &k;
  float widest = 0;
  for (const auto& k : kernel_table())
    widest = std::max(widest, ImGui::CalcTextSize(k.label.c_str()).x);
  const std::string label = fit_combo("kernel", widest);
  for (const auto& k : kernel_table())
    combo_check("kernel", k.label.c_str());  // any may be chosen (--panel-check)
  if (begin_combo(label.c_str(), cur ? cur->label.c_str() : v.state().kernel.c_str())) {
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
  if (!v.startup.summary.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.6f, 0.85f, 1, 1));
    if (v.startup.details.empty())
      wrapped(v.startup.summary);
    else
      wrapped_help(v.startup.summary, v.startup.details.c_str());
    ImGui::PopStyleColor();
  }
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
      if (begin_combo(t.label.c_str(), t.format(now).c_str())) {
        for (int c = 0; c < static_cast<int>(t.choices.size()); ++c)
          if (ImGui::Selectable(t.choices[c].c_str(), c == idx)) idx = c;
        ImGui::EndCombo();
      }
      next = idx;
    } else if (t.kind == TunableKind::Real) {
      float val = static_cast<float>(now);
      // as many decimals as the step has (theta: 2, alpha's 0.0005: 4)
      const int places =
          t.step > 0 ? std::clamp(static_cast<int>(std::ceil(-std::log10(t.step) - 1e-9)), 2, 6)
                     : 2;
      char fmt[8];
      std::snprintf(fmt, sizeof fmt, "%%.%df", places);
      if (ImGui::SliderFloat(t.label.c_str(), &val, static_cast<float>(t.min),
                             static_cast<float>(t.max), fmt))
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
  // the real sky asks for double: what float costs it, measured
  if (prec == 0 && v.scene().precision == Precision::Double)
    ImGui::TextWrapped("%s", sky::float_cost_line());
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
  wrapped("t = " + format_span(st.time, u) + "  (" + std::to_string(st.steps) + " steps)");
  // the integrator (same kernel underneath) and Einstein's correction of the Sun's pull
  // the integrators are rows of a table (sim/integrators/)
  // edits go to a copy, sent to the simulation (the owner) as one request when changed
  PhysicsParams ph = v.physics();
  bool edited = false;
  const IntegratorRow& now = find_integrator(ph.integrator);
  float widest = 0;
  for (const IntegratorRow& r : integrator_table())
    widest = std::max(widest, ImGui::CalcTextSize(r.label.c_str()).x);
  const std::string integrator = fit_combo("integrator", widest, true);
  for (const IntegratorRow& r : integrator_table())
    combo_check("integrator", r.label.c_str());
  if (begin_combo(integrator.c_str(), now.label.c_str())) {
    for (const IntegratorRow& r : integrator_table()) {
      // the cost a step, or "adaptive"; "CPU" where it runs on the host only
      std::string item =
          r.label + ", " +
          (r.adaptive ? std::string("adaptive")
                      : std::to_string(r.force_evaluations) +
                            (r.force_evaluations == 1 ? " force/step" : " forces/step"));
      if (r.needs_state) item += ", CPU";
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
      "for planets, far smaller errors for the same cost. WHFast (Wisdom-Holman) follows "
      "planets about a star with Kepler orbits between kicks; IAS15 chooses its own steps "
      "(dt is then the output interval) and keeps the error below double rounding. WHFast and "
      "IAS15 run on CPU kernels; IAS15 in double (docs/PERFORMANCE.md)");
  if (u.physical()) {
    // off, the Sun's term, or EIH (every body; CPU kernels: the simulation refuses it on a GPU)
    int gr = !ph.post_newtonian ? 0 : ph.pn_model == PnModel::EIH ? 2 : 1;
    const std::string label = fit_combo("1PN term", ImGui::CalcTextSize("EIH, every body").x, true);
    if (combo(label.c_str(), &gr, "off\0Sun only\0EIH, every body\0\0")) {
      ph.post_newtonian = gr > 0;
      ph.pn_model = gr == 2 ? PnModel::EIH : PnModel::Sun;
      ph.speed_of_light = 299792458.0 * u.time_s / u.length_m;
      edited = true;
    }
    help_marker(
        "The first post-Newtonian correction of gravity: Mercury's perihelion then advances by "
        "the observed extra 43 arc seconds per century. Sun only: the most massive body's field "
        "(any kernel). EIH: the Einstein-Infeld-Hoffmann term of every massive body on every "
        "body, as in the JPL ephemerides (CPU kernels; docs/PERFORMANCE.md compares them)");
  }

  // speed: simulated time per real second; steps per frame follow from it and dt
  if (v.threaded()) {
    double lo = ph.dt * 0.5, hi = std::max(ph.dt * 1e5, lo * 10);
    double speed = std::clamp(v.controls.sim.speed, lo, hi);
    std::string fmt = format_speed(speed, u);
    if (ImGui::SliderScalar("speed", ImGuiDataType_Double, &speed, &lo, &hi, fmt.c_str(),
                            ImGuiSliderFlags_Logarithmic))
      v.controls.sim.speed = speed;
    help_marker(
        "Simulated time per real second. dt stays as set; the number of steps per second "
        "follows from the speed.");
    ImGui::Checkbox("as fast as the kernel goes", &v.controls.sim.max_speed);
    double sps = steps_per_second(v.controls.sim.speed, ph.dt);
    double fps = v.fps();
    if (!v.controls.sim.max_speed)
      ImGui::Text("%.4g steps/s = %.3g steps per frame", sps, fps > 0 ? sps / fps : 0.0);
    if (!v.is_paused() && v.achieved_speed() > 0) {
      std::string reached = format_speed(v.achieved_speed(), u);
      if (st.behind)
        wrapped_colored(ImVec4(1, 0.75f, 0.3f, 1), "the kernel cannot keep up: reached " + reached);
      else
        wrapped("reached: " + reached);
    }
  } else {
    ImGui::SliderInt("steps per frame", &v.controls.sim.steps_per_frame, 1, 64);
  }

  // short labels beside the fields ("N-body" for G = 1 units, whose names are T and L)
  const bool nbody_units = u.name == "henon";
  std::string dt_label = "dt [" + (nbody_units ? std::string("N-body") : time_label(u)) + "]";
  // the field shows |dt|; "backwards" gives it its sign
  double dt = std::abs(ph.dt);
  if (ImGui::InputDouble(dt_label.c_str(), &dt, 0, 0, "%.4g") && dt > 0 && std::isfinite(dt)) {
    ph.dt = ph.dt < 0 ? -dt : dt;
    edited = true;
  }
  bool backwards = ph.dt < 0;
  const IntegratorRow& row = find_integrator(ph.integrator);
  ImGui::BeginDisabled(!row.time_reversible && !backwards);
  if (ImGui::Checkbox("time runs backwards", &backwards)) {
    ph.dt = backwards ? -std::abs(ph.dt) : std::abs(ph.dt);
    edited = true;
  }
  ImGui::EndDisabled();
  if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled))
    ImGui::SetTooltip(row.time_reversible
                          ? "dt < 0: the bodies retrace their paths (the integrator is "
                            "time-reversible); untick to run forward again"
                          : "this integrator is not time-reversible: it cannot run backwards");
  std::string eps_label =
      "softening [" + (nbody_units ? std::string("N-body") : length_label(u)) + "]";
  double eps = ph.softening;
  if (ImGui::InputDouble(fit_label(eps_label).c_str(), &eps, 0, 0, "%.4g") && eps >= 0 &&
      std::isfinite(eps)) {
    ph.softening = eps;
    edited = true;
  }
  double G = ph.G;
  if (ImGui::InputDouble("G", &G, 0, 0, "%.6g") && G > 0 && std::isfinite(G)) {
    ph.G = G;
    edited = true;
  }
  if (edited) v.set_physics(ph);
  bool paused = v.controls.sim.paused;
  if (ImGui::Checkbox("pause (Space)", &paused)) v.controls.sim.paused = paused;
  ImGui::SameLine();
  if (ImGui::Button("step (S)")) v.request(SimRequest::of(SimRequest::Kind::SingleStep));
  ImGui::SameLine();
  if (ImGui::Button("reset")) v.request(SimRequest::of(SimRequest::Kind::Reset));
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip("back to t = 0 with the scene's own dt, G and softening (edits are undone)");
}

}  // namespace nbody::app
