// Small ImGui helpers shared by the panel's sections.
#include "app/panel_sections.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <utility>
#include <vector>

#include <imgui.h>

#include "app/gui_logic.hpp"

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

// log-scale position of an error in [1e-9, 1e-1]
float error_frac(double e) {
  if (!(e > 0)) return 0.0f;
  return static_cast<float>((std::log10(e) + 9.0) / 8.0);
}

}  // namespace nbody::app
