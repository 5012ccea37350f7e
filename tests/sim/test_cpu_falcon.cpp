// cpu-falcon: agreement with the double direct sum (theta 0 to round-off, bounded errors at the
// default theta, awkward N, clustered bodies, massless bodies), the total force zero to rounding,
// momentum held over a galaxy collision where cpu-barnes-hut's drifts, determinism and the user's
// body order.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "sim/analysis/diagnostics.hpp"
#include "sim/core/backend.hpp"
#include "sim/core/scene.hpp"
#include "tests/sim/scenes/evolve.hpp"
#include "tests/test_util.hpp"

namespace nbody {
namespace {

// n bodies uniform in the cube [-1, 1]^3, masses in [0.5, 1.5] / n, small random velocities
Bodies uniform_cube(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto u = [&] { return static_cast<double>(rng() >> 11) * 0x1.0p-53; };
  Bodies b;
  for (std::size_t i = 0; i < n; ++i)
    b.add(2 * u() - 1, 2 * u() - 1, 2 * u() - 1, 0.1 * (u() - 0.5), 0.1 * (u() - 0.5),
          0.1 * (u() - 0.5), (0.5 + u()) / static_cast<double>(n));
  return b;
}

Scene scene(const char* name, std::size_t n, std::uint64_t seed = 1) {
  SceneParams sp;
  sp.n = n;
  sp.seed = seed;
  return make_scene(name, sp);
}

SimParams falcon_params(double theta, Precision prec, double eps = 0.01, int threads = 2) {
  SimParams p = testing::params("cpu-falcon", 1e-3, eps, 1.0, prec);
  if (theta >= 0) p.tunables["theta"] = theta;
  p.tunables["threads"] = threads;
  return p;
}

struct Accel {
  std::vector<double> x, y, z;
};

Accel accelerations(const SimParams& p, const Bodies& b) {
  auto backend = make_backend(p);
  backend->set_bodies(b);
  Accel a;
  backend->compute_accelerations(p, a.x, a.y, a.z);
  return a;
}

// per-body relative errors |a - ref| / |ref| of the bodies idx (ref holds one entry per idx)
std::vector<double> relative_errors(const Accel& a, const Accel& ref,
                                    const std::vector<std::size_t>& idx) {
  std::vector<double> e;
  for (std::size_t k = 0; k < idx.size(); ++k) {
    const std::size_t i = idx[k];
    const double dx = a.x[i] - ref.x[k], dy = a.y[i] - ref.y[k], dz = a.z[i] - ref.z[k];
    const double r = std::sqrt(ref.x[k] * ref.x[k] + ref.y[k] * ref.y[k] + ref.z[k] * ref.z[k]);
    const double d = std::sqrt(dx * dx + dy * dy + dz * dz);
    e.push_back(r > 0 ? d / r : d);
  }
  return e;
}

// the q-quantile of e (nearest rank); NaN stays visible as +inf
double quantile(std::vector<double> e, double q) {
  for (double& v : e)
    if (std::isnan(v)) v = INFINITY;
  std::sort(e.begin(), e.end());
  return e[static_cast<std::size_t>(std::ceil(q * static_cast<double>(e.size()))) - 1];
}

struct ErrorStats {
  double median, p99, max;
};

// errors of p's kernel against the double direct sum on a sample of `samples` bodies
ErrorStats error_vs_reference(const SimParams& p, const Bodies& b, std::size_t samples) {
  const std::vector<std::size_t> idx = sample_indices(b.size(), samples);
  Accel ref;
  reference_accelerations(b, idx, p.G, p.softening, ref.x, ref.y, ref.z);
  const std::vector<double> e = relative_errors(accelerations(p, b), ref, idx);
  return {quantile(e, 0.5), quantile(e, 0.99), quantile(e, 1.0)};
}

// |sum m a| / sum |m a|: zero when the forces are equal and opposite
double total_force(const Bodies& b, const Accel& a) {
  double fx = 0, fy = 0, fz = 0, scale = 0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    fx += b.m[i] * a.x[i];
    fy += b.m[i] * a.y[i];
    fz += b.m[i] * a.z[i];
    scale += b.m[i] * std::sqrt(a.x[i] * a.x[i] + a.y[i] * a.y[i] + a.z[i] * a.z[i]);
  }
  return scale > 0 ? std::sqrt(fx * fx + fy * fy + fz * fz) / scale : 0;
}

TEST(CpuFalcon, TableRow) {
  const KernelInfo& k = find_kernel("cpu-falcon");
  EXPECT_FALSE(k.gpu);
  EXPECT_TRUE(k.tree);
  EXPECT_TRUE(k.supports_float);
  EXPECT_TRUE(k.supports_double);
  for (const char* key : {"theta", "leaf_size", "threads"})
    EXPECT_NE(k.find_tunable(key), nullptr) << key;
  SimParams p = falcon_params(0.5, Precision::Float);
  p.tunables["theta"] = 1.05;
  EXPECT_NE(test::error_of([&] { validate_kernel_params(p); }), "");
  p.tunables["theta"] = 1.0;
  p.tunables["leaf_size"] = 0;
  EXPECT_NE(test::error_of([&] { validate_kernel_params(p); }), "");
}

TEST(CpuFalcon, ThetaZeroIsTheDirectSum) {
  // theta = 0 accepts no cell pair: every pair of bodies summed directly, each once
  const Bodies b = uniform_cube(1500, 7);
  const Accel ref = accelerations(testing::params("cpu-reference", 1e-3, 0.01, 1.0), b);
  std::vector<std::size_t> all(b.size());
  std::iota(all.begin(), all.end(), 0);
  for (Precision prec : {Precision::Double, Precision::Float}) {
    const SimParams p = falcon_params(0.0, prec);
    auto backend = make_backend(p);
    backend->set_bodies(b);
    Accel a;
    backend->compute_accelerations(p, a.x, a.y, a.z);
    const double worst = quantile(relative_errors(a, ref, all), 1.0);
    std::printf("theta 0, %s: largest per-body relative error %.2e\n", precision_name(prec), worst);
    EXPECT_LT(worst, prec == Precision::Double ? 1e-12 : 2e-5) << precision_name(prec);
    // every pair once, serving both bodies
    EXPECT_EQ(backend->last_work().interactions, double(b.size()) * double(b.size() - 1));
  }
}

// awkward sizes, uniform and clustered, float and double: errors at the default theta bounded
// and the total force zero to rounding
TEST(CpuFalcon, SizesAndTotalForce) {
  for (std::size_t n : {1u, 2u, 31u, 257u, 1009u, 8191u, 20011u}) {
    const bool clustered = n >= 1009;
    const Bodies b = clustered ? scene("plummer", n, 5).bodies : uniform_cube(n, n);
    for (Precision prec : {Precision::Double, Precision::Float}) {
      const SimParams p = falcon_params(-1, prec, 0.01);
      const Accel a = accelerations(p, b);
      if (n == 1) {
        EXPECT_EQ(a.x[0], 0);
        EXPECT_EQ(a.y[0], 0);
        EXPECT_EQ(a.z[0], 0);
        continue;
      }
      const ErrorStats e = error_vs_reference(p, b, 400);
      const double f = total_force(b, a);
      std::printf("N %zu %s: median %.2e p99 %.2e max %.2e, |sum m a| / sum |m a| %.1e\n", n,
                  precision_name(prec), e.median, e.p99, e.max, f);
      SCOPED_TRACE(std::to_string(n) + " " + precision_name(prec));
      if (n <= 16) {
        EXPECT_LT(e.max, prec == Precision::Double ? 1e-13 : 1e-5);
      }
      EXPECT_LT(e.median, 1e-3);
      EXPECT_LT(e.p99, 1e-2);
      EXPECT_LT(f, prec == Precision::Double ? 1e-13 : 1e-6);
    }
  }
}

// massless bodies feel the massive ones and pull on nothing: theta 0 is the direct sum over the
// massive bodies, the default theta close to it
TEST(CpuFalcon, MasslessBodiesAreNotSources) {
  Bodies b = uniform_cube(2000, 11);
  for (std::size_t i = 0; i < b.size(); ++i)
    if (i % 5 != 0) b.m[i] = 0;  // every fifth body keeps its mass
  const Accel ref = accelerations(testing::params("cpu-reference", 1e-3, 0.01, 1.0), b);
  std::vector<std::size_t> all(b.size());
  std::iota(all.begin(), all.end(), 0);
  EXPECT_LT(
      quantile(relative_errors(accelerations(falcon_params(0, Precision::Double), b), ref, all),
               1.0),
      1e-12);
  const Accel a = accelerations(falcon_params(-1, Precision::Double), b);
  EXPECT_LT(quantile(relative_errors(a, ref, all), 0.5), 1e-3);
  EXPECT_LT(total_force(b, a), 1e-13);
}

// the total force of the default galaxy collision, clustered and with two centres, is zero to
// rounding in both precisions (cpu-barnes-hut's is not: printed for comparison)
TEST(CpuFalcon, TotalForceOfAGalaxyCollision) {
  const Scene s = scene("galaxy-collision", 8192, 3);
  for (Precision prec : {Precision::Double, Precision::Float}) {
    const SimParams p = testing::params("cpu-falcon", s.dt, s.softening, s.units.G, prec);
    const SimParams bh = testing::params("cpu-barnes-hut", s.dt, s.softening, s.units.G, prec);
    const double f = total_force(s.bodies, accelerations(p, s.bodies));
    const double fb = total_force(s.bodies, accelerations(bh, s.bodies));
    std::printf("galaxy collision %s: |sum m a| / sum |m a| cpu-falcon %.1e, cpu-barnes-hut %.1e\n",
                precision_name(prec), f, fb);
    EXPECT_LT(f, prec == Precision::Double ? 1e-12 : 1e-6);
  }
}

// |P(t) - P(0)| / sum m |v| over `steps` leapfrog steps of p from the scene's start
double momentum_drift(const SimParams& p, const Scene& s, int steps) {
  const Diagnostics d0 = compute_diagnostics(s.bodies, s.units.G, s.softening);
  double scale = 0;
  for (std::size_t i = 0; i < s.bodies.size(); ++i)
    scale += s.bodies.m[i] *
             std::sqrt(s.bodies.vx[i] * s.bodies.vx[i] + s.bodies.vy[i] * s.bodies.vy[i] +
                       s.bodies.vz[i] * s.bodies.vz[i]);
  auto backend = make_backend(p);
  backend->set_bodies(s.bodies);
  backend->step(p, steps);
  Bodies b;
  backend->get_bodies(b);
  const Diagnostics d = compute_diagnostics(b, s.units.G, s.softening);
  double dp = 0;
  for (int k = 0; k < 3; ++k)
    dp += (d.momentum[k] - d0.momentum[k]) * (d.momentum[k] - d0.momentum[k]);
  return std::sqrt(dp) / scale;
}

// 300 steps (~150 Myr) of a galaxy collision in double: cpu-falcon's total momentum stays at
// rounding level; cpu-barnes-hut's drifts by orders of magnitude more
TEST(CpuFalcon, MomentumHeldOverAGalaxyCollision) {
  const Scene s = scene("galaxy-collision", 1024, 2);
  const int steps = 300;
  const double falcon = momentum_drift(
      testing::params("cpu-falcon", s.dt, s.softening, s.units.G, Precision::Double), s, steps);
  const double bh = momentum_drift(
      testing::params("cpu-barnes-hut", s.dt, s.softening, s.units.G, Precision::Double), s, steps);
  std::printf(
      "galaxy collision N 1024, %d steps, double: |dP| / sum m|v| cpu-falcon %.2e, "
      "cpu-barnes-hut %.2e\n",
      steps, falcon, bh);
  EXPECT_LT(falcon, 1e-13);
  EXPECT_GT(bh, 1000 * falcon);
}

// runs `steps` steps of p on b and returns the bodies
Bodies evolve(const SimParams& p, const Bodies& b, int steps, int chunks = 1) {
  auto backend = make_backend(p);
  backend->set_bodies(b);
  for (int c = 0; c < chunks; ++c)
    backend->step(p, steps / chunks);
  Bodies out;
  backend->get_bodies(out);
  return out;
}

TEST(CpuFalcon, Deterministic) {
  // two runs, and 1 vs 2 threads: bitwise the same
  for (Precision prec : {Precision::Float, Precision::Double}) {
    const Bodies b = scene("plummer", 20000, 4).bodies;
    SimParams p = falcon_params(0.4, prec, 0.01, 2);
    p.dt = 1.0 / 128;
    const Bodies a1 = evolve(p, b, 2);
    const Bodies a2 = evolve(p, b, 2);
    p.tunables["threads"] = 1;
    const Bodies a3 = evolve(p, b, 2);
    for (std::size_t i = 0; i < b.size(); ++i) {
      ASSERT_EQ(a1.x[i], a2.x[i]) << i;
      ASSERT_EQ(a1.vz[i], a2.vz[i]) << i;
      ASSERT_EQ(a1.x[i], a3.x[i]) << i;
      ASSERT_EQ(a1.y[i], a3.y[i]) << i;
      ASSERT_EQ(a1.vz[i], a3.vz[i]) << i;
    }
  }
}

TEST(CpuFalcon, BodiesStayInTheUsersOrder) {
  // theta 0 (the direct sum) against cpu-reference for 40 steps: the same body in the same slot
  // although the backend keeps them sorted by key; distinct masses make a mix-up visible
  Bodies b = uniform_cube(3000, 8);
  for (std::size_t i = 0; i < b.size(); ++i)
    b.component[i] = static_cast<Component>(i % kComponentCount);
  SimParams ref = testing::params("cpu-reference", 2e-3, 0.05, 1.0);
  SimParams f = falcon_params(0.0, Precision::Double, 0.05);
  f.dt = ref.dt;
  const Bodies r = evolve(ref, b, 40, 4);
  const Bodies t = evolve(f, b, 40, 4);
  ASSERT_EQ(t.size(), b.size());
  double worst = 0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    ASSERT_EQ(t.m[i], b.m[i]) << i;
    ASSERT_EQ(t.component[i], b.component[i]) << i;
    worst = std::max({worst, std::abs(t.x[i] - r.x[i]), std::abs(t.y[i] - r.y[i]),
                      std::abs(t.z[i] - r.z[i]), std::abs(t.vx[i] - r.vx[i])});
  }
  EXPECT_LT(worst, 1e-12);
}

