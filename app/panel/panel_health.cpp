// The panel's Timings and Physics health sections.
#include "app/panel/panel_sections.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include <imgui.h>

#include "app/window/gui_logic.hpp"
#include "sim/core/backend.hpp"

namespace nbody::app {

namespace {

// what the structure plots show, as a "(?)" beside the first group's name
void structure_help() {
  help_marker(
      "Lagrangian radii: the radii about each group's mass centre that hold 10, 50 and 90 % of "
      "its mass. Disk thickness: the median height of its disk bodies above their mid-plane; "
      "v/sigma: mean rotation over velocity dispersion between the radii holding 40 and 70 % of "
      "the disk. A galaxy left alone keeps them; heating or a collision changes them. Plots: "
      "since the start or reset, from 0 to the largest value; measured with the energy check "
      "off the drawing thread (every k-th body above 262,144 bodies).");
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
    if (i == 0) structure_help();
    const auto& r = g.lagrangian;  // fractions 0.1, 0.25, 0.5, 0.75, 0.9
    std::snprintf(buf, sizeof buf, "r10/50/90 %.3g / %.3g / %.3g %s", r[0], r[2], r[4], len);
    plot_histories({{&h.r10, dim}, {&h.r50, bright}, {&h.r90, dim}},
                   3.5f * ImGui::GetTextLineHeight(), buf);
    if (g.disk_bodies > 0) {
      std::snprintf(buf, sizeof buf, "thickness %.3g %s, v/sigma %.3g", g.disk_thickness, len,
                    g.v_over_sigma);
      plot_histories({{&h.thickness, disk}}, 2.5f * ImGui::GetTextLineHeight(), buf);
    }
  }
}

}  // namespace

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
    // wrapped: at 1,024x768 the line is wider than the panel (test_gui_layout saw it cut when a
    // slow machine kept a batch running)
    char line[96];
    std::snprintf(line, sizeof line, "simulation: %d step%s running for %.1f s",
                  v.batch_running_steps(), v.batch_running_steps() == 1 ? "" : "s", running);
    wrapped_colored(ImVec4(1, 0.8f, 0.3f, 1), line);
  } else {
    double ips = v.interactions_per_s();
    char line[256];
    std::snprintf(line, sizeof line, "simulation: %.3g ms/step on %s; %s interactions/s, %s",
                  v.sim_history().median(), st.kernel.c_str(), si(ips, "").c_str(),
                  si(ips * st.flops_per_interaction, "FLOP/s").c_str());
    wrapped(line);
    // one line of phases, or one per GPU on several
    const auto phase_line = [&](const char* head, const std::vector<StepPhase>& phases) {
      std::string text = head;
      char buf[64];
      for (const StepPhase& ph : phases) {
        std::snprintf(buf, sizeof buf, " %s %.3g", ph.name.c_str(), ph.ms);
        text += buf;
      }
      wrapped(text);
    };
    if (st.work.gpu_phases.size() > 1) {
      for (std::size_t g = 0; g < st.work.gpu_phases.size(); ++g)
        phase_line(("GPU " + std::to_string(g) + " step phases (ms):").c_str(),
                   st.work.gpu_phases[g]);
    } else if (!st.work.phases.empty()) {
      phase_line("step phases (ms):", st.work.phases);
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
  if (v.state().shows_structure && v.controls.sim.health) {
    ImGui::Separator();
    structure_plots(v);
  }
  ImGui::Checkbox("check energy, NaN/Inf, structure", &v.controls.sim.health);
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("twice a second, off the drawing thread");
}

}  // namespace nbody::app
