// The solar-system scene (Swiss Ephemeris, see tests/sim/sky/ for its checks against the
// ephemeris and big.in): the asset table assets/solar_system.csv matches Mercury6's big.in with
// the Earth+Moon split as documented, the Earth's sidereal year and one year of energy
// conservation.

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "sim/analysis/diagnostics.hpp"
#include "sim/core/backend.hpp"
#include "sim/core/scene.hpp"
#include "sim/io/io.hpp"
#include "tests/sim/scenes/evolve.hpp"

namespace nbody {
namespace {

constexpr double kPi = 3.14159265358979323846;

// index of the body called `name`
std::size_t index_of(const Bodies& b, const std::string& name) {
  for (std::size_t i = 0; i < b.size(); ++i)
    if (b.name[i] == name) return i;
  ADD_FAILURE() << "no body " << name;
  return 0;
}

// assets/solar_system.csv: Mercury6's big.in at JD 2451000.5
Scene heliocentric() {
  std::ifstream f(NBODY_ASSETS_DIR "/solar_system.csv");
  EXPECT_TRUE(f) << NBODY_ASSETS_DIR "/solar_system.csv";
  return io::read_csv(f, "solar_system.csv");
}

TEST(SolarSystem, BodiesUnitsAndNames) {
  const Scene s = make_scene("solar-system");
  ASSERT_EQ(s.bodies.size(), 11u);
  EXPECT_EQ(s.units.name, "solar");
  EXPECT_NEAR(s.units.G, 2.9591220828e-4, 1e-13);
  for (const char* n : {"Sun", "Mercury", "Venus", "Earth", "Moon", "Mars", "Jupiter", "Saturn",
                        "Uranus", "Neptune", "Pluto"})
    EXPECT_EQ(s.bodies.name[index_of(s.bodies, n)], n);
  EXPECT_EQ(s.bodies.component[index_of(s.bodies, "Sun")], Component::Star);
  EXPECT_EQ(s.bodies.component[index_of(s.bodies, "Jupiter")], Component::Planet);
  EXPECT_LE(s.dt, 0.25);
  EXPECT_EQ(s.softening, 0.0);
}

TEST(SolarSystem, MatchesMercury6BigIn) {
  // big.in (Mercury6 example, JD 2451000.5): JUPITER and the EARTHMOO body, verbatim
  const Scene s = heliocentric();
  const Bodies& b = s.bodies;
  const std::size_t sun = index_of(b, "Sun"), jup = index_of(b, "Jupiter");
  EXPECT_EQ(b.m[sun], 1.0);
  EXPECT_EQ(b.x[sun], 0.0);
  EXPECT_DOUBLE_EQ(b.m[jup], 9.54791938424326609E-04);
  EXPECT_DOUBLE_EQ(b.x[jup], 4.84143144246472090E+00);
  EXPECT_DOUBLE_EQ(b.vy[jup], 7.69901118419740425E-03);
  EXPECT_DOUBLE_EQ(b.z[index_of(b, "Pluto")], 6.22871533567077229E+00);

  // earth + moon: same total mass, barycentre and barycentric velocity as EARTHMOO
  const double m_em = 3.04043264264672381E-06;
  const double x_em[3] = {2.42093942183383037E-01, -9.87467766698604366E-01,
                          -4.54276292555233496E-06};
  const double v_em[3] = {1.64294055023289365E-02, 4.03200725816140870E-03,
                          1.13609607260006795E-08};
  const std::size_t e = index_of(s.bodies, "Earth"), m = index_of(s.bodies, "Moon");
  EXPECT_NEAR(b.m[e] + b.m[m], m_em, 1e-20);
  EXPECT_NEAR(b.m[e] / b.m[m], 81.3005690769, 1e-8);
  const double xe[3] = {b.x[e], b.y[e], b.z[e]}, xm[3] = {b.x[m], b.y[m], b.z[m]};
  const double ve[3] = {b.vx[e], b.vy[e], b.vz[e]}, vm[3] = {b.vx[m], b.vy[m], b.vz[m]};
  double r[3], v[3];
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR((b.m[e] * xe[k] + b.m[m] * xm[k]) / m_em, x_em[k], 1e-15) << k;
    EXPECT_NEAR((b.m[e] * ve[k] + b.m[m] * vm[k]) / m_em, v_em[k], 1e-17) << k;
    r[k] = xm[k] - xe[k];
    v[k] = vm[k] - ve[k];
  }
  // moon: 384400 km away, speed 2 pi r / 27.32 d, orbit inclined 5.145 deg to the ecliptic
  const double au_km = 149597870.7, dist = std::sqrt(r[0] * r[0] + r[1] * r[1] + r[2] * r[2]);
  EXPECT_NEAR(dist * au_km, 384400.0, 1e-6);
  const double speed = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
  EXPECT_NEAR(speed, 2 * kPi * dist / 27.32, 1e-15);
  const double h[3] = {r[1] * v[2] - r[2] * v[1], r[2] * v[0] - r[0] * v[2],
                       r[0] * v[1] - r[1] * v[0]};
  const double hn = std::sqrt(h[0] * h[0] + h[1] * h[1] + h[2] * h[2]);
  EXPECT_NEAR(std::acos(h[2] / hn) * 180 / kPi, 5.145, 1e-9);  // prograde, 5.145 deg
}

// heliocentric ecliptic longitude of the earth, unwrapped by the caller
double earth_longitude(const Bodies& b, std::size_t sun, std::size_t earth) {
  return std::atan2(b.y[earth] - b.y[sun], b.x[earth] - b.x[sun]);
}

TEST(SolarSystem, EarthSiderealYear) {
  // integrate with dt = 0.25 d and find when the earth's heliocentric longitude has advanced
  // by 2 pi (linear interpolation between steps); sidereal year 365.256 d
  const Scene s = make_scene("solar-system", {{}, 1, {{"jd", 2451000.5}}});
  const double dt = 0.25;
  auto backend = make_backend(testing::params("cpu-reference", dt, 0.0, s.units.G));
  const SimParams p = testing::params("cpu-reference", dt, 0.0, s.units.G);
  backend->set_bodies(s.bodies);
  const std::size_t sun = index_of(s.bodies, "Sun"), earth = index_of(s.bodies, "Earth");
  const double l0 = earth_longitude(s.bodies, sun, earth);
  Bodies b;
  double prev = 0, t = 0, year = 0;
  for (int k = 1; k <= 1600 && year == 0; ++k) {
    backend->step(p, 1);
    backend->get_bodies(b);
    t = k * dt;
    double adv = earth_longitude(b, sun, earth) - l0;
    while (adv < prev - kPi)
      adv += 2 * kPi;  // unwrap
    if (adv >= 2 * kPi) year = t - dt * (adv - 2 * kPi) / (adv - prev);
    prev = adv;
  }
  RecordProperty("earth_year_days", std::to_string(year));
  std::printf("earth sidereal year: %.4f d\n", year);
  EXPECT_NEAR(year, 365.26, 0.05);
}

TEST(SolarSystem, OneYearEnergyConservation) {
  const Scene s = make_scene("solar-system", {{}, 1, {{"jd", 2451000.5}}});
  const SimParams p = testing::params("cpu-reference", s.dt, 0.0, s.units.G);
  auto backend = make_backend(p);
  backend->set_bodies(s.bodies);
  const double e0 = compute_diagnostics(s.bodies, s.units.G, 0.0).total;
  const int steps = static_cast<int>(std::lround(365.25 / s.dt));
  double worst = 0;
  Bodies b;
  for (int k = 0; k < steps; k += 73) {
    backend->step(p, std::min(73, steps - k));
    backend->get_bodies(b);
    const Diagnostics d = compute_diagnostics(b, s.units.G, 0.0);
    worst = std::max(worst, std::abs(relative_energy_drift(e0, d.total)));
    ASSERT_TRUE(d.finite);
  }
  std::printf("solar system, one year, dt = %g d: max |dE/E| = %.3e\n", s.dt, worst);
  EXPECT_LT(worst, 1e-6);
  // the moon stays bound to the earth
  const std::size_t e = index_of(s.bodies, "Earth"), m = index_of(s.bodies, "Moon");
  const double d = std::hypot(b.x[m] - b.x[e], b.y[m] - b.y[e], b.z[m] - b.z[e]);
  EXPECT_NEAR(d * 149597870.7, 384400.0, 40000.0);
}

}  // namespace
}  // namespace nbody