TEST(CpuFalcon, WorkPhasesAndTreeCells) {
  const Bodies b = scene("plummer", 20000).bodies;
  const SimParams p = falcon_params(-1, Precision::Float);
  auto backend = make_backend(p);
  backend->set_bodies(b);
  backend->step(p, 2);
  const StepWork w = backend->last_work();
  const double n = static_cast<double>(b.size());
  EXPECT_GT(w.interactions, 100 * n);
  EXPECT_LT(w.interactions, 0.5 * n * n) << "a tree, not N^2";
  std::vector<std::string> names;
  for (const StepPhase& ph : w.phases) {
    names.push_back(ph.name);
    EXPECT_GE(ph.ms, 0) << ph.name;
  }
  const std::vector<std::string> expected = {"keys+sort", "build",        "moments",
                                             "walk",      "interactions", "integrate"};
  EXPECT_EQ(names, expected);
  // the octree's cells for the wireframe: the root holds every body
  std::vector<TreeCell> cells;
  ASSERT_TRUE(backend->tree_cells(2, cells));
  ASSERT_GT(cells.size(), 9u);
  EXPECT_EQ(cells[0].level, 0);
  for (std::size_t i = 0; i < b.size(); ++i)
    EXPECT_LE(std::fabs(b.x[i] - cells[0].cx), cells[0].half * 1.001);
}

}  // namespace
}  // namespace nbody

