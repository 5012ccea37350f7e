#include "sim/edit/edit.hpp"

#include <cmath>
#include <cstring>
#include <random>
#include <sstream>

#include <gtest/gtest.h>

#include "sim/core/error.hpp"
#include "sim/core/units.hpp"
#include "tests/test_util.hpp"

using namespace nbody;

namespace {

std::string name_of(std::size_t i) {
  std::ostringstream os;
  os << 'b' << i;
  return os.str();
}

// a random scene of n bodies, some massless, with names, classes and two groups
Scene random_scene(std::size_t n, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  Scene s;
  s.name = "random";
  s.units = units::henon();
  for (std::size_t i = 0; i < n; ++i) {
    const double m = (i % 5 == 3) ? 0.0 : 0.5 + 0.5 * u(rng) + 0.6;
    s.bodies.add(u(rng), u(rng), u(rng), u(rng), u(rng), u(rng), m,
                 static_cast<Component>(i % kComponentCount), name_of(i));
    s.body_class.push_back(i % 2 ? "MBA" : "");
  }
  s.groups = {{"first", 0, n / 2}, {"second", n / 2, n}};
  return s;
}

struct Totals {
  double m = 0, p[3] = {0, 0, 0}, c[3] = {0, 0, 0};
};
Totals totals(const Bodies& b) {
  Totals t;
  for (std::size_t i = 0; i < b.size(); ++i) {
    t.m += b.m[i];
    t.p[0] += b.m[i] * b.vx[i];
    t.p[1] += b.m[i] * b.vy[i];
    t.p[2] += b.m[i] * b.vz[i];
    t.c[0] += b.m[i] * b.x[i];
    t.c[1] += b.m[i] * b.y[i];
    t.c[2] += b.m[i] * b.z[i];
  }
  return t;
}

void expect_consistent(const Scene& s) {
  const std::size_t n = s.bodies.size();
  EXPECT_EQ(s.bodies.component.size(), n);
  if (!s.bodies.name.empty()) {
    EXPECT_EQ(s.bodies.name.size(), n);
  }
  if (!s.body_class.empty()) {
    EXPECT_EQ(s.body_class.size(), n);
  }
  for (const BodyGroup& g : s.groups) {
    EXPECT_LT(g.begin, g.end);
    EXPECT_LE(g.end, n);
  }
  EXPECT_NO_THROW(s.bodies.validate("after edit"));
}

Edit make(Edit::Kind k, std::vector<std::size_t> idx) {
  Edit e;
  e.kind = k;
  e.indices = std::move(idx);
  return e;
}

}  // namespace

class EditSizes : public ::testing::TestWithParam<std::size_t> {};

