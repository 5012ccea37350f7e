// Massless bodies are not sources: they feel every massive body and pull on nothing, in every
// CPU kernel, whatever order they come in; the counted work is N times the massive bodies.

#include <gtest/gtest.h>

#include <cmath>

#include "sim/core/backend.hpp"
#include "sim/core/scene.hpp"

namespace nbody {
namespace {

// a plummer sphere with every third body made massless, in mixed order
Bodies mixed(std::size_t n) {
  Bodies b = make_scene("plummer", {n, 7, {}}).bodies;
  for (std::size_t i = 1; i < n; i += 3)
    b.m[i] = 0;
  return b;
}

// direct sum over massive sources only, double
void brute(const Bodies& b, double eps, std::vector<double>& ax, std::vector<double>& ay,
           std::vector<double>& az) {
  const std::size_t n = b.size();
  ax.assign(n, 0);
  ay.assign(n, 0);
  az.assign(n, 0);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) {
      if (i == j || b.m[j] == 0) continue;
      const double dx = b.x[j] - b.x[i], dy = b.y[j] - b.y[i], dz = b.z[j] - b.z[i];
      const double r2 = dx * dx + dy * dy + dz * dz + eps * eps;
      const double s = b.m[j] / (r2 * std::sqrt(r2));
      ax[i] += dx * s;
      ay[i] += dy * s;
      az[i] += dz * s;
    }
}

TEST(Massless, KernelsSkipMasslessSources) {
  const Bodies b = mixed(1001);
  std::vector<double> rx, ry, rz;
  brute(b, 0.01, rx, ry, rz);
  for (const char* k : {"cpu-reference", "cpu-openmp", "cpu-symmetric"})
    for (Precision prec : {Precision::Double, Precision::Float}) {
      if (prec == Precision::Float && std::string(k) == "cpu-reference") continue;
      SimParams p;
      p.kernel = k;
      p.precision = prec;
      p.softening = 0.01;
      auto be = make_backend(p);
      be->set_bodies(b);
      std::vector<double> ax, ay, az;
      be->compute_accelerations(p, ax, ay, az);
      const AccelError e = acceleration_error(ax, ay, az, rx, ry, rz);
      EXPECT_LT(e.max, prec == Precision::Double ? 1e-12 : 1e-4) << k;
      // N times the massive bodies (667 of 1001)
      EXPECT_EQ(be->last_work().interactions, 1001.0 * 667.0) << k;
    }
}

TEST(Massless, TestParticlesDoNotDisturbTheMassive) {
  // massive bodies evolve identically with and without test particles; the order the user gave
  // comes back from get_bodies
  const Bodies b = mixed(400);
  Bodies massive;
  for (std::size_t i = 0; i < b.size(); ++i)
    if (b.m[i] > 0) massive.add(b.x[i], b.y[i], b.z[i], b.vx[i], b.vy[i], b.vz[i], b.m[i]);
  for (const char* k : {"cpu-reference", "cpu-openmp", "cpu-symmetric"})
    for (Integrator integ : {Integrator::Leapfrog, Integrator::Yoshida4}) {
      SimParams p;
      p.kernel = k;
      p.precision = Precision::Double;
      p.softening = 0.05;
      p.dt = 1e-3;
      p.integrator = integ;
      auto with = make_backend(p), without = make_backend(p);
      with->set_bodies(b);
      without->set_bodies(massive);
      with->step(p, 20);
      without->step(p, 20);
      Bodies bw, bo;
      with->get_bodies(bw);
      without->get_bodies(bo);
      ASSERT_EQ(bw.size(), b.size());
      std::size_t j = 0;
      for (std::size_t i = 0; i < b.size(); ++i) {
        EXPECT_EQ(bw.m[i], b.m[i]);
        if (b.m[i] == 0) continue;
        // bit-identical needs the same summation order: compare to rounding
        EXPECT_NEAR(bw.x[i], bo.x[j], 1e-13) << k << " " << i;
        EXPECT_NEAR(bw.vz[i], bo.vz[j], 1e-12) << k << " " << i;
        ++j;
      }
    }
}

}  // namespace
}  // namespace nbody
