// Rigid halos (sim/forces/external_field.hpp): the profiles against their formulas, the field as
// the gradient of the potential, every CPU kernel against the double reference with halos, and
// conservation of momentum and energy with two moving halos and massive bodies.

#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "sim/analysis/diagnostics.hpp"
#include "sim/core/backend.hpp"
#include "sim/core/scene.hpp"
#include "sim/forces/external_field.hpp"
#include "sim/io/io.hpp"

namespace nbody {
namespace {

constexpr double kPi = 3.14159265358979323846;

RigidHalo halo(HaloProfile p, double mass, double a, double cut, std::uint32_t anchor) {
  RigidHalo h;
  h.profile = p;
  h.mass = mass;
  h.scale = a;
  h.cut = cut;
  h.anchor = anchor;
  return h;
}

// acceleration of a lone test body at (r, 0, 0) from a halo centred at the origin, by a backend
double radial_accel(const RigidHalo& h, double G, double r, const char* kernel) {
  Bodies b;
  b.add(0, 0, 0, 0, 0, 0, 0, Component::Dark);  // the anchor
  b.add(r, 0, 0, 0, 0, 0, 0, Component::Disk);
  b.halos = {h};
  b.validate("test");
  SimParams p;
  p.kernel = kernel;
  p.precision = Precision::Double;
  p.G = G;
  p.softening = 0.1;  // applies to the bodies' pairs, not to the field
  auto be = make_backend(p);
  be->set_bodies(b);
  std::vector<double> ax, ay, az;
  be->compute_accelerations(p, ax, ay, az);
  EXPECT_EQ(ay[1], 0.0);
  EXPECT_EQ(az[1], 0.0);
  return -ax[1];
}

TEST(RigidHalo, HernquistCircularSpeedMatchesItsFormula) {
  // a Hernquist halo of total mass M_full truncated at the cut: v_c² = G M_full r / (r + a)²
  const double G = 43007.1, M = 20, a = 10, cut = 30;
  const double m_full = M * (cut + a) * (cut + a) / (cut * cut);
  const RigidHalo h = halo(HaloProfile::Hernquist, M, a, cut, 0);
  for (double r : {0.05, 0.5, 2.0, 8.0, 10.0, 29.9}) {
    const double vc2 = G * m_full * r / ((r + a) * (r + a));
    EXPECT_NEAR(halo_circular_speed(h, G, r), std::sqrt(vc2), 1e-12 * std::sqrt(vc2)) << r;
    for (const char* k :
         {"cpu-reference", "cpu-openmp", "cpu-symmetric", "cpu-barnes-hut", "cpu-falcon"})
      EXPECT_NEAR(radial_accel(h, G, r, k) * r, vc2, 1e-10 * vc2) << k << " r " << r;
  }
  // beyond the cut, a point mass M
  for (double r : {30.0, 45.0, 300.0})
    EXPECT_NEAR(radial_accel(h, G, r, "cpu-reference"), G * M / (r * r), 1e-12 * G * M / (r * r));
}

TEST(RigidHalo, NfwCircularSpeedMatchesItsFormula) {
  // v_c² = G M_s (ln(1 + x) - x / (1 + x)) / r, M_s = M / m(c)
  const double G = 1, M = 5, a = 2, cut = 20;
  auto m = [](double x) { return std::log(1 + x) - x / (1 + x); };
  const double ms = M / m(cut / a);
  const RigidHalo h = halo(HaloProfile::Nfw, M, a, cut, 0);
  for (double r : {0.01, 0.3, 2.0, 7.0, 19.0}) {
    const double vc2 = G * ms * m(r / a) / r;
    EXPECT_NEAR(halo_circular_speed(h, G, r), std::sqrt(vc2), 1e-10 * std::sqrt(vc2)) << r;
    EXPECT_NEAR(radial_accel(h, G, r, "cpu-openmp") * r, vc2, 1e-10 * vc2) << r;
  }
}

TEST(RigidHalo, FieldIsTheGradientOfThePotentialAndContinuousAtTheCut) {
  for (HaloProfile prof : {HaloProfile::Hernquist, HaloProfile::Nfw}) {
    const RigidHalo h = halo(prof, 3, 1.5, 12, 0);
    const ExternalField f = make_external_field({h}, 1.0);
    const HaloShape& s = f.shape[0];
    for (double r : {0.02, 0.7, 3.0, 11.9, 12.1, 40.0}) {
      const double d = 1e-5 * r;
      const double grad = (halo_potential(s, r + d) - halo_potential(s, r - d)) / (2 * d);
      double ax = 0, ay = 0, az = 0;
      halo_field(s, 1.0, r, 0, 0, ax, ay, az);
      EXPECT_NEAR(-ax, grad, 1e-7 * std::fabs(grad)) << halo_profile_name(prof) << " r " << r;
    }
    EXPECT_NEAR(halo_potential(s, 12 * (1 - 1e-12)), -1.0 / 12, 1e-10);
    EXPECT_NEAR(halo_fraction(s, 12 * (1 - 1e-12)), 1.0, 1e-10);
    // finite at the centre, zero pull on the centre itself
    EXPECT_TRUE(std::isfinite(halo_potential(s, 0.0)));
    double ax = 0, ay = 0, az = 0;
    halo_field(s, 1.0, 0, 0, 0, ax, ay, az);
    EXPECT_EQ(ax, 0.0);
  }
}

// a plummer sphere of massive bodies, some massless, and two halos on massless anchors
Bodies with_two_halos(std::size_t n) {
  Bodies b = make_scene("plummer", {n, 3, {}}).bodies;
  for (std::size_t i = 2; i < n; i += 5)
    b.m[i] = 0;
  const std::size_t a1 = b.size();
  b.add(-1.5, 0.2, 0, 0, 0.3, 0, 0, Component::Dark);
  const std::size_t a2 = b.size();
  b.add(2.0, -0.1, 0.3, 0.05, -0.4, 0, 0, Component::Dark);
  b.halos = {halo(HaloProfile::Hernquist, 2.0, 0.8, 6, static_cast<std::uint32_t>(a1)),
             halo(HaloProfile::Nfw, 1.0, 0.5, 4, static_cast<std::uint32_t>(a2))};
  b.validate("test");
  return b;
}

TEST(RigidHalo, EveryCpuKernelAddsTheFieldLikeTheReference) {
  const Bodies b = with_two_halos(257);
  const std::vector<std::size_t> idx = sample_indices(b.size(), b.size());
  std::vector<double> rx, ry, rz;
  reference_accelerations(b, idx, 1.0, 0.05, rx, ry, rz);
  for (const char* k :
       {"cpu-reference", "cpu-openmp", "cpu-symmetric", "cpu-barnes-hut", "cpu-falcon"})
    for (Precision prec : {Precision::Double, Precision::Float}) {
      if (prec == Precision::Float && std::string(k) == "cpu-reference") continue;
      SimParams p;
      p.kernel = k;
      p.precision = prec;
      p.softening = 0.05;
      if (find_kernel(k).tree) p.tunables["theta"] = 0;  // exact
      auto be = make_backend(p);
      be->set_bodies(b);
      std::vector<double> ax, ay, az;
      be->compute_accelerations(p, ax, ay, az);
      const AccelError e = acceleration_error(ax, ay, az, rx, ry, rz);
      EXPECT_LT(e.max, prec == Precision::Double ? 1e-11 : 2e-4) << k;
      // the get_bodies() round trip keeps the halos
      Bodies out;
      be->get_bodies(out);
      ASSERT_EQ(out.halos.size(), 2u) << k;
      EXPECT_EQ(out.halos[1].anchor, b.halos[1].anchor) << k;
    }
}

TEST(RigidHalo, MomentumAndEnergyAreConservedWithMovingHalos) {
  const Bodies b = with_two_halos(300);
  for (const char* k : {"cpu-reference", "cpu-barnes-hut"}) {
    SimParams p;
    p.kernel = k;
    p.precision = Precision::Double;
    p.softening = 0.05;
    p.dt = 2e-3;
    auto be = make_backend(p);
    be->set_bodies(b);
    const Diagnostics d0 = compute_diagnostics(b, 1.0, 0.05);
    be->step(p, 500);
    Bodies out;
    be->get_bodies(out);
    const Diagnostics d1 = compute_diagnostics(out, 1.0, 0.05);
    // the halos moved
    const std::size_t a = b.halos[1].anchor;
    EXPECT_GT(std::hypot(out.x[a] - b.x[a], out.y[a] - b.y[a]), 0.1) << k;
    // pairwise-antisymmetric forces: momentum to round-off (the tree's pairs are not symmetric,
    // its halo reactions are)
    const double pscale = std::sqrt(2 * d0.kinetic * d0.mass);
    for (int c = 0; c < 3; ++c)
      EXPECT_NEAR(d1.momentum[c], d0.momentum[c],
                  (std::string(k) == "cpu-reference" ? 1e-12 : 1e-3) * pscale)
          << k;
    // energy to the integrator's accuracy (includes the halos' kinetic and field energy)
    EXPECT_LT(std::fabs(relative_energy_drift(d0.total, d1.total)), 1e-3) << k;
  }
}

TEST(RigidHalo, BodiesKeepHalosThroughAppendCentreOfMassAndValidation) {
  Bodies a;
  a.add(1, 0, 0, 0, 1, 0, 1.0);
  a.add(0, 0, 0, 0, 0, 0, 0.0, Component::Dark);
  a.halos = {halo(HaloProfile::Hernquist, 3.0, 1, 5, 1)};
  Bodies b = a;
  b.append(a);
  ASSERT_EQ(b.halos.size(), 2u);
  EXPECT_EQ(b.halos[1].anchor, 3u);
  EXPECT_DOUBLE_EQ(b.total_mass(), 8.0);
  // the centre of mass counts the halo at its anchor
  a.to_centre_of_mass_frame();
  EXPECT_NEAR(1.0 * a.x[0] + 3.0 * a.x[1], 0.0, 1e-15);
  EXPECT_NEAR(1.0 * a.vy[0] + 3.0 * a.vy[1], 0.0, 1e-15);
  // bad halos are refused with the reason
  Bodies bad = a;
  bad.m[1] = 0.5;
  try {
    bad.validate("scene 'x'");
    FAIL() << "an anchor with mass was accepted";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("must be massless"), std::string::npos) << e.what();
  }
  bad = a;
  bad.halos[0].anchor = 7;
  EXPECT_THROW(bad.validate("x"), std::exception);
  bad = a;
  bad.halos[0].scale = -1;
  EXPECT_THROW(bad.validate("x"), std::exception);
  bad = a;
  bad.halos.push_back(bad.halos[0]);
  EXPECT_THROW(bad.validate("x"), std::exception);
}

TEST(RigidHalo, TestParticleCircularOrbitStaysCircular) {
  // one massless body on a circular orbit at r = 4 in a Hernquist halo for 5 orbits
  const double G = 1, r = 4;
  const RigidHalo h = halo(HaloProfile::Hernquist, 10, 2, 50, 0);
  const double v = halo_circular_speed(h, G, r);
  Bodies b;
  b.add(0, 0, 0, 0, 0, 0, 0, Component::Dark);
  b.add(r, 0, 0, 0, v, 0, 0, Component::Disk);
  b.halos = {h};
  SimParams p;
  p.kernel = "cpu-reference";
  p.precision = Precision::Double;
  p.G = G;
  const double period = 2 * kPi * r / v;
  p.dt = period / 500;
  auto be = make_backend(p);
  be->set_bodies(b);
  be->step(p, 2500);
  Bodies out;
  be->get_bodies(out);
  EXPECT_NEAR(std::hypot(out.x[1], out.y[1]), r, 1e-4 * r);
  // the halo does not move: the test body has no mass
  EXPECT_EQ(out.x[0], 0.0);
  EXPECT_EQ(out.y[0], 0.0);
}

}  // namespace
}  // namespace nbody

