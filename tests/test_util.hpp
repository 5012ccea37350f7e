#pragma once
// Helpers shared by the test files.

#include <string>

#include "sim/core/error.hpp"

namespace nbody::test {

/// A sanitizer build (NBODY_SANITIZE): the same code runs several times slower.
#ifdef NBODY_SANITIZED
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif
/// Wall-time limits in tests are multiplied by this.
inline constexpr double kTimeScale = kSanitized ? 10 : 1;

/// True when a process's output holds an UndefinedBehaviorSanitizer report. GCC's UBSan beside
/// ASan writes to stderr whatever UBSAN_OPTIONS' log_path says, and a test that expects nbody to
/// fail would take its exit for the expected one; check the output of every nbody run.
inline bool ubsan_report(const std::string& output) {
  return output.find("runtime error:") != std::string::npos;
}

/// The message of the nbody::Error thrown by f, or "" when f throws none (other exceptions
/// propagate and fail the test).
template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return {};
}

}  // namespace nbody::test
