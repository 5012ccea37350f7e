// The file browser's model (issue 19, item 6) on a temporary tree: folders first, known
// extensions, case-insensitive order, hidden entries skipped, the parent entry, unreadable
// folders as messages, typed paths, and the recent files kept as JSON under XDG_CONFIG_HOME.

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>

#include "app/core/file_browser.hpp"
#include "sim/io/format_table.hpp"

namespace {

namespace fs = std::filesystem;
using nbody::app::BrowserEntry;
using nbody::app::FileBrowser;

class Browser : public ::testing::Test {
 protected:
  void SetUp() override {
    root_ = fs::temp_directory_path() /
            ("nbody_browser_" +
             std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "_" +
             std::to_string(std::random_device{}()));
    fs::create_directories(root_ / "tree" / "beta");
    fs::create_directories(root_ / "tree" / "Alpha");
    fs::create_directories(root_ / "tree" / ".hidden_dir");
    fs::create_directories(root_ / "tree" / "agora_ic");
    touch("tree/agora_ic/disk.dat");
    for (const char* f : {"b.csv", "A.BIN", "c.tipsy", "d.txt", ".secret.csv", "e.json", "z.std"})
      touch(std::string("tree/") + f);
    fs::create_directories(root_ / "config");
    ::setenv("XDG_CONFIG_HOME", (root_ / "config").c_str(), 1);
  }
  void TearDown() override {
    std::error_code ec;
    fs::permissions(root_ / "tree" / "beta", fs::perms::owner_all, ec);
    fs::remove_all(root_, ec);
  }
  void touch(const std::string& rel) { std::ofstream(root_ / rel) << "x"; }
  std::string at(const std::string& rel) const { return (root_ / rel).string(); }
  fs::path root_;
};

std::vector<std::string> names(const FileBrowser& fb) {
  std::vector<std::string> v;
  for (const BrowserEntry& e : fb.entries())
    v.push_back(e.name);
  return v;
}

}  // namespace

TEST_F(Browser, ListsFoldersThenKnownFilesSortedIgnoringCase) {
  FileBrowser fb;
  ASSERT_TRUE(fb.open(at("tree"))) << fb.message();
  EXPECT_EQ(names(fb), (std::vector<std::string>{"..", "agora_ic", "Alpha", "beta", "A.BIN",
                                                 "b.csv", "c.tipsy", "e.json", "z.std"}));
  EXPECT_TRUE(fb.entries()[0].folder);
  EXPECT_EQ(fb.entries()[1].data_dir, "AGORA");
  EXPECT_TRUE(fb.entries()[2].data_dir.empty());
  EXPECT_EQ(fb.folder(), at("tree"));
}

TEST_F(Browser, NavigatesFoldersAndChoosesFiles) {
  FileBrowser fb;
  ASSERT_TRUE(fb.open(at("tree")));
  EXPECT_FALSE(fb.choose(fb.entries()[2]));  // Alpha: opened
  EXPECT_EQ(fb.folder(), at("tree/Alpha"));
  EXPECT_EQ(names(fb), std::vector<std::string>{".."});
  EXPECT_FALSE(fb.choose(fb.entries()[0]));  // ..: the parent
  EXPECT_EQ(fb.folder(), at("tree"));
  EXPECT_TRUE(fb.choose(fb.entries()[1]));  // an AGORA directory is a choice
  EXPECT_EQ(fb.selected_path(), at("tree/agora_ic"));
  EXPECT_TRUE(fb.choose(fb.entries()[5]));
  EXPECT_EQ(fb.selected_path(), at("tree/b.csv"));
  EXPECT_TRUE(fb.up());
  EXPECT_EQ(fb.folder(), root_.string());
}

TEST_F(Browser, TypedPaths) {
  FileBrowser fb;
  EXPECT_TRUE(fb.set_path(at("tree/./beta/../Alpha/")));
  EXPECT_EQ(fb.folder(), at("tree/Alpha"));
  EXPECT_TRUE(fb.set_path(at("tree/new_state.bin")));  // a file to save: its folder and name
  EXPECT_EQ(fb.folder(), at("tree"));
  EXPECT_EQ(fb.name(), "new_state.bin");
  fb.set_mode(FileBrowser::Mode::Save);
  EXPECT_TRUE(fb.can_accept());
  EXPECT_FALSE(fb.would_overwrite());
  fb.name() = "b.csv";
  EXPECT_TRUE(fb.would_overwrite());  // Save asks first
  fb.set_mode(FileBrowser::Mode::Load);
  EXPECT_TRUE(fb.can_accept());
  fb.name() = "missing.csv";
  EXPECT_FALSE(fb.can_accept());  // Load takes existing files only
  EXPECT_FALSE(fb.set_path(at("nowhere/x.csv")));
  EXPECT_NE(fb.message().find("nowhere"), std::string::npos) << fb.message();
  EXPECT_EQ(fb.folder(), at("tree"));  // the old listing stays
}

