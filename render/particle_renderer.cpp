#include "render/particle_renderer.hpp"

#include <vector>

#include "render/shader.hpp"

namespace nbody::render {

ParticleRenderer::ParticleRenderer()
    : program_(build_program({{GL_VERTEX_SHADER, "shaders/particles.vert"},
                              {GL_FRAGMENT_SHADER, "shaders/particles.frag"}})),
      vao_(VertexArray::create()) {
  // attribute 0: float4 position+mass, 1: float speed, 2: float component, 3: float4 look
  const GLint sizes[4] = {4, 1, 1, 4};
  for (GLuint a = 0; a < 4; ++a) {
    glEnableVertexArrayAttrib(vao_.id(), a);
    glVertexArrayAttribFormat(vao_.id(), a, sizes[a], GL_FLOAT, GL_FALSE, 0);
    glVertexArrayAttribBinding(vao_.id(), a, a);
  }
  NBODY_GL_CHECK((void)0);
}

bool ParticleRenderer::resize(std::size_t n) {
  if (n == n_ && positions_) return false;
  // fresh buffers: the old ones may still be registered with CUDA by their owner
  positions_ = Buffer::create();
  speeds_ = Buffer::create();
  components_ = Buffer::create();
  looks_ = Buffer::create();
  runs_.clear();
  std::size_t m = n > 0 ? n : 1;
  std::vector<float> no_looks(4 * m, 0.0f);
  glNamedBufferData(looks_.id(), static_cast<GLsizeiptr>(m * 4 * sizeof(float)), no_looks.data(),
                    GL_STATIC_DRAW);
  glNamedBufferData(positions_.id(), static_cast<GLsizeiptr>(m * 4 * sizeof(float)), nullptr,
                    GL_DYNAMIC_DRAW);
  glNamedBufferData(speeds_.id(), static_cast<GLsizeiptr>(m * sizeof(float)), nullptr,
                    GL_DYNAMIC_DRAW);
  glNamedBufferData(components_.id(), static_cast<GLsizeiptr>(m * sizeof(float)), nullptr,
                    GL_STATIC_DRAW);
  glVertexArrayVertexBuffer(vao_.id(), 0, positions_.id(), 0, 4 * sizeof(float));
  glVertexArrayVertexBuffer(vao_.id(), 1, speeds_.id(), 0, sizeof(float));
  glVertexArrayVertexBuffer(vao_.id(), 2, components_.id(), 0, sizeof(float));
  glVertexArrayVertexBuffer(vao_.id(), 3, looks_.id(), 0, 4 * sizeof(float));
  NBODY_GL_CHECK((void)0);
  n_ = n;
  return true;
}

void ParticleRenderer::upload_positions(const float* xyzm, std::size_t n) {
  glNamedBufferSubData(positions_.id(), 0, static_cast<GLsizeiptr>(n * 4 * sizeof(float)), xyzm);
}
void ParticleRenderer::upload_speeds(const float* speed, std::size_t n) {
  glNamedBufferSubData(speeds_.id(), 0, static_cast<GLsizeiptr>(n * sizeof(float)), speed);
}
void ParticleRenderer::upload_components(const float* component, std::size_t n) {
  glNamedBufferSubData(components_.id(), 0, static_cast<GLsizeiptr>(n * sizeof(float)), component);
  runs_ = n == n_ ? component_runs(component, n) : std::vector<ComponentRun>{};
}

void ParticleRenderer::upload_body_looks(const float* rgbs, std::size_t n) {
  glNamedBufferSubData(looks_.id(), 0, static_cast<GLsizeiptr>(n * 4 * sizeof(float)), rgbs);
}

void ParticleRenderer::draw(const glm::mat4& view, const glm::mat4& proj, float ref_distance,
                            float viewport_height, const ParticleStyle& s,
                            const DistanceMap& dmap) const {
  if (n_ == 0) return;
  set_uniform(program_, "u_view", view);
  set_uniform(program_, "u_proj", proj);
  set_uniform(program_, "u_point_size", s.point_size);
  set_uniform(program_, "u_ref_distance", ref_distance);
  set_uniform(program_, "u_pixel_scale", viewport_height / 800.0f);
  set_uniform(program_, "u_color_mode", static_cast<int>(s.color));
  set_uniform(program_, "u_speed_max", s.speed_max);
  set_uniform(program_, "u_log_mass_range", glm::vec2(s.log_mass_min, s.log_mass_max));
  set_uniform(program_, "u_mass_size", s.mass_size);
  set_uniform(program_, "u_brightness", s.brightness);
  set_distance_uniforms(program_, dmap);
  glProgramUniform1fv(program_.id(), glGetUniformLocation(program_.id(), "u_component_gain"), 6,
                      s.component_gain);

  // additive glow: order-independent, no depth
  glEnable(GL_PROGRAM_POINT_SIZE);
  glDisable(GL_DEPTH_TEST);
  glDepthMask(GL_FALSE);
  glEnable(GL_BLEND);
  glBlendEquation(GL_FUNC_ADD);
  glBlendFunc(GL_ONE, GL_ONE);
  glUseProgram(program_.id());
  glBindVertexArray(vao_.id());
  // only the shown components' runs (a hidden one would cost a vertex a body for nothing)
  const DrawRanges r = shown_ranges(runs_, s.component_gain);
  if (r.all)
    glDrawArrays(GL_POINTS, 0, static_cast<GLsizei>(n_));
  else if (!r.first.empty())
    glMultiDrawArrays(GL_POINTS, r.first.data(), r.count.data(),
                      static_cast<GLsizei>(r.first.size()));
  glBindVertexArray(0);
  glUseProgram(0);
  glDepthMask(GL_TRUE);
  glDisable(GL_BLEND);
}

}  // namespace nbody::render
