#pragma once
// The file browser's model (issue 19, item 6), without ImGui: a folder listed as its folders
// then its files of known formats, a path that can be edited, and the recent files. The widget
// (file_browser_ui.cpp) draws it; tests drive the model on a temporary tree.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace nbody::app {

/// One row of a listed folder.
struct BrowserEntry {
  std::string name;         ///< file or folder name ("..": the parent)
  std::string path;         ///< the full path
  bool folder = false;      ///< a folder (or the parent entry)
  std::string data_dir;     ///< a folder a directory format reads: its label ("AGORA"), else ""
  std::uintmax_t size = 0;  ///< bytes, files only
};

/// What the browser shows: a folder, its entries, the recent files, and what went wrong.
class FileBrowser {
 public:
  /// Load picks an existing file (or a folder a directory format reads, e.g. AGORA); Save takes a
  /// name and asks before replacing a file.
  enum class Mode { Load, Save };
  /// `extensions`: the file name endings listed (lower case with the dot; empty: every
  /// extension of the format table, io::extension_table()); `recent_file`: where the recent files
  /// are kept (empty: recent_files_path()).
  explicit FileBrowser(std::vector<std::string> extensions = {}, std::string recent_file = {});

  /// Lists `folder` (made absolute and normal): the parent entry, then folders, then files with
  /// a listed extension, each sorted case-insensitively; hidden entries (".name") are skipped.
  /// An unreadable or missing folder keeps the old listing and sets message(); returns whether
  /// the folder was listed.
  bool open(const std::string& folder);
  /// Lists the folder again (after a save).
  bool refresh() { return open(folder_); }
  /// Goes to the parent folder.
  bool up();
  /// Acts on a typed path: a folder is opened; a file (existing or not, in an existing folder)
  /// opens its folder and becomes the selected name. Returns false with message() on a path
  /// whose folder does not exist.
  bool set_path(const std::string& path);
  /// Chooses an entry: a plain folder is opened and false returned; a file or a folder a
  /// directory format reads (AGORA) becomes the selection and true is returned.
  bool choose(const BrowserEntry& e);

  const std::string& folder() const { return folder_; }
  const std::vector<BrowserEntry>& entries() const { return entries_; }
  /// The file name in the name field (Save) or the chosen entry (Load).
  std::string& name() { return name_; }
  const std::string& name() const { return name_; }
  /// folder()/name(), or "" when the name is empty.
  std::string selected_path() const;
  /// The last problem (unreadable folder, corrupt recent list), "" when none; one line.
  const std::string& message() const { return message_; }
  void clear_message() { message_.clear(); }

  Mode mode() const { return mode_; }
  void set_mode(Mode m) { mode_ = m; }
  /// Whether OK may go on now: Load: the selection exists; Save: a name is given (in an
  /// existing folder).
  bool can_accept() const;
  /// Save: the selection is an existing file, to be confirmed before it is replaced.
  bool would_overwrite() const;

  /// The widget's own state between frames (text fields, the overwrite question).
  struct Ui {
    char path[4096] = {};
    char name[1024] = {};
    bool confirm_overwrite = false;
    bool fresh = true;  ///< the popup was just opened: fields are refilled from the model
  };
  Ui& ui() { return ui_; }

  /// Recent files, newest first, at most kRecent; read from the JSON file at construction
  /// (a corrupt file is ignored, message() says so).
  const std::vector<std::string>& recent() const { return recent_; }
  /// Puts `path` (made absolute) first in the recent files and writes the list; a write that
  /// fails sets message() and returns false.
  bool remember(const std::string& path);
  static constexpr std::size_t kRecent = 10;

 private:
  void load_recent();
  std::vector<std::string> extensions_;
  std::string recent_file_;
  std::string folder_;
  std::vector<BrowserEntry> entries_;
  std::string name_;
  std::string message_;
  std::vector<std::string> recent_;
  Mode mode_ = Mode::Load;
  Ui ui_;
};

/// Draws `fb` as the ImGui modal popup `id` (open it with ImGui::OpenPopup(id)): the folder
/// (editable), up, the folders and files, the recent files, a name field (Save), OK and Cancel;
/// Save asks before replacing a file. Returns true on the frame a path is chosen (in `chosen`;
/// it is remembered in the recent files); the popup then closes. Defined in
/// file_browser_ui.cpp (GUI builds only).
bool file_browser_modal(const char* id, FileBrowser& fb, std::string& chosen);

/// $XDG_CONFIG_HOME/nbody/recent.json, else ~/.config/nbody/recent.json ("" without HOME).
std::string recent_files_path();

/// Whether `a` sorts before `b` ignoring case (ASCII), ties broken by the exact bytes.
bool less_ignoring_case(const std::string& a, const std::string& b);

}  // namespace nbody::app
