// GPU all-pairs kernels with massless bodies (not sources), the Yoshida4 integrator and the 1PN
// term, against cpu-reference. Skips without a CUDA device.

#include <gtest/gtest.h>

#include <cmath>

#include "sim/core/backend.hpp"
#include "sim/core/scene.hpp"

namespace nbody {
namespace {

Bodies mixed(std::size_t n) {
  Bodies b = make_scene("plummer", {n, 3, {}}).bodies;
  for (std::size_t i = 0; i < n; i += 3)
    b.m[i] = 0;  // body 0 too: the heaviest is moved first, order kept for the user
  return b;
}

TEST(SkyGpu, MasslessBodiesAreNotSources) {
  if (!cuda_available()) GTEST_SKIP() << cuda_device_summary();
  for (std::size_t n : {std::size_t{999}, std::size_t{5000}}) {
    const Bodies b = mixed(n);
    SimParams ref;
    ref.kernel = "cpu-reference";
    ref.precision = Precision::Double;
    ref.softening = 0.01;
    auto r = make_backend(ref);
    r->set_bodies(b);
    std::vector<double> rx, ry, rz;
    r->compute_accelerations(ref, rx, ry, rz);
    for (const char* k : {"naive", "tiled", "tiled2d"})
      for (Precision prec : {Precision::Double, Precision::Float}) {
        SimParams p = ref;
        p.kernel = k;
        p.precision = prec;
        auto g = make_backend(p);
        g->set_bodies(b);
        std::vector<double> ax, ay, az;
        g->compute_accelerations(p, ax, ay, az);
        const AccelError e = acceleration_error(ax, ay, az, rx, ry, rz);
        EXPECT_LT(e.max, prec == Precision::Double ? 1e-11 : 1e-4) << k << " n=" << n;
        EXPECT_EQ(g->last_work().interactions, r->last_work().interactions) << k;
      }
  }
}

TEST(SkyGpu, Yoshida4AndPostNewtonianMatchTheCpu) {
  if (!cuda_available()) GTEST_SKIP() << cuda_device_summary();
  // the solar system with 300 massless trojans and comets is not needed: the planets and some
  // test particles from a plummer cloud scaled to AU are enough for the integrator's path
  const Scene s = make_scene("solar-system", {{}, 1, {{"jd", 2451545.0}}});
  Bodies b = s.bodies;
  for (int k = 0; k < 50; ++k)
    b.add(3.0 * std::cos(k), 3.0 * std::sin(k), 0.01 * k, -0.0099 * std::sin(k),
          0.0099 * std::cos(k), 0, 0.0);
  SimParams ref;
  ref.kernel = "cpu-reference";
  ref.precision = Precision::Double;
  ref.softening = 0;
  ref.G = s.units.G;
  ref.dt = 0.1;
  ref.integrator = Integrator::Yoshida4;
  ref.post_newtonian = true;
  ref.speed_of_light = 173.14463267424034;
  auto r = make_backend(ref);
  r->set_bodies(b);
  r->step(ref, 500);
  Bodies rb;
  r->get_bodies(rb);
  for (const char* k : {"naive", "tiled", "tiled2d"}) {
    SimParams p = ref;
    p.kernel = k;
    auto g = make_backend(p);
    g->set_bodies(b);
    g->step(p, 250);
    g->step(p, 250);
    Bodies gb;
    g->get_bodies(gb);
    double worst = 0;
    for (std::size_t i = 0; i < b.size(); ++i)
      worst = std::max(worst, std::hypot(gb.x[i] - rb.x[i], gb.y[i] - rb.y[i], gb.z[i] - rb.z[i]));
    EXPECT_LT(worst, 1e-9) << k;
    EXPECT_EQ(gb.m, b.m) << k;
  }
}

}  // namespace
}  // namespace nbody