namespace nbody {
namespace {

TEST(RigidHalo, CsvKeepsHalosAndOtherFormatsRefuseThem) {
  Scene s;
  s.name = "halo-test";
  s.units = units::galactic();
  s.bodies.add(1, 0, 0, 0, 100, 0, 0.5, Component::Disk);
  s.bodies.add(0, 0, 0, 0, 0, 0, 0, Component::Dark);
  RigidHalo h;
  h.profile = HaloProfile::Nfw;
  h.mass = 20;
  h.scale = 10;
  h.cut = 30.5;
  h.anchor = 1;
  s.bodies.halos = {h};
  std::stringstream ss;
  io::write_csv(ss, s);
  const Scene back = io::read_csv(ss, "mem.csv");
  ASSERT_EQ(back.bodies.halos.size(), 1u);
  EXPECT_EQ(back.bodies.halos[0].profile, HaloProfile::Nfw);
  EXPECT_EQ(back.bodies.halos[0].mass, 20.0);
  EXPECT_EQ(back.bodies.halos[0].cut, 30.5);
  EXPECT_EQ(back.bodies.halos[0].anchor, 1u);
  try {
    io::check_scene_output(s, "out.bin", io::Format::Binary);
    FAIL() << "binary output of a rigid-halo scene was accepted";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("only the native CSV"), std::string::npos) << e.what();
  }
  // a malformed header value names the key
  std::stringstream bad(
      "# nbody csv v1 units=henon G=1 halos=hernquist:1:2\nx,y,z,vx,vy,vz,m\n0,0,0,0,0,0,1\n");
  try {
    io::read_csv(bad, "bad.csv");
    FAIL() << "a malformed halos header was accepted";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find("halos="), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace nbody
