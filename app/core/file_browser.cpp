#include "app/core/file_browser.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <system_error>

#include <nlohmann/json.hpp>

#include "sim/io/format_table.hpp"

namespace nbody::app {

namespace fs = std::filesystem;

namespace {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

// absolute and without "." / ".." parts
fs::path normal(const std::string& p) {
  std::error_code ec;
  fs::path a = fs::absolute(p.empty() ? "." : p, ec);
  if (ec) a = p;
  a = a.lexically_normal();
  // "/a/b/" -> "/a/b"
  if (a.has_relative_path() && a.filename().empty()) a = a.parent_path();
  return a;
}

}  // namespace

bool less_ignoring_case(const std::string& a, const std::string& b) {
  const std::string la = lower(a), lb = lower(b);
  return la != lb ? la < lb : a < b;
}

std::string recent_files_path() {
  const char* xdg = std::getenv("XDG_CONFIG_HOME");
  const char* home = std::getenv("HOME");
  if (xdg && *xdg) return (fs::path(xdg) / "nbody" / "recent.json").string();
  if (home && *home) return (fs::path(home) / ".config" / "nbody" / "recent.json").string();
  return {};
}

FileBrowser::FileBrowser(std::vector<std::string> extensions, std::string recent_file)
    : extensions_(std::move(extensions)),
      recent_file_(recent_file.empty() ? recent_files_path() : std::move(recent_file)) {
  if (extensions_.empty())
    for (const auto& row : io::extension_table())
      extensions_.push_back(row.first);
  for (std::string& e : extensions_)
    e = lower(e);
  load_recent();
}

bool FileBrowser::open(const std::string& folder) {
  const fs::path dir = normal(folder);
  std::error_code ec;
  fs::directory_iterator it(dir, fs::directory_options::none, ec);
  if (ec) {
    message_ = dir.string() + ": cannot list this folder (" + ec.message() + ")";
    return false;
  }
  std::vector<BrowserEntry> folders, files;
  for (; it != fs::directory_iterator(); it.increment(ec)) {
    if (ec) break;
    const fs::path p = it->path();
    const std::string name = p.filename().string();
    if (name.empty() || name[0] == '.') continue;  // hidden
    std::error_code e2;
    BrowserEntry b;
    b.name = name;
    b.path = p.string();
    if (it->is_directory(e2)) {
      b.folder = true;
      if (const io::FormatRow* r = io::directory_format(p.string())) b.data_dir = r->label;
      folders.push_back(std::move(b));
    } else if (std::find(extensions_.begin(), extensions_.end(), lower(p.extension().string())) !=
               extensions_.end()) {
      b.size = it->file_size(e2);
      files.push_back(std::move(b));
    }
  }
  if (ec) {
    message_ = dir.string() + ": listing stopped (" + ec.message() + ")";
    return false;
  }
  auto by_name = [](const BrowserEntry& a, const BrowserEntry& b) {
    return less_ignoring_case(a.name, b.name);
  };
  std::sort(folders.begin(), folders.end(), by_name);
  std::sort(files.begin(), files.end(), by_name);
  entries_.clear();
  if (dir.has_relative_path()) entries_.push_back({"..", dir.parent_path().string(), true, "", 0});
  entries_.insert(entries_.end(), folders.begin(), folders.end());
  entries_.insert(entries_.end(), files.begin(), files.end());
  folder_ = dir.string();
  message_.clear();
  return true;
}

bool FileBrowser::up() {
  const fs::path dir(folder_);
  return dir.has_relative_path() && open(dir.parent_path().string());
}

bool FileBrowser::set_path(const std::string& path) {
  const fs::path p = normal(path);
  std::error_code ec;
  if (fs::is_directory(p, ec) && !io::directory_format(p.string())) return open(p.string());
  if (!fs::is_directory(p.parent_path(), ec)) {
    message_ = p.parent_path().string() + ": no such folder";
    return false;
  }
  if (!open(p.parent_path().string())) return false;
  name_ = p.filename().string();
  return true;
}

bool FileBrowser::choose(const BrowserEntry& e) {
  if (e.folder && e.data_dir.empty()) {
    open(e.path);
    return false;
  }
  name_ = e.name;
  return true;
}

std::string FileBrowser::selected_path() const {
  if (name_.empty()) return {};
  return (fs::path(folder_) / name_).string();
}

bool FileBrowser::can_accept() const {
  if (name_.empty()) return false;
  std::error_code ec;
  const fs::path p = selected_path();
  if (mode_ == Mode::Load) return fs::exists(p, ec);
  return fs::is_directory(p.parent_path(), ec) && !fs::is_directory(p, ec);
}

bool FileBrowser::would_overwrite() const {
  std::error_code ec;
  return mode_ == Mode::Save && !name_.empty() && fs::exists(selected_path(), ec);
}

void FileBrowser::load_recent() {
  recent_.clear();
  if (recent_file_.empty()) return;
  std::ifstream in(recent_file_);
  if (!in) return;  // none yet
  try {
    const nlohmann::json j = nlohmann::json::parse(in);
    for (const auto& v : j.at("recent")) {
      if (recent_.size() < kRecent) recent_.push_back(v.get<std::string>());
    }
  } catch (const std::exception&) {
    recent_.clear();
    message_ = recent_file_ +
               ": not a list of recent files (ignored; it is rewritten on the next "
               "load or save)";
  }
}

bool FileBrowser::remember(const std::string& path) {
  const std::string p = normal(path).string();
  recent_.erase(std::remove(recent_.begin(), recent_.end(), p), recent_.end());
  recent_.insert(recent_.begin(), p);
  if (recent_.size() > kRecent) recent_.resize(kRecent);
  if (recent_file_.empty()) return true;
  try {
    std::error_code ec;
    fs::create_directories(fs::path(recent_file_).parent_path(), ec);
    io::write_file(recent_file_, nlohmann::json{{"recent", recent_}}.dump(2) + "\n");
  } catch (const std::exception& e) {
    message_ = std::string("recent files not kept: ") + e.what();
    return false;
  }
  return true;
}

}  // namespace nbody::app
