#pragma once
// Shared helpers for the file-format tests: small scenes, temp dirs and error capture.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

#include "sim/core/error.hpp"
#include "sim/io/io.hpp"
#include "tests/test_util.hpp"

namespace iotest {

using namespace nbody;
using nbody::test::error_of;

/// A fresh directory under the system temp dir, removed at the end of the test.
class TempDir {
 public:
  TempDir() {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = std::string("nbody_io_") + info->test_suite_name() + "_" + info->name() +
                       "_" + std::to_string(std::random_device{}());
    path_ = std::filesystem::temp_directory_path() / name;
    std::filesystem::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string operator/(const std::string& f) const { return (path_ / f).string(); }
  std::string str() const { return path_.string(); }

 private:
  std::filesystem::path path_;
};

/// Expects f to throw nbody::Error whose message contains every one of `parts`.
#define EXPECT_ERROR_MENTIONS(f, ...)                                                  \
  do {                                                                                 \
    const std::string msg_ = ::nbody::test::error_of(f);                               \
    EXPECT_FALSE(msg_.empty()) << "no nbody::Error thrown";                            \
    for (const std::string& part_ : std::initializer_list<std::string>{__VA_ARGS__}) { \
      EXPECT_NE(msg_.find(part_), std::string::npos)                                   \
          << "message '" << msg_ << "' does not mention '" << part_ << "'";            \
    }                                                                                  \
  } while (0)

/// N bodies with float-exact values (so Tipsy round trips compare exactly), mixed components.
inline Scene mixed_scene(std::size_t n, std::uint32_t seed = 7) {
  Scene s;
  s.name = "mixed";
  s.units = units::henon();
  s.dt = 0.0078125;
  s.softening = 0.05;
  s.camera_distance = 5;
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-2.f, 2.f), m(0.5f, 1.5f);
  const Component kinds[] = {Component::Gas, Component::Dark, Component::Disk, Component::Bulge,
                             Component::Star};
  for (std::size_t i = 0; i < n; ++i) {
    s.bodies.add(u(rng), u(rng), u(rng), u(rng), u(rng), u(rng), m(rng) / float(n), kinds[i % 5]);
  }
  return s;
}

/// Writes bytes to a file.
inline void write_bytes(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), std::streamsize(bytes.size()));
}

/// Reads a whole file.
inline std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

}  // namespace iotest
