#pragma once
// Errors of the simulation core: one exception type whose message names the file or parameter
// and what is wrong. The library never exits; the app prints the message.

#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace nbody {

/// Raised for bad input (files, parameters) and failed operations. what() is user-facing.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Builds a message from its arguments with operator<< and throws nbody::Error.
template <typename... Args>
[[noreturn]] void fail(Args&&... args) {
  std::ostringstream os;
  (os << ... << std::forward<Args>(args));
  throw Error(os.str());
}

}  // namespace nbody