namespace nbody {
namespace {

double env_or(const char* name, double def) {
  const char* v = std::getenv(name);
  return v && *v ? std::atof(v) : def;
}

// theta sweep (a measurement, not a check): NBODY_SWEEP_SCENE (0 plummer, 1 galaxy-collision,
// 2 uniform cube), _N, _KERNEL (0 cpu-falcon, 1 cpu-barnes-hut), _PREC (0 float, 1 double)
TEST(CpuFalcon, DISABLED_ThetaSweep) {
  const int which = static_cast<int>(env_or("NBODY_SWEEP_SCENE", 0));
  const std::size_t n = static_cast<std::size_t>(env_or("NBODY_SWEEP_N", 8192));
  const bool bh = env_or("NBODY_SWEEP_KERNEL", 0) == 1;
  const Precision prec = env_or("NBODY_SWEEP_PREC", 0) == 1 ? Precision::Double : Precision::Float;
  const Scene s = which == 2 ? Scene{} : scene(which == 0 ? "plummer" : "galaxy-collision", n, 1);
  const Bodies b = which == 2 ? uniform_cube(n, 1) : s.bodies;
  const double eps = which == 2 ? 0.01 : s.softening, G = which == 2 ? 1.0 : s.units.G;
  for (double theta = env_or("NBODY_SWEEP_FROM", 0.2); theta <= env_or("NBODY_SWEEP_TO", 1) + 1e-9;
       theta += env_or("NBODY_SWEEP_STEP", 0.1)) {
    SimParams p = testing::params(bh ? "cpu-barnes-hut" : "cpu-falcon", 1e-3, eps, G, prec);
    p.tunables["theta"] = theta;
    const ErrorStats e = error_vs_reference(p, b, 1000);
    auto backend = make_backend(p);
    backend->set_bodies(b);
    Accel a;
    backend->compute_accelerations(p, a.x, a.y, a.z);
    double best = 1e30;
    for (int r = 0; r < 5; ++r) {
      backend->compute_accelerations(p, a.x, a.y, a.z);
      best = std::min(
          best, backend->last_work().phases.empty() ? 0.0 : [&] {
            double t = 0;
            for (const StepPhase& ph : backend->last_work().phases)
              t += ph.ms;
            return t;
          }());
    }
    std::printf("%s N %zu theta %.2f: median %.2e p99 %.2e max %.2e, %.2f ms, |F| %.1e\n",
                p.kernel.c_str(), n, theta, e.median, e.p99, e.max, best, total_force(b, a));
  }
}

}  // namespace
}  // namespace nbody

