#pragma once
// OpenGL header (GLAD) and the two check helpers: NBODY_GL_CHECK throws with file:line and the
// expression, NBODY_GL_LOG only prints (for destructors).

#include <glad/gl.h>

#include <stdexcept>
#include <string>

namespace nbody::render {

/// Errors of the renderer (GL context, shader compilation, capture). what() is user-facing.
class GlError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Name of a GL error code ("GL_INVALID_OPERATION").
const char* gl_error_name(GLenum e);
/// Throws GlError naming the expression and location when glGetError() reports an error.
void gl_check(const char* expr, const char* file, int line);
/// Prints (does not throw) when glGetError() reports an error.
void gl_log(const char* expr, const char* file, int line) noexcept;
/// Loads the GL 4.5 core entry points through `get_proc` (glfwGetProcAddress,
/// eglGetProcAddress); throws GlError when the context is older than 4.5.
void load_gl(GLADloadfunc get_proc);
/// "renderer / version" of the current context.
std::string gl_description();

}  // namespace nbody::render

#define NBODY_GL_CHECK(expr)                              \
  do {                                                    \
    expr;                                                 \
    ::nbody::render::gl_check(#expr, __FILE__, __LINE__); \
  } while (0)
#define NBODY_GL_LOG(expr)                              \
  do {                                                  \
    expr;                                               \
    ::nbody::render::gl_log(#expr, __FILE__, __LINE__); \
  } while (0)
