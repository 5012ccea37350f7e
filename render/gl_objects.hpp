#pragma once
// One RAII class per OpenGL object kind: non-copyable, noexcept move, an empty state (id 0) that
// needs no context. create() makes the object (DSA, GL 4.5); the destructor deletes it.

#include <utility>

#include "render/gl_check.hpp"

namespace nbody::render {

/// A GL object name owned by this value. Traits provide create(args...) and destroy(id).
template <typename Traits>
class GlObject {
 public:
  /// Empty: owns nothing, needs no context.
  GlObject() noexcept = default;
  /// Takes ownership of an existing name.
  explicit GlObject(GLuint id) noexcept : id_(id) {}
  /// Makes a new object in the current context.
  template <typename... Args>
  static GlObject create(Args... args) {
    GlObject o(Traits::create(args...));
    if (o.id_ == 0) throw GlError(std::string("could not create a GL ") + Traits::kind);
    return o;
  }
  ~GlObject() { reset(); }
  GlObject(const GlObject&) = delete;
  GlObject& operator=(const GlObject&) = delete;
  GlObject(GlObject&& o) noexcept : id_(std::exchange(o.id_, 0)) {}
  GlObject& operator=(GlObject&& o) noexcept {
    if (this != &o) {
      reset();
      id_ = std::exchange(o.id_, 0);
    }
    return *this;
  }

  GLuint id() const noexcept { return id_; }
  explicit operator bool() const noexcept { return id_ != 0; }
  /// Gives up ownership without deleting.
  GLuint release() noexcept { return std::exchange(id_, 0); }
  /// Deletes the object (if any) and becomes empty.
  void reset() noexcept {
    if (id_ != 0) Traits::destroy(id_);
    id_ = 0;
  }

 private:
  GLuint id_ = 0;
};

namespace traits {
// each kind: how to create one name and delete it
struct Buffer {
  static constexpr const char* kind = "buffer";
  static GLuint create() {
    GLuint id = 0;
    glCreateBuffers(1, &id);
    return id;
  }
  static void destroy(GLuint id) noexcept { glDeleteBuffers(1, &id); }
};
struct VertexArray {
  static constexpr const char* kind = "vertex array";
  static GLuint create() {
    GLuint id = 0;
    glCreateVertexArrays(1, &id);
    return id;
  }
  static void destroy(GLuint id) noexcept { glDeleteVertexArrays(1, &id); }
};
struct Texture {
  static constexpr const char* kind = "texture";
  static GLuint create(GLenum target) {
    GLuint id = 0;
    glCreateTextures(target, 1, &id);
    return id;
  }
  static void destroy(GLuint id) noexcept { glDeleteTextures(1, &id); }
};
struct Framebuffer {
  static constexpr const char* kind = "framebuffer";
  static GLuint create() {
    GLuint id = 0;
    glCreateFramebuffers(1, &id);
    return id;
  }
  static void destroy(GLuint id) noexcept { glDeleteFramebuffers(1, &id); }
};
struct Renderbuffer {
  static constexpr const char* kind = "renderbuffer";
  static GLuint create() {
    GLuint id = 0;
    glCreateRenderbuffers(1, &id);
    return id;
  }
  static void destroy(GLuint id) noexcept { glDeleteRenderbuffers(1, &id); }
};
struct Query {
  static constexpr const char* kind = "query";
  static GLuint create(GLenum target) {
    GLuint id = 0;
    glCreateQueries(target, 1, &id);
    return id;
  }
  static void destroy(GLuint id) noexcept { glDeleteQueries(1, &id); }
};
struct Shader {
  static constexpr const char* kind = "shader";
  static GLuint create(GLenum type) { return glCreateShader(type); }
  static void destroy(GLuint id) noexcept { glDeleteShader(id); }
};
struct Program {
  static constexpr const char* kind = "program";
  static GLuint create() { return glCreateProgram(); }
  static void destroy(GLuint id) noexcept { glDeleteProgram(id); }
};
}  // namespace traits

using Buffer = GlObject<traits::Buffer>;
using VertexArray = GlObject<traits::VertexArray>;
using Texture = GlObject<traits::Texture>;
using Framebuffer = GlObject<traits::Framebuffer>;
using Renderbuffer = GlObject<traits::Renderbuffer>;
using Query = GlObject<traits::Query>;
using Shader = GlObject<traits::Shader>;
using Program = GlObject<traits::Program>;

}  // namespace nbody::render
