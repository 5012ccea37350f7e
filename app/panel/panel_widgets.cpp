// Small ImGui helpers shared by the panel's sections.
#include "app/panel/panel_sections.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include <imgui.h>
#include <imgui_internal.h>

#include "app/window/gui_logic.hpp"

namespace nbody::app {

ImU32 to_u32(const glm::vec3& c, float a) {
  return ImGui::ColorConvertFloat4ToU32(ImVec4(c.r, c.g, c.b, a));
}

// a horizontal colour bar drawn from a colour function, with labels under both ends
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

std::string fit_label(const std::string& label) {
  // the room right of the widget: what PushItemWidth(-x) left for labels
  const float room = ImGui::GetContentRegionAvail().x - ImGui::CalcItemWidth() -
                     ImGui::GetStyle().ItemInnerSpacing.x;
  if (ImGui::CalcTextSize(label.c_str(), nullptr, true).x <= room) return label;
  ImGui::TextUnformatted(label.c_str());
  ImGui::SetNextItemWidth(-1.0f);
  return "##" + label;
}

void wrapped_help(const std::string& s, const char* help) {
  // wrapped short of the right edge by the marker's width, the marker after its first line
  const float marker = ImGui::CalcTextSize("(?)").x + ImGui::GetStyle().ItemSpacing.x;
  ImGui::PushTextWrapPos(ImGui::GetContentRegionMax().x - marker);
  ImGui::TextUnformatted(s.c_str());
  ImGui::PopTextWrapPos();
  help_marker(help);
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

// a bar filling `frac` of the cell behind `text`, with an optional tick at `tick`
void bar_cell(float frac, ImU32 color, const char* text, float tick) {
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

namespace {

// the check of --panel-check while draw_panel() runs (none otherwise)
struct Probe {
  std::vector<std::string>* notes = nullptr;
  ImGuiWindow* window = nullptr;
  float edge = 0;           // the visible right edge of the window's content
  std::string section;      // the section being drawn
  int vtx_begin = 0;        // its first vertex in the window's draw list
  ImVec2 cursor_max_saved;  // the window's content extent before it
  std::unordered_map<std::uint64_t, const ImFontGlyph*> glyphs;  // by their (U0, V0)
};
Probe probe;

std::uint64_t uv_key(const ImVec2& uv) {
  std::uint32_t u = 0, v = 0;
  std::memcpy(&u, &uv.x, 4);
  std::memcpy(&v, &uv.y, 4);
  return (std::uint64_t{u} << 32) | v;
}

void note(const std::string& what) {
  // (a cut text that changes every frame is noted a few times, not without end)
  if (!probe.notes || probe.notes->size() >= 64) return;
  const std::string n = probe.section + ": " + what;
  if (std::find(probe.notes->begin(), probe.notes->end(), n) == probe.notes->end())
    probe.notes->push_back(n);
}

// the texts drawn since the section began, rebuilt from their glyphs' quads in the draw list
// (a run of glyphs on one line is one text); those that reach past the edge are noted
void check_section() {
  ImDrawList* dl = probe.window->DrawList;
  const ImFont* font = ImGui::GetFont();
  const float scale = ImGui::GetFontSize() / font->FontSize;
  const ImFontGlyph* space = font->FindGlyphNoFallback(' ');
  const float space_w = (space ? space->AdvanceX : font->FontSize * 0.5f) * scale;
  std::string text;
  float run_right = 0, pen = 0, line_y = 0, last_adv = 0;
  bool noted = false;
  auto flush = [&] {
    if (!text.empty() && run_right > probe.edge + 0.5f) {
      note(text);
      noted = true;
    }
    text.clear();
    run_right = 0;
  };
  const ImDrawVert* vtx = dl->VtxBuffer.Data;
  for (int i = probe.vtx_begin; i + 2 < dl->VtxBuffer.Size; ++i) {
    auto it = probe.glyphs.find(uv_key(vtx[i].uv));
    if (it == probe.glyphs.end()) continue;
    const ImFontGlyph* g = it->second;
    if (vtx[i + 1].uv.x != g->U1 || vtx[i + 1].uv.y != g->V0 || vtx[i + 2].uv.x != g->U1 ||
        vtx[i + 2].uv.y != g->V1)
      continue;
    // the pen position of this glyph: where its text continues, or a new text
    const float x = vtx[i].pos.x - g->X0 * scale, y = vtx[i].pos.y - g->Y0 * scale;
    const float gap = x - (pen + last_adv);
    if (text.empty() || std::abs(y - line_y) > 1.0f || gap < -1.0f || gap > 4 * space_w) {
      flush();
      line_y = y;
    } else if (gap > space_w * 0.5f) {
      text.append(static_cast<std::size_t>(std::lround(gap / space_w)), ' ');
    }
    if (g->Codepoint < 0x80)
      text.push_back(static_cast<char>(g->Codepoint));
    else
      text += '?';
    pen = x;
    last_adv = g->AdvanceX * scale;
    run_right = std::max(run_right, vtx[i + 2].pos.x);
    i += 3;
  }
  flush();
  // items without text (a frame, a plot) past the edge
  if (!noted && probe.window->DC.CursorMaxPos.x > probe.edge + 0.5f) note("an item past the edge");
}

}  // namespace

void combo_check(const char* label, const char* choice) {
  if (!probe.notes) return;
  // the choice is drawn in the frame left of the arrow button
  const ImGuiStyle& st = ImGui::GetStyle();
  const float room = ImGui::CalcItemWidth() - ImGui::GetFrameHeight() - st.FramePadding.x;
  if (ImGui::CalcTextSize(choice).x > room)
    note(std::string(label).substr(label[0] == '#' && label[1] == '#' ? 2 : 0) + " = " + choice +
         " (cut by its box)");
}

std::string fit_combo(const std::string& label, float widest, bool marker_after) {
  const ImGuiStyle& st = ImGui::GetStyle();
  const float room = ImGui::CalcItemWidth() - ImGui::GetFrameHeight() - st.FramePadding.x;
  if (widest <= room) return label;
  ImGui::TextUnformatted(label.c_str());
  // the whole width, or up to a "(?)" beside it
  ImGui::SetNextItemWidth(marker_after ? -(ImGui::CalcTextSize("(?)").x + st.ItemSpacing.x)
                                       : -1.0f);
  return "##" + label;
}

bool begin_combo(const char* label, const char* preview) {
  combo_check(label, preview);
  return ImGui::BeginCombo(label, preview);
}

bool combo(const char* label, int* current, const char* items) {
  for (const char* p = items; *p; p += std::strlen(p) + 1)
    combo_check(label, p);
  return ImGui::Combo(label, current, items);
}

void probe_begin(std::vector<std::string>& notes) {
  ImGuiWindow* w = ImGui::GetCurrentWindow();
  probe.notes = &notes;
  probe.window = w;
  probe.edge = w->InnerClipRect.Max.x;
  probe.glyphs.clear();
  for (const ImFontGlyph& g : ImGui::GetFont()->Glyphs)
    if (g.Visible) probe.glyphs[uv_key(ImVec2(g.U0, g.V0))] = &g;
  // every glyph is drawn, also past the edge (the window's clipping would drop those wholly out)
  ImGui::PushClipRect(ImVec2(-1e5f, -1e5f), ImVec2(1e5f, 1e5f), false);
  probe.section.clear();
  probe_section("top");
}

void probe_section(const char* name) {
  if (!probe.notes) return;
  ImGuiWindow* w = probe.window;
  if (!probe.section.empty()) {
    check_section();
    w->DC.CursorMaxPos = ImMax(w->DC.CursorMaxPos, probe.cursor_max_saved);
  }
  probe.section = name;
  if (probe.section.empty()) return;
  probe.vtx_begin = w->DrawList->VtxBuffer.Size;
  // the section's own extent: from where it starts
  probe.cursor_max_saved = w->DC.CursorMaxPos;
  w->DC.CursorMaxPos = w->DC.CursorPos;
}

void probe_end() {
  if (!probe.notes) return;
  probe_section("");
  ImGui::PopClipRect();
  probe.notes = nullptr;
  probe.window = nullptr;
}

// log-scale position of an error in [1e-9, 1e-1]
float error_frac(double e) {
  if (!(e > 0)) return 0.0f;
  return static_cast<float>((std::log10(e) + 9.0) / 8.0);
}

}  // namespace nbody::app
