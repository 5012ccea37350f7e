// The architecture's rules that a compiler does not check: sim/ is the simulation core and
// includes no GL, GLFW or ImGui header; kernel capabilities are flags of the table rows, not
// guesses from names or tunables.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include "sim/core/backend.hpp"

using namespace nbody;

namespace {

// the source tree's root (assets/ is one of its folders)
std::filesystem::path source_root() {
  return std::filesystem::path(NBODY_ASSETS_DIR).parent_path();
}

}  // namespace

TEST(Layers, SimIncludesNoGlGlfwOrImgui) {
  const std::filesystem::path sim = source_root() / "sim";
  ASSERT_TRUE(std::filesystem::is_directory(sim)) << sim;
  const std::regex forbidden(
      R"(^\s*#\s*include\s*[<"](GL/|GLES|EGL/|glad/|GLFW/|imgui|backends/imgui|render/|app/))");
  int files = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(sim)) {
    const std::string ext = e.path().extension().string();
    if (!e.is_regular_file() ||
        (ext != ".cpp" && ext != ".hpp" && ext != ".cu" && ext != ".cuh" && ext != ".h"))
      continue;
    ++files;
    std::ifstream in(e.path());
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
      ++number;
      EXPECT_FALSE(std::regex_search(line, forbidden))
          << e.path().string() << ":" << number << ": " << line;
    }
  }
  EXPECT_GT(files, 30);
}

TEST(Layers, KernelCapabilitiesAreFlagsOfTheRows) {
  int oracles = 0;
  const KernelInfo* cpu_tree = nullptr;
  const KernelInfo* gpu_tree = nullptr;
  for (const KernelInfo& k : kernel_table()) {
    SCOPED_TRACE(k.name);
    oracles += k.oracle;
    if (k.oracle) {
      EXPECT_FALSE(k.gpu);
      EXPECT_TRUE(k.supports_double);
    }
    // a tree kernel, and only a tree kernel, has an opening angle
    EXPECT_EQ(k.tree, k.find_tunable("theta") != nullptr);
    // the Barnes-Hut pair (cpu-falcon is a tree kernel of another kind, with its own theta)
    if (k.name == "cpu-barnes-hut") cpu_tree = &k;
    if (k.name == "barnes-hut") gpu_tree = &k;
    EXPECT_FALSE(k.oracle && k.lesson);
  }
  EXPECT_EQ(oracles, 1);
  ASSERT_NE(cpu_tree, nullptr);
  if (!gpu_tree) GTEST_SKIP() << "no GPU rows in this build";
  // one definition of the Barnes-Hut tunables: the same defaults on the CPU and the GPU
  for (const char* key : {"theta", "leaf_size", "group_size", "quadrupole"}) {
    SCOPED_TRACE(key);
    const Tunable* c = cpu_tree->find_tunable(key);
    const Tunable* g = gpu_tree->find_tunable(key);
    ASSERT_NE(c, nullptr);
    ASSERT_NE(g, nullptr);
    EXPECT_EQ(c->def, g->def);
    EXPECT_EQ(c->help, g->help);
  }
}

TEST(Layers, BarnesHutTunablesAreParsedOnceIntoATypedValue) {
  const KernelInfo& row = find_kernel("cpu-barnes-hut");
  SimParams p;
  p.kernel = row.name;
  const BhConfig def = bh_config(row, p);
  EXPECT_DOUBLE_EQ(def.theta, row.find_tunable("theta")->def);
  EXPECT_EQ(def.leaf_size, 16);
  EXPECT_TRUE(def.quadrupole);
  EXPECT_EQ(def.block_size, 0);  // a CPU row has none

  ParsedTunables<BhConfig, bh_config> cache;
  EXPECT_DOUBLE_EQ(cache.get(row, p).theta, def.theta);
  p.tunables["theta"] = 0.8;
  p.tunables["quadrupole"] = 0;
  EXPECT_DOUBLE_EQ(cache.get(row, p).theta, 0.8);
  EXPECT_FALSE(cache.get(row, p).quadrupole);
  p.tunables.erase("theta");
  EXPECT_DOUBLE_EQ(cache.get(row, p).theta, def.theta);
}

// group size 0 = auto: the GPU's by N (docs/PERFORMANCE.md), the CPU's 64; a set size wins
TEST(Layers, AutoGroupSizeFollowsN) {
  BhConfig c;
  EXPECT_EQ(group_size_for(c, 1, true), 16);
  EXPECT_EQ(group_size_for(c, 131071, true), 16);
  EXPECT_EQ(group_size_for(c, 131072, true), 32);
  EXPECT_EQ(group_size_for(c, 1048575, true), 32);
  EXPECT_EQ(group_size_for(c, 1048576, true), 64);
  EXPECT_EQ(group_size_for(c, 1000, false), 64);
  EXPECT_EQ(group_size_for(c, 100000000, false), 64);
  c.group_size = 24;
  EXPECT_EQ(group_size_for(c, 1000, true), 24);
  EXPECT_EQ(group_size_for(c, 1000, false), 24);
}

// Forces apart from integration: a CPU force kernel computes accelerations only (no velocity is
// touched there) and writes no pair interaction of its own (sim/forces/pair.hpp is the one).
TEST(Layers, CpuKernelsUseTheOnePairInteractionAndIntegrateNothing) {
  const std::filesystem::path dir = source_root() / "sim" / "forces" / "cpu";
  ASSERT_TRUE(std::filesystem::is_directory(dir)) << dir;
  const std::regex own_pair(R"(sqrt\s*\()");
  const std::regex integrates(R"(\bv[xyz]_?\b|\bkick|\bdrift)");
  int kernels = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() != ".cpp") continue;
    ++kernels;
    std::ifstream in(e.path());
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
      ++number;
      const std::string code = line.substr(0, line.find("//"));
      EXPECT_FALSE(std::regex_search(code, own_pair))
          << e.path().string() << ":" << number << ": " << line;
      EXPECT_FALSE(std::regex_search(code, integrates))
          << e.path().string() << ":" << number << ": " << line;
    }
  }
  EXPECT_GE(kernels, 4);
}