TEST_P(EditSizes, AddRemoveMergeConserveMassAndMomentum) {
  const std::size_t n = GetParam();
  Scene s = random_scene(n, 7 + static_cast<unsigned>(n));
  const Totals t0 = totals(s.bodies);
  // add a body, then remove it again: back to the totals
  Edit add;
  add.bodies.push_back({0.3, -0.2, 0.1, 0.5, 0.25, -0.125, 0.75, Component::Planet, "new", "JFc"});
  apply_edit(s, add);
  ASSERT_EQ(s.bodies.size(), n + 1);
  EXPECT_EQ(s.bodies.name.back(), "new");
  EXPECT_EQ(s.body_class.back(), "JFc");
  const Totals t1 = totals(s.bodies);
  EXPECT_NEAR(t1.m, t0.m + 0.75, 1e-12 * t1.m);
  EXPECT_NEAR(t1.p[0], t0.p[0] + 0.375, 1e-12 * (1 + std::abs(t1.p[0])) * n);
  apply_edit(s, make(Edit::Kind::Remove, {n}));
  expect_consistent(s);
  const Totals t2 = totals(s.bodies);
  EXPECT_DOUBLE_EQ(t2.m, t0.m);
  if (n < 3) return;
  // merge a few bodies (a massless one among them): mass, momentum, centre of mass conserved
  std::vector<std::size_t> idx = {n - 1, 0, n / 2};
  if (n > 4) idx.push_back(3);  // massless
  Scene before = s;
  apply_edit(s, make(Edit::Kind::Merge, idx));
  ASSERT_EQ(s.bodies.size(), n + 1 - idx.size());
  expect_consistent(s);
  const Totals t3 = totals(s.bodies);
  const double scale = std::abs(t2.m) * 4;
  EXPECT_NEAR(t3.m, t2.m, 1e-14 * scale * n);
  for (int k = 0; k < 3; ++k) {
    EXPECT_NEAR(t3.p[k], t2.p[k], 1e-14 * scale * n) << k;
    EXPECT_NEAR(t3.c[k], t2.c[k], 1e-14 * scale * n) << k;
  }
  // the heaviest keeps its name
  std::size_t heaviest = idx.front();
  for (std::size_t i : idx)
    if (before.bodies.m[i] > before.bodies.m[heaviest]) heaviest = i;
  const std::size_t at = merged_index(before.bodies, idx);
  EXPECT_EQ(s.bodies.name[at], before.bodies.name[heaviest]);
  EXPECT_EQ(s.bodies.component[at], before.bodies.component[heaviest]);
  // remove several: the groups shrink by the bodies removed inside them
  if (n > 10) {
    Scene r = s;
    apply_edit(r, make(Edit::Kind::Remove, {1, 2, r.bodies.size() - 1}));
    expect_consistent(r);
    ASSERT_EQ(r.groups.size(), 2u);
    EXPECT_EQ(r.groups[1].end, r.bodies.size());
    EXPECT_EQ(r.bodies.name[0], s.bodies.name[0]);
    EXPECT_EQ(r.bodies.name[1], s.bodies.name[3]);
    EXPECT_EQ(r.body_class[1], s.body_class[3]);
  }
}

INSTANTIATE_TEST_SUITE_P(Awkward, EditSizes, ::testing::Values(1, 31, 257));

TEST(Edit, TranslateAndSetDoWhatTheySay) {
  Scene s = random_scene(31, 3);
  const Scene s0 = s;
  Edit t = make(Edit::Kind::Translate, {4, 9});
  t.dx = 0.5;
  t.dy = -1;
  t.dz = 2;
  apply_edit(s, t);
  EXPECT_EQ(s.bodies.x[4], s0.bodies.x[4] + 0.5);
  EXPECT_EQ(s.bodies.y[9], s0.bodies.y[9] - 1);
  EXPECT_EQ(s.bodies.z[9], s0.bodies.z[9] + 2);
  EXPECT_EQ(s.bodies.x[5], s0.bodies.x[5]);
  EXPECT_EQ(s.bodies.vx[4], s0.bodies.vx[4]);
  Edit set = make(Edit::Kind::Set, {7});
  BodySpec b = body_spec(s, 7);
  b.m = 3;
  b.vx = 9;
  b.name = "renamed";
  set.bodies = {b};
  apply_edit(s, set);
  const BodySpec got = body_spec(s, 7);
  EXPECT_EQ(got.m, 3);
  EXPECT_EQ(got.vx, 9);
  EXPECT_EQ(got.name, "renamed");
  EXPECT_EQ(got.x, b.x);
  EXPECT_EQ(describe(set), "set body 7 (renamed)");
}

