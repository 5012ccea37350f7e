#include "sim/edit/body_card.hpp"

#include <cmath>

#include <gtest/gtest.h>

#include "sim/analysis/attractor.hpp"
#include "sim/core/error.hpp"
#include "sim/core/units.hpp"

using namespace nbody;

namespace {
std::size_t index_of(const Bodies& b, const std::string& name) {
  for (std::size_t i = 0; i < b.name.size(); ++i)
    if (b.name[i] == name) return i;
  ADD_FAILURE() << name << " not found";
  return 0;
}
}  // namespace

TEST(BodyCard, EarthInTheSolarSystem) {
  const Scene s = make_scene("solar-system");
  const std::size_t earth = index_of(s.bodies, "Earth"), sun = index_of(s.bodies, "Sun");
  const BodyCard c = body_card(s, earth, s.units.G, s.softening);
  EXPECT_EQ(c.name, "Earth");
  EXPECT_EQ(c.dominant, static_cast<long>(sun));
  EXPECT_EQ(c.dominant_name, "Sun");
  EXPECT_EQ(pick_dominant(s.bodies, earth, s.units.G, s.softening), static_cast<long>(sun));
  ASSERT_TRUE(c.has_elements);
  EXPECT_TRUE(c.bound);
  // the Moon moves the Earth by ~12 m/s about the barycentre: elements to ~1e-3
  EXPECT_NEAR(c.a, 1.0, 2e-3);
  EXPECT_NEAR(c.e, 0.0167, 4e-3);
  EXPECT_LT(c.inc, 0.1);               // the ecliptic is the x-y plane
  EXPECT_NEAR(c.period, 365.25, 1.0);  // days
  EXPECT_NEAR(c.distance, 1.0, 0.02);
  EXPECT_GT(c.dominance, 0.9);
  // energies against the formulae
  const Bodies& b = s.bodies;
  const double v2 =
      b.vx[earth] * b.vx[earth] + b.vy[earth] * b.vy[earth] + b.vz[earth] * b.vz[earth];
  EXPECT_DOUBLE_EQ(c.kinetic, 0.5 * b.m[earth] * v2);
  double phi = 0;
  for (std::size_t j = 0; j < b.size(); ++j) {
    if (j == earth) continue;
    const double dx = b.x[j] - b.x[earth], dy = b.y[j] - b.y[earth], dz = b.z[j] - b.z[earth];
    phi += b.m[j] / std::sqrt(dx * dx + dy * dy + dz * dz + s.softening * s.softening);
  }
  EXPECT_NEAR(c.potential, -s.units.G * b.m[earth] * phi, 1e-12 * std::abs(c.potential));
}

TEST(BodyCard, HyperbolicAndLonelyAndOutOfRange) {
  Scene s;
  s.bodies.add(0, 0, 0, 0, 0, 0, 1, Component::Star, "star");
  s.bodies.add(1, 0, 0, 0, 3, 0, 0, Component::Planet, "fast");
  const BodyCard c = body_card(s, 1, 1.0, 0.0);
  ASSERT_TRUE(c.has_elements);
  EXPECT_FALSE(c.bound);
  EXPECT_NEAR(c.e, 8.0, 1e-12);  // v² r / μ - 1 at pericentre
  EXPECT_EQ(c.period, 0);
  EXPECT_LT(c.a, 0);
  EXPECT_EQ(c.kinetic, 0);  // massless
  // the star has no massive body besides itself
  const BodyCard d = body_card(s, 0, 1.0, 0.0);
  EXPECT_EQ(d.dominant, -1);
  EXPECT_FALSE(d.has_elements);
  EXPECT_THROW(body_card(s, 2, 1.0, 0.0), Error);
}

// the Sun pulls the Moon about twice as hard as the Earth does, yet the Moon orbits the Earth:
// the card names the body whose sphere of influence holds it, as the orbit outlines do
TEST(BodyCard, TheMoonOrbitsTheEarthNotTheSun) {
  const Scene s = make_scene("solar-system");
  const std::size_t moon = index_of(s.bodies, "Moon"), earth = index_of(s.bodies, "Earth");
  const BodyCard c = body_card(s, moon, s.units.G, s.softening);
  EXPECT_EQ(c.dominant, static_cast<long>(earth));
  EXPECT_EQ(c.dominant_name, "Earth");
  EXPECT_LT(c.dominance, 0.5);  // the Sun's pull is the larger one
  ASSERT_TRUE(c.has_elements);
  EXPECT_TRUE(c.bound);
  EXPECT_NEAR(c.a * 149597870.7, 384400.0, 6000.0);  // km
  EXPECT_LT(c.e, 0.1);
  EXPECT_NEAR(c.period, 27.32, 0.5);  // sidereal month, days
  EXPECT_NEAR(c.distance * 149597870.7, 384400.0, 30000.0);
}

// a galaxy's star has no attractor by spheres of influence: the card falls back to the body that
// pulls it hardest and gives elements only when that one dominates
TEST(BodyCard, EqualMassesHaveNoAttractor) {
  Bodies b;
  b.resize(3);
  b.m = {1, 1, 1};
  b.x = {0, 1, 0};
  b.y = {0, 0, 3};
  Scene s;
  s.bodies = b;
  const std::vector<double> soi = spheres_of_influence(s.bodies);
  for (std::size_t i = 0; i < 3; ++i)
    EXPECT_EQ(attractor(s.bodies, i, soi), -1) << i;
  const BodyCard c = body_card(s, 0, 1.0, 0.0);
  EXPECT_EQ(c.dominant, 1);  // at distance 1; body 2 is at 3
  EXPECT_NEAR(c.dominance, 1.0 / (1.0 + 1.0 / 9.0), 1e-12);
}