namespace nbody {
namespace {
// two clusters of 20 bodies (one leaf each, 40 > leaf_size 32 splits the root) that interact as
// cells: the error of the expansion (every term of total order <= 3 kept) falls as
// (size / separation)^3 relative to the other cluster's pull, which itself falls as 1 / R^2, so
// against each body's total (its own cluster's pull, about constant) as R^-5: 32x per doubling
TEST(CpuFalcon, CellCellExpansionIsThirdOrder) {
  double last = 0;
  for (double L : {10.0, 20.0, 40.0, 80.0}) {
    Bodies b;
    std::mt19937_64 rng(3);
    auto u = [&] { return static_cast<double>(rng() >> 11) * 0x1.0p-53; };
    for (int i = 0; i < 20; ++i)
      b.add(-L + 2 * u() - 1, -0.5 - u(), -0.5 - u(), 0, 0, 0, 0.5 + u());
    for (int i = 0; i < 20; ++i)
      b.add(L + 2 * u() - 1, 0.5 + u(), 0.5 + u(), 0, 0, 0, 0.5 + u());
    SimParams p = falcon_params(1.0, Precision::Double, 0.0);
    p.tunables["leaf_size"] = 32;
    const Accel a = accelerations(p, b);
    const Accel r = accelerations(testing::params("cpu-reference", 1e-3, 0.0, 1.0), b);
    std::vector<std::size_t> all(b.size());
    std::iota(all.begin(), all.end(), 0);
    const double e = quantile(relative_errors(a, r, all), 0.5);
    std::printf("separation %g: median relative error %.3e\n", 2 * L, e);
    EXPECT_GT(e, 1e-13) << "the clusters interacted as cells";
    if (last > 0) {
      EXPECT_GT(last / e, 24) << L;
      EXPECT_LT(last / e, 44) << L;
    }
    last = e;
  }
}

}  // namespace
}  // namespace nbody