TEST(Edit, BadEditsThrowNamingTheEdit) {
  Scene s = random_scene(5, 1);
  const Scene s0 = s;
  auto err = [&](Edit e) { return test::error_of([&] { apply_edit(s, e); }); };
  EXPECT_NE(err(make(Edit::Kind::Remove, {5})).find("out of range"), std::string::npos);
  EXPECT_NE(err(make(Edit::Kind::Remove, {5})).find("remove body 5"), std::string::npos);
  EXPECT_NE(err(make(Edit::Kind::Merge, {1, 1})).find("given twice"), std::string::npos);
  EXPECT_NE(err(make(Edit::Kind::Remove, {0, 1, 2, 3, 4})).find("every body"), std::string::npos);
  // bodies 0, 1, 2, 4 have mass, 3 has none
  EXPECT_NE(err(make(Edit::Kind::Remove, {0, 1, 2, 4})).find("positive mass"), std::string::npos);
  Edit neg;
  neg.bodies.push_back({});
  neg.bodies[0].m = -1;
  neg.label = "add a ghost";
  const std::string m = err(neg);
  EXPECT_NE(m.find("add a ghost"), std::string::npos) << m;
  EXPECT_NE(m.find("negative mass"), std::string::npos) << m;
  Edit nan = make(Edit::Kind::Translate, {0});
  nan.dx = std::nan("");
  EXPECT_NE(err(nan).find("non-finite"), std::string::npos);
  Edit set = make(Edit::Kind::Set, {0, 1});
  set.bodies.resize(1);
  EXPECT_NE(err(set).find("but 1 body given"), std::string::npos);
  EXPECT_NE(err(make(Edit::Kind::Merge, {2})).find("at least 2"), std::string::npos);
  // nothing changed
  EXPECT_EQ(s.bodies.x, s0.bodies.x);
  EXPECT_EQ(s.bodies.m, s0.bodies.m);
}

TEST(Edit, HalosFollowTheirAnchors) {
  Scene s = random_scene(31, 4);
  // bodies 3 and 8 are massless: give them halos
  s.bodies.m[8] = 0;
  s.bodies.halos.push_back({HaloProfile::Hernquist, 10, 1, 10, 3});
  s.bodies.halos.push_back({HaloProfile::Nfw, 5, 1, 10, 8});
  apply_edit(s, make(Edit::Kind::Remove, {0, 3}));
  expect_consistent(s);
  ASSERT_EQ(s.bodies.halos.size(), 1u);
  EXPECT_EQ(s.bodies.halos[0].anchor, 6u);
  EXPECT_EQ(s.bodies.halos[0].profile, HaloProfile::Nfw);
  // an anchor cannot be given mass nor merged
  Edit set = make(Edit::Kind::Set, {6});
  set.bodies = {body_spec(s, 6)};
  set.bodies[0].m = 1;
  EXPECT_NE(test::error_of([&] { apply_edit(s, set); }).find("rigid halo"), std::string::npos);
  EXPECT_NE(test::error_of([&] {
              apply_edit(s, make(Edit::Kind::Merge, {5, 6}));
            }).find("rigid halo"),
            std::string::npos);
}

TEST(Edit, MasslessMergeAveragesAndMasslessIntoMassiveKeepsIt) {
  Scene s;
  s.bodies.add(0, 0, 0, 0, 0, 0, 1, Component::Star, "sun");
  s.bodies.add(1, 0, 0, 0, 1, 0, 0, Component::Planet, "a");
  s.bodies.add(3, 0, 0, 0, 3, 0, 0, Component::Planet, "b");
  Scene t = s;
  apply_edit(t, make(Edit::Kind::Merge, {1, 2}));
  ASSERT_EQ(t.bodies.size(), 2u);
  EXPECT_EQ(t.bodies.x[1], 2);
  EXPECT_EQ(t.bodies.vy[1], 2);
  EXPECT_EQ(t.bodies.name[1], "a");
  apply_edit(s, make(Edit::Kind::Merge, {2, 0}));
  ASSERT_EQ(s.bodies.size(), 2u);
  EXPECT_EQ(s.bodies.name[0], "sun");
  EXPECT_EQ(s.bodies.x[0], 0);
  EXPECT_EQ(s.bodies.vy[0], 0);
  EXPECT_EQ(s.bodies.m[0], 1);
}
