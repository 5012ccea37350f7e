#pragma once
// KHR_debug output: every message the driver sends (errors, undefined behaviour, performance
// warnings) is counted and kept, and optionally printed as it arrives. A context made with the
// debug flag (EGL_CONTEXT_OPENGL_DEBUG, GLFW_OPENGL_DEBUG_CONTEXT) reports the most; a normal
// context still reports errors on most drivers.

#include <cstddef>
#include <string>
#include <vector>

#include "render/gl_check.hpp"

namespace nbody::render {

/// One message from the driver, as text: "error (api, high) 1282: ...".
struct GlDebugMessage {
  GLenum type = 0;
  GLenum severity = 0;
  std::string text;
  /// An error or undefined behaviour: something the program did wrong.
  bool is_error() const;
};

/// Installs the callback on the current context (GL 4.3+ or KHR_debug). Messages are kept
/// (the first 256) and counted; with `print` each is also written to stderr. Notifications
/// (severity "notification") are dropped unless `notifications`. Returns false when the
/// context cannot report (no glDebugMessageCallback).
bool enable_gl_debug(bool print, bool notifications = false);
/// Removes the callback (before the context goes away).
void disable_gl_debug();
/// Whether the current context was made with the debug flag.
bool gl_debug_context();
/// Messages since the last clear (at most 256 kept).
std::vector<GlDebugMessage> gl_debug_messages();
/// Errors and undefined-behaviour messages since the last clear (all counted, not only kept).
std::size_t gl_debug_error_count();
/// Messages of any kind since the last clear.
std::size_t gl_debug_message_count();
void gl_debug_clear();

}  // namespace nbody::render
