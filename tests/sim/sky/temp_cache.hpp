#pragma once
// XDG_CACHE_HOME pointed at a fresh folder for a test's life (the sky's fit and carry caches).

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <system_error>

namespace nbody::testing {

class TempCache {
 public:
  explicit TempCache(const std::string& prefix) {
    dir_ = std::filesystem::temp_directory_path() /
           (prefix + std::to_string(::getpid()) + "_" + std::to_string(std::random_device{}()));
    std::filesystem::create_directories(dir_);
    if (const char* old = std::getenv("XDG_CACHE_HOME")) old_ = old, had_ = true;
    ::setenv("XDG_CACHE_HOME", dir_.c_str(), 1);
  }
  ~TempCache() {
    if (had_)
      ::setenv("XDG_CACHE_HOME", old_.c_str(), 1);
    else
      ::unsetenv("XDG_CACHE_HOME");
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }
  TempCache(const TempCache&) = delete;
  TempCache& operator=(const TempCache&) = delete;
  const std::filesystem::path& dir() const { return dir_; }

 private:
  std::filesystem::path dir_;
  std::string old_;
  bool had_ = false;
};

}  // namespace nbody::testing
