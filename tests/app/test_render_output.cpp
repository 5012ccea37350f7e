// Issue 22, finding 1: `nbody render --out` writes its frames and summary.json through the safe
// writer: a FIFO named like a frame is refused instead of blocking, a full disk (here a file-size
// limit) is an error naming the file with the OS's reason and leaves the old frame whole, and
// --tree-cells with a kernel that has no tree is an error. Runs the nbody binary (EGL).

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "tests/test_util.hpp"

namespace {

namespace fs = std::filesystem;
const std::string kNbody = std::string(NBODY_BINARY_DIR) + "/bin/nbody";

struct Result {
  int rc = -1;
  std::string out;
};

// `prefix` runs before nbody in the same shell (e.g. a ulimit)
Result render(const fs::path& out, const std::string& extra, const std::string& prefix = "") {
  const std::string cmd = prefix + kNbody +
                          " render --kernel cpu-reference --scene plummer -n 64 --width 64 "
                          "--height 64 --frames 2 --png-every 1 --no-energy --out " +
                          out.string() + " " + extra + " 2>&1";
  Result r;
  std::FILE* p = ::popen(("sh -c '" + cmd + "'").c_str(), "r");
  char buf[4096];
  while (std::size_t n = std::fread(buf, 1, sizeof buf, p))
    r.out.append(buf, n);
  const int st = ::pclose(p);
  r.rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  EXPECT_FALSE(nbody::test::ubsan_report(r.out)) << r.out;
  return r;
}

std::string read(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

class RenderOutput : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ =
        fs::temp_directory_path() / ("nbody_render_out_" + std::to_string(std::random_device{}()));
    fs::create_directories(dir_);
    const Result r = render(dir_, "");
    if (r.rc != 0 && r.out.find("EGL") != std::string::npos &&
        r.out.find("rendered") == std::string::npos)
      GTEST_SKIP() << "no EGL context here: " << r.out;
    ASSERT_EQ(r.rc, 0) << r.out;
  }
  void TearDown() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  fs::path dir_;
};

TEST_F(RenderOutput, FramesAndSummaryAreWholeFiles) {
  EXPECT_GT(fs::file_size(dir_ / "frame_00000.png"), 100u);
  EXPECT_GT(fs::file_size(dir_ / "frame_00001.png"), 100u);
  EXPECT_NE(read(dir_ / "summary.json").find("\"frames\": 2"), std::string::npos);
}

TEST_F(RenderOutput, FifoNamedLikeAFrameIsRefused) {
  fs::remove(dir_ / "frame_00001.png");
  ASSERT_EQ(::mkfifo((dir_ / "frame_00001.png").c_str(), 0644), 0);
  const Result r = render(dir_, "");
  EXPECT_NE(r.rc, 0) << r.out;
  EXPECT_NE(r.out.find("frame_00001.png: is a FIFO"), std::string::npos) << r.out;
}

TEST_F(RenderOutput, FullDiskIsAnErrorAndKeepsTheOldFrame) {
  const std::string before = read(dir_ / "frame_00000.png");
  // ulimit -f counts 1024-byte blocks: smaller than a frame
  const Result r = render(dir_, "", "trap \"\" XFSZ; ulimit -f 0; ");
  EXPECT_NE(r.rc, 0) << r.out;
  EXPECT_NE(r.out.find("frame_00000.png: write error: File too large"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("rendered"), std::string::npos) << r.out;
  EXPECT_EQ(read(dir_ / "frame_00000.png"), before);
  for (const auto& e : fs::directory_iterator(dir_))
    EXPECT_EQ(e.path().filename().string().find(".nbody-"), std::string::npos) << e.path();
}

TEST_F(RenderOutput, TreeCellsNeedATreeKernel) {
  const Result r = render(dir_, "--tree-cells 2");
  EXPECT_NE(r.rc, 0) << r.out;
  EXPECT_NE(r.out.find("--tree-cells"), std::string::npos) << r.out;
}

}  // namespace
