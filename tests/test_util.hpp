#pragma once
// Helpers shared by the test files.

#include <string>

#include "sim/error.hpp"

namespace nbody::test {

/// A sanitizer build (NBODY_SANITIZE): the same code runs several times slower.
#ifdef NBODY_SANITIZED
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif
/// Wall-time limits in tests are multiplied by this.
inline constexpr double kTimeScale = kSanitized ? 10 : 1;

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
