#include "render/gl_debug.hpp"

#include <cstdio>
#include <mutex>

namespace nbody::render {
namespace {

struct Log {
  std::mutex mutex;
  std::vector<GlDebugMessage> kept;
  std::size_t errors = 0;
  std::size_t total = 0;
  bool print = false;
  bool notifications = false;
};

Log& log() {
  static Log l;
  return l;
}

const char* source_name(GLenum s) {
  switch (s) {
    case GL_DEBUG_SOURCE_API:
      return "api";
    case GL_DEBUG_SOURCE_WINDOW_SYSTEM:
      return "window system";
    case GL_DEBUG_SOURCE_SHADER_COMPILER:
      return "shader compiler";
    case GL_DEBUG_SOURCE_THIRD_PARTY:
      return "third party";
    case GL_DEBUG_SOURCE_APPLICATION:
      return "application";
    default:
      return "other";
  }
}

const char* type_name(GLenum t) {
  switch (t) {
    case GL_DEBUG_TYPE_ERROR:
      return "error";
    case GL_DEBUG_TYPE_DEPRECATED_BEHAVIOR:
      return "deprecated";
    case GL_DEBUG_TYPE_UNDEFINED_BEHAVIOR:
      return "undefined behaviour";
    case GL_DEBUG_TYPE_PORTABILITY:
      return "portability";
    case GL_DEBUG_TYPE_PERFORMANCE:
      return "performance";
    case GL_DEBUG_TYPE_MARKER:
      return "marker";
    default:
      return "other";
  }
}

const char* severity_name(GLenum s) {
  switch (s) {
    case GL_DEBUG_SEVERITY_HIGH:
      return "high";
    case GL_DEBUG_SEVERITY_MEDIUM:
      return "medium";
    case GL_DEBUG_SEVERITY_LOW:
      return "low";
    default:
      return "notification";
  }
}

void GLAPIENTRY on_message(GLenum source, GLenum type, GLuint id, GLenum severity, GLsizei length,
                           const GLchar* message, const void* /*user*/) {
  Log& l = log();
  std::lock_guard<std::mutex> lock(l.mutex);
  if (severity == GL_DEBUG_SEVERITY_NOTIFICATION && !l.notifications) return;
  GlDebugMessage m;
  m.type = type;
  m.severity = severity;
  std::string body = length >= 0 ? std::string(message, static_cast<std::size_t>(length))
                                 : std::string(message ? message : "");
  while (!body.empty() && (body.back() == '\n' || body.back() == '\r'))
    body.pop_back();
  m.text = std::string(type_name(type)) + " (" + source_name(source) + ", " +
           severity_name(severity) + ") " + std::to_string(id) + ": " + body;
  ++l.total;
  if (m.is_error()) ++l.errors;
  if (l.print) std::fprintf(stderr, "GL: %s\n", m.text.c_str());
  if (l.kept.size() < 256) l.kept.push_back(std::move(m));
}

}  // namespace

bool GlDebugMessage::is_error() const {
  return type == GL_DEBUG_TYPE_ERROR || type == GL_DEBUG_TYPE_UNDEFINED_BEHAVIOR;
}

bool enable_gl_debug(bool print, bool notifications) {
  if (!glDebugMessageCallback || !glDebugMessageControl) return false;
  {
    Log& l = log();
    std::lock_guard<std::mutex> lock(l.mutex);
    l.print = print;
    l.notifications = notifications;
  }
  glEnable(GL_DEBUG_OUTPUT);
  // synchronous: the message arrives inside the call that caused it (a debugger's stack shows it)
  glEnable(GL_DEBUG_OUTPUT_SYNCHRONOUS);
  glDebugMessageCallback(on_message, nullptr);
  glDebugMessageControl(GL_DONT_CARE, GL_DONT_CARE, GL_DONT_CARE, 0, nullptr, GL_TRUE);
  return true;
}

void disable_gl_debug() {
  if (!glDebugMessageCallback) return;
  glDebugMessageCallback(nullptr, nullptr);
  glDisable(GL_DEBUG_OUTPUT);
}

bool gl_debug_context() {
  GLint flags = 0;
  glGetIntegerv(GL_CONTEXT_FLAGS, &flags);
  return (flags & GL_CONTEXT_FLAG_DEBUG_BIT) != 0;
}

std::vector<GlDebugMessage> gl_debug_messages() {
  Log& l = log();
  std::lock_guard<std::mutex> lock(l.mutex);
  return l.kept;
}

std::size_t gl_debug_error_count() {
  Log& l = log();
  std::lock_guard<std::mutex> lock(l.mutex);
  return l.errors;
}

std::size_t gl_debug_message_count() {
  Log& l = log();
  std::lock_guard<std::mutex> lock(l.mutex);
  return l.total;
}

void gl_debug_clear() {
  Log& l = log();
  std::lock_guard<std::mutex> lock(l.mutex);
  l.kept.clear();
  l.errors = 0;
  l.total = 0;
}

}  // namespace nbody::render