TEST_F(Browser, UnreadableFolderIsAMessage) {
  if (::geteuid() == 0) GTEST_SKIP() << "root reads every folder";
  FileBrowser fb;
  ASSERT_TRUE(fb.open(at("tree")));
  fs::permissions(root_ / "tree" / "beta", fs::perms::none);
  EXPECT_FALSE(fb.open(at("tree/beta")));
  EXPECT_NE(fb.message().find("beta"), std::string::npos) << fb.message();
  EXPECT_EQ(fb.folder(), at("tree"));
}

TEST_F(Browser, MissingFolderIsAMessage) {
  FileBrowser fb;
  EXPECT_FALSE(fb.open(at("no_such_folder")));
  EXPECT_NE(fb.message().find("no_such_folder"), std::string::npos) << fb.message();
}

TEST_F(Browser, RecentFilesAreKeptNewestFirstAtMostTen) {
  {
    FileBrowser fb;
    EXPECT_TRUE(fb.recent().empty());
    for (int i = 0; i < 12; ++i)
      EXPECT_TRUE(fb.remember(at("tree/f" + std::to_string(i) + ".csv"))) << fb.message();
    EXPECT_TRUE(fb.remember(at("tree/f5.csv")));  // again: moves to the front
    ASSERT_EQ(fb.recent().size(), 10u);
    EXPECT_EQ(fb.recent()[0], at("tree/f5.csv"));
    EXPECT_EQ(fb.recent()[1], at("tree/f11.csv"));
  }
  EXPECT_TRUE(fs::exists(root_ / "config" / "nbody" / "recent.json"));
  FileBrowser again;  // read back
  ASSERT_EQ(again.recent().size(), 10u);
  EXPECT_EQ(again.recent()[0], at("tree/f5.csv"));
  EXPECT_TRUE(again.message().empty()) << again.message();
}

TEST_F(Browser, CorruptRecentFileIsIgnoredWithANotice) {
  fs::create_directories(root_ / "config" / "nbody");
  std::ofstream(root_ / "config" / "nbody" / "recent.json") << "{\"recent\": [1, 2";
  FileBrowser fb;
  EXPECT_TRUE(fb.recent().empty());
  EXPECT_NE(fb.message().find("recent.json"), std::string::npos) << fb.message();
  EXPECT_TRUE(fb.remember(at("tree/b.csv")));
  EXPECT_EQ(FileBrowser().recent().size(), 1u);
}

// the browser lists a file of every extension of the format table and marks every folder a
// directory format reads with its label: a new format shows up without touching the browser
TEST_F(Browser, ListsEveryFormatOfTheTable) {
  fs::create_directories(root_ / "all");
  std::vector<std::string> expected;
  for (const nbody::io::FormatRow* r : nbody::io::format_table()) {
    for (const std::string& e : r->extensions) {
      touch("all/f" + e);
      expected.push_back("f" + e);
    }
  }
  FileBrowser fb(std::vector<std::string>{}, at("config/recent.json"));
  ASSERT_TRUE(fb.open(at("all")));
  std::vector<std::string> listed = names(fb);
  for (const std::string& f : expected)
    EXPECT_NE(std::find(listed.begin(), listed.end(), f), listed.end()) << f;
  // the AGORA folder of the fixture, by the label of its row
  ASSERT_TRUE(fb.open(at("tree")));
  const BrowserEntry* agora = nullptr;
  for (const BrowserEntry& e : fb.entries())
    if (e.name == "agora_ic") agora = &e;
  ASSERT_NE(agora, nullptr);
  EXPECT_EQ(agora->data_dir, nbody::io::format_row(nbody::io::Format::Agora).label);
  EXPECT_TRUE(fb.choose(*agora));
}