namespace nbody {
namespace {
// interleaved timing of configurations "kernel:theta:leaf" given in NBODY_TUNE (space separated)
// on NBODY_SWEEP_SCENE / _N, float, NBODY_SWEEP_THREADS threads: the least time of 8 rounds
TEST(CpuFalcon, DISABLED_Tune) {
  const int which = static_cast<int>(env_or("NBODY_SWEEP_SCENE", 0));
  const std::size_t n = static_cast<std::size_t>(env_or("NBODY_SWEEP_N", 8192));
  const Scene s = scene(which == 0 ? "plummer" : "galaxy-collision", n, 1);
  struct Config {
    SimParams p;
    std::unique_ptr<ForceBackend> backend;
    double best = 1e30;
    std::string phases;
  };
  std::vector<Config> configs;
  std::string spec = std::getenv("NBODY_TUNE") ? std::getenv("NBODY_TUNE") : "";
  std::size_t pos = 0;
  while (pos < spec.size()) {
    std::size_t end = spec.find(' ', pos);
    if (end == std::string::npos) end = spec.size();
    const std::string item = spec.substr(pos, end - pos);
    pos = end + 1;
    if (item.empty()) continue;
    const std::size_t c1 = item.find(':'), c2 = item.find(':', c1 + 1);
    Config c;
    c.p = testing::params("", 1e-3, s.softening, s.units.G, Precision::Float);
    c.p.kernel = item.substr(0, c1);
    c.p.tunables["theta"] = std::atof(item.substr(c1 + 1, c2 - c1 - 1).c_str());
    c.p.tunables["leaf_size"] = std::atof(item.substr(c2 + 1).c_str());
    c.p.tunables["threads"] = env_or("NBODY_SWEEP_THREADS", 1);
    c.backend = make_backend(c.p);
    c.backend->set_bodies(s.bodies);
    configs.push_back(std::move(c));
  }
  Accel a;
  for (int r = 0; r < 8; ++r)
    for (Config& c : configs) {
      c.backend->compute_accelerations(c.p, a.x, a.y, a.z);
      double t = 0;
      std::string l;
      for (const StepPhase& ph : c.backend->last_work().phases) {
        t += ph.ms;
        l += ph.name + " " + std::to_string(ph.ms).substr(0, 5) + " ";
      }
      if (t < c.best) c.best = t, c.phases = l;
    }
  for (Config& c : configs) {
    const ErrorStats e = error_vs_reference(c.p, s.bodies, 1000);
    std::printf("%s theta %.2f leaf %.0f: %.2f ms (%s) median %.2e p99 %.2e\n", c.p.kernel.c_str(),
                c.p.tunables["theta"], c.p.tunables["leaf_size"], c.best, c.phases.c_str(),
                e.median, e.p99);
  }
}
}  // namespace
}  // namespace nbody

