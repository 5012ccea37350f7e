// CUDA-GL interop on a headless EGL context: after one step with the mapped vertex buffers as
// device output, the GL buffers hold exactly the simulation's positions, masses and speeds.
// Skips without a CUDA device or EGL.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

#include "app/window/egl_context.hpp"
#include "render/interop.hpp"
#include "render/particle_renderer.hpp"
#include "sim/core/backend.hpp"
#include "sim/core/scene.hpp"
#include "sim/core/simulation.hpp"

using namespace nbody;

TEST(Interop, GlBufferHoldsSimulationPositionsAfterAStep) {
  if (!render::interop_compiled()) GTEST_SKIP() << "this build has no CUDA";
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device: " << cuda_device_summary();
  std::unique_ptr<app::EglContext> ctx;
  try {
    ctx = std::make_unique<app::EglContext>();
  } catch (const std::exception& e) {
    GTEST_SKIP() << "no EGL OpenGL 4.5 context: " << e.what();
  }

  for (const KernelInfo& k : kernel_table()) {
    if (!k.gpu) continue;
    SCOPED_TRACE(k.name);
    SceneParams sp;
    sp.n = 4099;  // not a multiple of any block size
    Scene scene = make_scene("plummer", sp);
    SimParams p;
    p.kernel = k.name;
    p.dt = scene.dt;
    p.softening = scene.softening;
    p.G = scene.units.G;
    Simulation sim(scene, p);
    ASSERT_TRUE(sim.backend().supports_device_output());

    render::ParticleRenderer particles;
    particles.resize(sim.size());
    render::InteropBuffer pos, speed;
    std::string why;
    ASSERT_TRUE(pos.register_buffer(particles.position_buffer(), why)) << why;
    ASSERT_TRUE(speed.register_buffer(particles.speed_buffer(), why)) << why;
    {
      render::InteropMapping mapping({&pos, &speed});
      EXPECT_GE(mapping.bytes(0), sim.size() * 16);
      sim.backend().set_device_output({mapping.pointer(0), mapping.pointer(1)});
      sim.step(p);
      sim.backend().set_device_output({});
    }
    std::vector<float> gl_pos(sim.size() * 4), gl_speed(sim.size());
    glGetNamedBufferSubData(particles.position_buffer(), 0, gl_pos.size() * sizeof(float),
                            gl_pos.data());
    glGetNamedBufferSubData(particles.speed_buffer(), 0, gl_speed.size() * sizeof(float),
                            gl_speed.data());
    ASSERT_EQ(glGetError(), static_cast<GLenum>(GL_NO_ERROR));

    const Bodies& b = sim.bodies();
    std::size_t bad = 0;
    for (std::size_t i = 0; i < b.size(); ++i) {
      bool same = gl_pos[4 * i] == static_cast<float>(b.x[i]) &&
                  gl_pos[4 * i + 1] == static_cast<float>(b.y[i]) &&
                  gl_pos[4 * i + 2] == static_cast<float>(b.z[i]) &&
                  gl_pos[4 * i + 3] == static_cast<float>(b.m[i]);
      double v = std::sqrt(b.vx[i] * b.vx[i] + b.vy[i] * b.vy[i] + b.vz[i] * b.vz[i]);
      bool speed_ok = std::abs(gl_speed[i] - v) <= 1e-5 * std::max(v, 1e-30) + 1e-30;
      if (!same || !speed_ok) {
        if (bad < 3)
          ADD_FAILURE() << "body " << i << ": GL (" << gl_pos[4 * i] << ", " << gl_pos[4 * i + 1]
                        << ", " << gl_pos[4 * i + 2] << ", m " << gl_pos[4 * i + 3] << ", |v| "
                        << gl_speed[i] << ") vs sim (" << b.x[i] << ", " << b.y[i] << ", " << b.z[i]
                        << ", m " << b.m[i] << ", |v| " << v << ")";
        ++bad;
      }
    }
    EXPECT_EQ(bad, 0u);
  }
}
