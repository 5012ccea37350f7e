// The integrator table, and each kick-drift composition on a harmonic oscillator (a = -x,
// exact solution known): its order, its energy staying bounded (symplectic), and running back
// with -dt to the start (time-reversible). The integrators that read the state (IAS15, WHFast)
// have files of their own (test_ias15.cpp, test_whfast.cpp); here they refuse a store without
// state.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>

#include "sim/core/error.hpp"
#include "sim/core/scene.hpp"
#include "sim/core/simulation.hpp"
#include "sim/integrators/integrator.hpp"

using namespace nbody;

namespace {

// one body on a spring, a = -x, in double
struct Oscillator final : StepOps {
  double x = 1, v = 0, a = -1;
  int evaluations = 0, closing = 0;
  void evaluate_forces(const SimParams&) override {
    a = -x;
    ++evaluations;
  }
  void kick_drift(const SimParams& p, double kick, double drift) override {
    v += kick * p.dt * a;
    x += drift * p.dt * v;
  }
  void closing_kick(const SimParams& p, double kick) override {
    kick_drift(p, kick, 0);
    ++closing;
  }
};

// position error after time T = 2 (several calls of `per_call` steps) with step dt
double error_at(const IntegratorRow& r, double dt, int per_call = 7) {
  Oscillator o;
  SimParams p;
  p.dt = dt;
  const int steps = static_cast<int>(std::lround(2.0 / dt));
  for (int done = 0; done < steps; done += per_call)
    r.run(o, p, std::min(per_call, steps - done));
  return std::abs(o.x - std::cos(steps * dt));
}

std::string test_error(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return {};
}

}  // namespace

TEST(Integrators, TableNamesAliasesAndCosts) {
  ASSERT_GE(integrator_table().size(), 2u);
  for (const IntegratorRow& r : integrator_table()) {
    SCOPED_TRACE(r.name);
    EXPECT_EQ(&find_integrator(r.id), &r);
    EXPECT_EQ(&find_integrator(r.name, "--integrator"), &r);
    for (const std::string& a : r.aliases)
      EXPECT_EQ(&find_integrator(a, "--integrator"), &r);
    EXPECT_EQ(integrator_name(r.id), r.name);
    EXPECT_EQ(parse_integrator(r.name), r.id);
    EXPECT_EQ(force_evaluations(r.id), r.force_evaluations);
    EXPECT_NE(r.run, nullptr);
    EXPECT_FALSE(r.description.empty());
  }
  try {
    find_integrator("rk45", "--integrator");
    ADD_FAILURE() << "an unknown name was accepted";
  } catch (const Error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("--integrator"), std::string::npos) << what;
    EXPECT_NE(what.find("rk45"), std::string::npos) << what;
    EXPECT_NE(what.find("leapfrog"), std::string::npos) << what;
  }
}

TEST(Integrators, StateIntegratorsRefuseAStoreWithoutState) {
  int rows = 0;
  for (const IntegratorRow& r : integrator_table()) {
    if (!r.needs_state) continue;
    ++rows;
    SCOPED_TRACE(r.name);
    Oscillator o;  // offers kicks and drifts only, as the GPU store does
    SimParams p;
    p.dt = 0.01;
    const std::string what = test_error([&] { r.run(o, p, 1); });
    EXPECT_NE(what.find("host only"), std::string::npos) << what;
    EXPECT_EQ(o.evaluations, 0);
  }
  EXPECT_EQ(rows, 2);  // ias15, whfast
}

TEST(Integrators, ForceEvaluationsPerStepAsTheRowSays) {
  for (const IntegratorRow& r : integrator_table()) {
    if (r.needs_state) continue;
    SCOPED_TRACE(r.name);
    Oscillator o;
    SimParams p;
    p.dt = 0.01;
    r.run(o, p, 10);
    EXPECT_EQ(o.evaluations, 10 * r.force_evaluations);
    EXPECT_EQ(o.closing, 1);  // one closing kick per call, where the store shows the state
  }
}

TEST(Integrators, ConvergeAtTheirOrder) {
  for (const IntegratorRow& r : integrator_table()) {
    if (r.needs_state) continue;
    SCOPED_TRACE(r.name);
    const double e1 = error_at(r, 0.02), e2 = error_at(r, 0.01);
    const double order = std::log2(e1 / e2);
    EXPECT_NEAR(order, r.order, 0.15) << "errors " << e1 << ", " << e2;
  }
}

TEST(Integrators, SymplecticEnergyStaysBoundedAndTimeReversible) {
  for (const IntegratorRow& r : integrator_table()) {
    if (r.needs_state) continue;
    SCOPED_TRACE(r.name);
    Oscillator o;
    SimParams p;
    p.dt = 0.1;
    double worst = 0;
    for (int call = 0; call < 2000; ++call) {  // 20,000 steps, ~318 periods
      r.run(o, p, 10);
      worst = std::max(worst, std::abs(0.5 * (o.x * o.x + o.v * o.v) - 0.5));
    }
    // bounded, not growing: a symplectic map conserves a nearby energy
    EXPECT_LT(worst, r.order == 2 ? 2e-3 : 1e-5);
    if (!r.time_reversible) continue;
    // back with -dt to the start
    const double x1 = o.x, v1 = o.v;
    p.dt = -0.1;
    for (int call = 0; call < 2000; ++call)
      r.run(o, p, 10);
    EXPECT_NEAR(o.x, 1.0, 1e-9);
    EXPECT_NEAR(o.v, 0.0, 1e-9);
    (void)x1;
    (void)v1;
  }
}

// A whole simulation run backwards (dt < 0, issue 19) retraces its path to the start: the
// integrators are time-reversible, so only round-off separates them, on every CPU kernel.
TEST(Integrators, ASimulationRunBackwardsReturnsToItsStart) {
  for (const char* kernel : {"cpu-reference", "cpu-symmetric", "cpu-barnes-hut"}) {
    for (Integrator integ : {Integrator::Leapfrog, Integrator::Yoshida4}) {
      SceneParams sp;
      sp.n = 257;
      sp.seed = 5;
      Scene scene = make_scene("plummer", sp);
      SimParams p;
      p.kernel = kernel;
      p.precision = Precision::Double;
      p.integrator = integ;
      p.dt = 1e-3;
      p.softening = 0.01;
      p.steps_per_frame = 200;
      Simulation sim(scene, p);
      const Bodies start = sim.bodies();
      sim.step(p);
      const Bodies mid = sim.bodies();
      double moved = 0;
      for (std::size_t i = 0; i < start.size(); ++i)
        moved = std::max(moved, std::abs(mid.x[i] - start.x[i]));
      p.dt = -1e-3;
      validate(p);  // backwards is a valid run
      sim.step(p);
      const Bodies& end = sim.bodies();
      double err = 0;
      for (std::size_t i = 0; i < start.size(); ++i) {
        err = std::max(err, std::abs(end.x[i] - start.x[i]) + std::abs(end.vx[i] - start.vx[i]));
      }
      EXPECT_GT(moved, 1e-3) << kernel;
      // the tree's forces are not exactly antisymmetric in time (cells open differently along
      // the way back), the direct sums are
      EXPECT_LT(err, std::string(kernel) == "cpu-barnes-hut" ? 1e-5 : 1e-10)
          << kernel << " " << static_cast<int>(integ);
      EXPECT_NEAR(sim.time(), 0.0, 1e-12);
    }
  }
}