namespace nbody {
namespace {

// The measurement behind docs/PERFORMANCE.md (minutes; run with --gtest_also_run_disabled_tests
// --gtest_filter='*GalaxyDrift*'): the default galaxy collision, float, leapfrog at the scene's
// dt, NBODY_DRIFT_N bodies, kernel NBODY_DRIFT_KERNEL (0 cpu-falcon, 1 cpu-barnes-hut) at
// NBODY_DRIFT_THETA, NBODY_DRIFT_STEPS steps: median force error at the start, ms per step and
// per force evaluation, largest |dE/E| (every 100 steps) and |dP| / sum m|v| at the end
TEST(CpuFalcon, DISABLED_GalaxyDrift) {
  const Scene s =
      scene("galaxy-collision", static_cast<std::size_t>(env_or("NBODY_DRIFT_N", 8192)));
  const bool bh = env_or("NBODY_DRIFT_KERNEL", 0) == 1;
  SimParams p = testing::params(bh ? "cpu-barnes-hut" : "cpu-falcon", s.dt, s.softening, s.units.G,
                                Precision::Float);
  p.tunables["theta"] = env_or("NBODY_DRIFT_THETA", bh ? 0.55 : 0.25);
  const int steps = static_cast<int>(env_or("NBODY_DRIFT_STEPS", 1000));
  const ErrorStats e = error_vs_reference(p, s.bodies, 1000);
  const Diagnostics d0 = compute_diagnostics(s.bodies, s.units.G, s.softening);
  double scale = 0;
  for (std::size_t i = 0; i < s.bodies.size(); ++i)
    scale += s.bodies.m[i] *
             std::sqrt(s.bodies.vx[i] * s.bodies.vx[i] + s.bodies.vy[i] * s.bodies.vy[i] +
                       s.bodies.vz[i] * s.bodies.vz[i]);
  auto backend = make_backend(p);
  backend->set_bodies(s.bodies);
  double drift = 0, ms = 0, force_ms = 0;
  Bodies b;
  for (int done = 0; done < steps;) {
    const int chunk = std::min(100, steps - done);
    backend->step(p, chunk);
    ms += backend->last_step_ms() * chunk;
    for (const StepPhase& ph : backend->last_work().phases)
      if (ph.name != "integrate") force_ms += ph.ms * chunk;
    done += chunk;
    backend->get_bodies(b);
    const Diagnostics d = compute_diagnostics(b, s.units.G, s.softening);
    drift = std::max(drift, std::abs(relative_energy_drift(d0.total, d.total)));
  }
  const Diagnostics d = compute_diagnostics(b, s.units.G, s.softening);
  double dp = 0;
  for (int k = 0; k < 3; ++k)
    dp += (d.momentum[k] - d0.momentum[k]) * (d.momentum[k] - d0.momentum[k]);
  std::printf(
      "%s N %zu theta %.2f: median %.2e p99 %.2e; %.2f ms/step (forces %.2f ms); "
      "%d steps: max |dE/E| %.2e, |dP| / sum m|v| %.2e\n",
      p.kernel.c_str(), s.bodies.size(), p.tunables["theta"], e.median, e.p99, ms / steps,
      force_ms / steps, steps, drift, std::sqrt(dp) / scale);
}

}  // namespace
}  // namespace nbody
