// The file browser's ImGui widget: a modal popup over FileBrowser (app/core/file_browser.hpp).
#include <imgui.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "app/core/file_browser.hpp"

namespace nbody::app {

namespace {

void copy(char* dst, std::size_t n, const std::string& src) {
  std::snprintf(dst, n, "%s", src.c_str());
}

// "12.3 MB"
std::string size_text(std::uintmax_t b) {
  char buf[32];
  const char* unit[] = {"B", "KB", "MB", "GB", "TB"};
  double v = static_cast<double>(b);
  int k = 0;
  while (v >= 1000 && k < 4) {
    v /= 1000;
    ++k;
  }
  std::snprintf(buf, sizeof buf, k ? "%.1f %s" : "%.0f %s", v, unit[k]);
  return buf;
}

// the folder line: the path field (Enter opens it) and "up"
void folder_line(FileBrowser& fb) {
  FileBrowser::Ui& ui = fb.ui();
  if (ImGui::ArrowButton("##up", ImGuiDir_Up) && fb.up())
    copy(ui.path, sizeof ui.path, fb.folder());
  if (ImGui::IsItemHovered()) ImGui::SetTooltip("the parent folder");
  ImGui::SameLine();
  ImGui::SetNextItemWidth(-1);
  if (ImGui::InputText("##path", ui.path, sizeof ui.path, ImGuiInputTextFlags_EnterReturnsTrue)) {
    if (fb.set_path(ui.path)) copy(ui.name, sizeof ui.name, fb.name());
    copy(ui.path, sizeof ui.path, fb.folder());
  }
}

// the listing: folders, then files; returns true when an entry is double-clicked to accept
bool listing(FileBrowser& fb) {
  FileBrowser::Ui& ui = fb.ui();
  bool accept = false;
  const float h = ImGui::GetContentRegionAvail().y - 4.5f * ImGui::GetFrameHeightWithSpacing();
  ImGui::BeginChild("##entries", ImVec2(0, h > 80 ? h : 80), true);
  // a copy: choosing a folder lists another one
  const std::vector<BrowserEntry> entries = fb.entries();
  for (const BrowserEntry& e : entries) {
    const std::string label =
        (e.folder ? "[" + e.name + "]" + (e.data_dir.empty() ? "" : "  " + e.data_dir) : e.name) +
        "##" + e.path;
    const bool selected = !e.folder && fb.name() == e.name;
    if (ImGui::Selectable(label.c_str(), selected, ImGuiSelectableFlags_AllowDoubleClick)) {
      const bool file = fb.choose(e);
      if (file) copy(ui.name, sizeof ui.name, fb.name());
      copy(ui.path, sizeof ui.path, fb.folder());
      if (file && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) accept = true;
    }
    if (!e.folder) {
      ImGui::SameLine(ImGui::GetContentRegionAvail().x - 60);
      ImGui::TextDisabled("%s", size_text(e.size).c_str());
    }
  }
  ImGui::EndChild();
  return accept;
}

// recent files as a combo; picking one selects it
void recent_line(FileBrowser& fb) {
  FileBrowser::Ui& ui = fb.ui();
  if (fb.recent().empty()) return;
  ImGui::SetNextItemWidth(-1);
  if (ImGui::BeginCombo("##recent", "recent files")) {
    for (const std::string& r : fb.recent()) {
      if (ImGui::Selectable(r.c_str()) && fb.set_path(r)) {
        copy(ui.path, sizeof ui.path, fb.folder());
        copy(ui.name, sizeof ui.name, fb.name());
      }
    }
    ImGui::EndCombo();
  }
}

}  // namespace

bool file_browser_modal(const char* id, FileBrowser& fb, std::string& chosen) {
  ImGui::SetNextWindowSize(ImVec2(680, 460), ImGuiCond_Appearing);
  if (!ImGui::BeginPopupModal(id, nullptr)) {
    fb.ui().fresh = true;
    return false;
  }
  FileBrowser::Ui& ui = fb.ui();
  if (ui.fresh) {
    // just opened: list the folder again (a save may have added files)
    if (fb.folder().empty() || !fb.refresh()) fb.open(".");
    copy(ui.path, sizeof ui.path, fb.folder());
    copy(ui.name, sizeof ui.name, fb.name());
    ui.confirm_overwrite = false;
    ui.fresh = false;
  }
  folder_line(fb);
  bool accept = listing(fb);
  recent_line(fb);
  // the name (typed for Save, the selection for Load)
  ImGui::SetNextItemWidth(-1);
  if (ImGui::InputText("##name", ui.name, sizeof ui.name, ImGuiInputTextFlags_EnterReturnsTrue))
    accept = true;
  fb.name() = ui.name;
  if (!fb.message().empty())
    ImGui::TextColored(ImVec4(1, 0.5f, 0.4f, 1), "%s", fb.message().c_str());
  bool done = false;
  if (ui.confirm_overwrite) {
    ImGui::TextColored(ImVec4(1, 0.8f, 0.3f, 1), "%s exists. Replace it?", fb.name().c_str());
    if (ImGui::Button("Replace")) done = true;
    ImGui::SameLine();
    if (ImGui::Button("Keep it")) ui.confirm_overwrite = false;
  } else {
    ImGui::BeginDisabled(!fb.can_accept());
    accept = ImGui::Button(fb.mode() == FileBrowser::Mode::Save ? "Save" : "Open") || accept;
    ImGui::EndDisabled();
    ImGui::SameLine();
    if (ImGui::Button("Cancel") || ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape))) {
      ui.fresh = true;
      ImGui::CloseCurrentPopup();
    }
    if (accept && fb.can_accept()) {
      if (fb.would_overwrite())
        ui.confirm_overwrite = true;
      else
        done = true;
    }
  }
  if (done) {
    chosen = fb.selected_path();
    fb.remember(chosen);
    ui.fresh = true;
    ImGui::CloseCurrentPopup();
  }
  ImGui::EndPopup();
  return done;
}

}  // namespace nbody::app
