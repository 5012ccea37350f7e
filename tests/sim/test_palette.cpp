#include "sim/edit/palette.hpp"

#include <cmath>

#include <gtest/gtest.h>

#include "sim/core/units.hpp"
#include "sim/edit/body_card.hpp"

using namespace nbody;

namespace {
const PaletteEntry& entry(const std::vector<PaletteEntry>& p, const std::string& label) {
  for (const PaletteEntry& e : p)
    if (e.label == label) return e;
  ADD_FAILURE() << label << " not in the palette";
  return p.front();
}
}  // namespace

TEST(Palette, SolarSystemMasses) {
  const Scene s = make_scene("solar-system");
  const auto p = palette(s);
  EXPECT_NEAR(entry(p, "Jupiter").mass / entry(p, "Earth").mass, 317.8, 0.1);
  EXPECT_DOUBLE_EQ(entry(p, "star").mass, 1.0);  // solar masses
  EXPECT_NEAR(entry(p, "Earth").mass, 3.003e-6, 1e-9);
  EXPECT_LT(entry(p, "asteroid").mass, 1e-9);
}

TEST(Palette, GalaxyAndDimensionlessMasses) {
  Scene g;
  g.units = units::galactic();  // 1e10 Msun
  g.bodies.add(0, 0, 0, 0, 0, 0, 1);
  const auto p = palette(g);
  EXPECT_NEAR(entry(p, "black hole").mass, 1e-4, 1e-12);
  EXPECT_NEAR(entry(p, "dwarf galaxy core").mass, 0.1, 1e-12);
  EXPECT_NEAR(entry(p, "star").mass, 1e-10, 1e-18);
  Scene h;
  h.units = units::henon();
  h.bodies.add(0, 0, 0, 0, 0, 0, 2);
  const auto q = palette(h);
  ASSERT_EQ(q.size(), 4u);
  EXPECT_DOUBLE_EQ(q[0].mass, 0.002);
  EXPECT_DOUBLE_EQ(q[3].mass, 2);
}

TEST(Palette, CometFromTheEdgeOfTheSolarSystem) {
  Scene s = make_scene("solar-system");
  double outer = 0;
  for (std::size_t i = 1; i < s.bodies.size(); ++i)
    outer = std::max(outer, std::hypot(s.bodies.x[i] - s.bodies.x[0], s.bodies.y[i] - s.bodies.y[0],
                                       s.bodies.z[i] - s.bodies.z[0]));
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const BodySpec c = throw_comet(s, s.units.G, seed);
    EXPECT_EQ(c.m, 0);
    EXPECT_EQ(c.name, seed == 1 ? "comet 1" : "comet 2");
    const double r = std::hypot(c.x - s.bodies.x[0], c.y - s.bodies.y[0], c.z - s.bodies.z[0]);
    EXPECT_GT(r, outer) << seed;
    // its orbit about the Sun: near-parabolic with the pericentre inside 5 AU
    Scene t = s;
    Edit add;
    add.bodies = {c};
    apply_edit(t, add);
    const BodyCard card = body_card(t, t.bodies.size() - 1, s.units.G, 0);
    EXPECT_EQ(card.dominant_name, "Sun");
    ASSERT_TRUE(card.has_elements);
    EXPECT_LT(std::abs(card.e - 1), 0.05) << seed;
    EXPECT_LT(card.q, 5.0) << seed;
    EXPECT_GT(card.q, 0.1) << seed;
    if (seed == 1) {
      apply_edit(s, add);
      EXPECT_EQ(throw_comet(s, s.units.G, 2).name, "comet 2");
      s.bodies.name.back() = "comet 7";
      EXPECT_EQ(throw_comet(s, s.units.G, 2).name, "comet 8");
      s.bodies.name.back() = "comet 1";
    }
  }
}
