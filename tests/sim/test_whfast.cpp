// WHFast (sim/integrators/whfast.cpp) against its published properties (Wisdom & Holman 1991,
// Rein & Tamayo 2015): exact for a pure two-body problem (the Kepler drift is the solution), an
// energy error that stays bounded over 1e5 steps of the outer solar system and shrinks with the
// symplectic correctors, test particles carried with the planets, and its speed against the
// leapfrog and IAS15 on the outer planets (docs/PERFORMANCE.md).
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <vector>

#include "sim/core/error.hpp"
#include "sim/integrators/integrator.hpp"
#include "tests/sim/orbits.hpp"

using namespace nbody;
using namespace nbody::testing;

namespace {

// max |dE/E| of the outer planets over `steps` steps of dt (in calls of `batch`), and of its
// first and last fifth
struct EnergyRun {
  double first = 0, last = 0, all = 0, seconds = 0;
};
EnergyRun outer_energy(Integrator integ, double dt, long steps, int corrector, int batch) {
  Bodies b = outer_planets();
  SimParams p;
  auto backend = backend_for(b, p, integ, kGaussG, dt);
  p.whfast_corrector = corrector;
  const double e0 = energy(*backend, kGaussG);
  EnergyRun r;
  const auto t0 = std::chrono::steady_clock::now();
  for (long done = 0; done < steps; done += batch) {
    backend->step(p, batch);
    const double err = std::abs((energy(*backend, kGaussG) - e0) / e0);
    r.all = std::max(r.all, err);
    if (done < steps / 5) r.first = std::max(r.first, err);
    if (done >= steps - steps / 5) r.last = std::max(r.last, err);
  }
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return r;
}

}  // namespace

TEST(WHFast, RowSaysHostOnly) {
  const IntegratorRow& r = find_integrator(Integrator::WHFast);
  EXPECT_EQ(r.name, "whfast");
  EXPECT_TRUE(r.needs_state);
  EXPECT_FALSE(r.needs_double);
  EXPECT_TRUE(r.symplectic);
  EXPECT_FALSE(r.adaptive);
  SimParams p;
  p.integrator = Integrator::WHFast;
  EXPECT_THROW(validate_integrator(p, true), Error);
  EXPECT_NO_THROW(validate_integrator(p, false));
}

// A planet of 1e-3 solar masses on an e = 0.5 orbit, in steps of 1/73 of the period: the Kepler
// drift is the whole motion and the kick cancels, so the relative orbit follows Kepler's equation
// to round-off (1e-13 after an orbit) where the leapfrog at the same step is 1e-3 off.
TEST(WHFast, ExactForTwoBodies) {
  const double a = 1.0, e = 0.5, m = 1e-3;
  const Bodies b = kepler_pair(1.0, 1.0, m, a, e);
  const double period = 2 * kPi / std::sqrt(1.0 + m);
  auto error_after = [&](Integrator integ, int corrector, int steps) {
    SimParams p;
    auto backend = backend_for(b, p, integ, 1.0, period / 73);
    p.whfast_corrector = corrector;
    backend->step(p, steps);
    Bodies end;
    backend->get_bodies(end);
    double x = 0, y = 0;
    kepler_position(1.0 + m, a, e, steps * p.dt, x, y);
    return std::hypot(end.x[1] - end.x[0] - x, end.y[1] - end.y[0] - y, end.z[1] - end.z[0]);
  };
  for (int corrector : {0, 11}) {
    const double one = error_after(Integrator::WHFast, corrector, 73);
    const double ten = error_after(Integrator::WHFast, corrector, 730);
    std::printf("whfast two-body, corrector %d: position error %.3g after 1 orbit, %.3g after 10\n",
                corrector, one, ten);
    EXPECT_LT(one, 1e-13);
    EXPECT_LT(ten, 1e-12);  // round-off's growth
  }
  EXPECT_GT(error_after(Integrator::Leapfrog, 0, 73), 1e-4);
}

