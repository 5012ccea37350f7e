#pragma once
// Helpers shared by the test files.

#include <string>

#include "sim/error.hpp"

namespace nbody::test {

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
