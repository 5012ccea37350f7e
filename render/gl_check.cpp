#include "render/gl_check.hpp"

#include <cstdio>

namespace nbody::render {

const char* gl_error_name(GLenum e) {
  switch (e) {
    case GL_NO_ERROR:
      return "GL_NO_ERROR";
    case GL_INVALID_ENUM:
      return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE:
      return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION:
      return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION:
      return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY:
      return "GL_OUT_OF_MEMORY";
    default:
      return "GL error";
  }
}

void gl_check(const char* expr, const char* file, int line) {
  GLenum e = glGetError();
  if (e == GL_NO_ERROR) return;
  // drain the queue so the next check starts clean
  while (glGetError() != GL_NO_ERROR) {
  }
  throw GlError(std::string(file) + ":" + std::to_string(line) + ": " + expr + " failed with " +
                gl_error_name(e));
}

void gl_log(const char* expr, const char* file, int line) noexcept {
  GLenum e = glGetError();
  if (e != GL_NO_ERROR)
    std::fprintf(stderr, "%s:%d: %s failed with %s\n", file, line, expr, gl_error_name(e));
}

void load_gl(GLADloadfunc get_proc) {
  int version = gladLoadGL(get_proc);
  if (version == 0) throw GlError("could not load the OpenGL entry points (no current context?)");
  int major = GLAD_VERSION_MAJOR(version), minor = GLAD_VERSION_MINOR(version);
  if (major < 4 || (major == 4 && minor < 5))
    throw GlError("OpenGL 4.5 core is needed; the context offers " + std::to_string(major) + "." +
                  std::to_string(minor) + " (" + gl_description() + ")");
}

std::string gl_description() {
  auto str = [](GLenum e) {
    const auto* s = reinterpret_cast<const char*>(glGetString(e));
    return std::string(s ? s : "?");
  };
  return str(GL_RENDERER) + " / OpenGL " + str(GL_VERSION);
}

}  // namespace nbody::render