// 1e5 steps of 100 days (27,000 years) of the outer solar system: the energy error oscillates
// and stays bounded (the last fifth no larger than the first, within a factor), and the
// correctors shrink it (Wisdom, Holman & Touma 1996; Rein & Tamayo 2015, Fig. 3).
TEST(WHFast, EnergyBoundedOverOuterPlanetsAndCorrectorsHelp) {
  const long steps = 100000;
  const EnergyRun plain = outer_energy(Integrator::WHFast, 100.0, steps, 0, 1000);
  const EnergyRun c5 = outer_energy(Integrator::WHFast, 100.0, steps, 5, 1000);
  const EnergyRun c11 = outer_energy(Integrator::WHFast, 100.0, steps, 11, 1000);
  std::printf(
      "whfast outer planets 1e5 x 100 d: max |dE/E| no corrector %.3g (first fifth %.3g, "
      "last %.3g), corrector 5 %.3g, corrector 11 %.3g\n",
      plain.all, plain.first, plain.last, c5.all, c11.all);
  EXPECT_LT(plain.all, 1e-5);
  EXPECT_LT(plain.last, 2 * plain.first);  // no drift
  EXPECT_LT(c11.last, 2 * c11.first + 1e-12);
  EXPECT_LT(c5.all, plain.all / 10);
  EXPECT_LT(c11.all, plain.all / 10);
}

// A test particle (mass 0) at 45 AU among the giants, WHFast against IAS15 over 1,000 years.
TEST(WHFast, TestParticlesWithThePlanets) {
  Bodies b = outer_planets();
  const double r = 45.0, v = std::sqrt(kGaussG * 1.001 / r);
  b.add(0, -r, 0, v, 0, 0, 0.0, Component::Star, "particle");
  SimParams pw, pi;
  auto wh = backend_for(b, pw, Integrator::WHFast, kGaussG, 365.25 / 16);
  auto ias = backend_for(b, pi, Integrator::IAS15, kGaussG, 365.25);
  wh->step(pw, 16 * 1000);
  ias->step(pi, 1000);
  Bodies a, c;
  wh->get_bodies(a);
  ias->get_bodies(c);
  double worst = 0;
  for (std::size_t i = 0; i < b.size(); ++i) {
    const double d = std::hypot(a.x[i] - c.x[i], a.y[i] - c.y[i], a.z[i] - c.z[i]);
    std::printf("whfast vs ias15, 1000 yr: %-8s %.3g AU\n", b.name[i].c_str(), d);
    worst = std::max(worst, d);
  }
  EXPECT_LT(worst, 1e-4);
  EXPECT_EQ(a.m[5], 0.0);
  EXPECT_GT(std::hypot(a.x[5] - b.x[5], a.y[5] - b.y[5]), 1.0);  // it moved
}

// With the 1PN term in the kicks, Mercury's perihelion advances by 42.98"/century (within 1 %)
// at a step of 1 day, and the Newtonian run adds no spurious advance (Kepler drifts are exact).
TEST(WHFast, MercuryPerihelionAdvanceWithOnePN) {
  const double gr = mercury_advance(Integrator::WHFast, true, 1.0, 10, 3.0);
  const double newtonian = mercury_advance(Integrator::WHFast, false, 1.0, 10, 3.0);
  std::printf("whfast dt 1 d, Mercury perihelion: 1PN %.4f\"/century, Newtonian %.2g\"/century\n",
              gr, newtonian);
  EXPECT_NEAR(gr, 42.98, 0.01 * 42.98);
  EXPECT_LT(std::abs(newtonian), 0.1);
}

// Forward then back with -dt: the map is time-reversible.
TEST(WHFast, RunsBackwardsToItsStart) {
  EXPECT_LT(round_trip_error(Integrator::WHFast, 100.0, 1000), 1e-9);
}

// Wall time per simulated time on the outer planets, at each integrator's working step
// (printed for docs/PERFORMANCE.md; the check is on accuracy per cost: WHFast at the leapfrog's
// step has a far smaller energy error).
TEST(WHFast, SpeedAgainstLeapfrogAndIas15) {
  const long steps = 20000;  // 5,476 years at 100 days
  const EnergyRun wh = outer_energy(Integrator::WHFast, 100.0, steps, 11, 1000);
  const EnergyRun lf = outer_energy(Integrator::Leapfrog, 100.0, steps, 0, 1000);
  const EnergyRun lf10 = outer_energy(Integrator::Leapfrog, 10.0, steps * 10, 0, 10000);
  const EnergyRun ias = outer_energy(Integrator::IAS15, 36525.0, steps / 365, 0, 1);
  std::printf(
      "outer planets, 5,476 yr (2 cores shared): whfast dt 100 d %.3f s |dE/E| %.2g; leapfrog "
      "dt 100 d %.3f s %.2g; leapfrog dt 10 d %.3f s %.2g; ias15 %.3f s %.2g\n",
      wh.seconds, wh.all, lf.seconds, lf.all, lf10.seconds, lf10.all, ias.seconds, ias.all);
  EXPECT_LT(wh.all, lf.all / 100);
  EXPECT_LT(wh.all, lf10.all / 100);  // at a tenth of the leapfrog's cost
  EXPECT_LT(ias.all, 1e-14);
}
