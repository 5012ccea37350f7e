// Equilibrium of the disk-galaxy models (issue 24): the Eddington distribution function
// reproduces its density, a sampled halo is in virial equilibrium with the isotropic Jeans
// dispersions, the disk's velocities satisfy the vertical and radial Jeans equations in the
// forces the kernels compute, the virial ratio counts a rigid halo's virial, and the disk keeps
// its rotation and thickness over its first 100 Myr.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

#include "sim/analysis/diagnostics.hpp"
#include "sim/analysis/structure.hpp"
#include "sim/core/backend.hpp"
#include "sim/core/scene.hpp"
#include "sim/forces/external_field.hpp"
#include "sim/scenes/galaxy_df.hpp"
#include "tests/sim/scenes/evolve.hpp"

namespace nbody {
namespace {

constexpr double kPi = 3.14159265358979323846;

using scenes::EddingtonDf;
using scenes::RadialTable;
using scenes::TaperedHernquist;

// a Hernquist sphere (M = 1, a = 1, G = 1, cut 30 a) with its own relative potential
struct Sphere {
  RadialTable tab{1e-3, 75, 1500};
  TaperedHernquist h{1.0, 1.0, 30.0, tab};
  std::vector<double> psi, rho;
  Sphere() {
    const auto& r = tab.r();
    const std::size_t n = r.size();
    psi.assign(n, 0);
    rho.assign(n, 0);
    psi[n - 1] = h.mass() / r[n - 1];
    for (std::size_t i = n - 1; i-- > 0;)
      psi[i] =
          psi[i + 1] +
          0.5 * (h.enclosed(r[i]) / (r[i] * r[i]) + h.enclosed(r[i + 1]) / (r[i + 1] * r[i + 1])) *
              (r[i + 1] - r[i]);
    for (std::size_t i = 0; i < n; ++i)
      rho[i] = h.density(r[i]);
  }
  // isotropic Jeans dispersion sigma^2(r) = (1/rho) int_r^inf rho M / r'^2 dr'
  double jeans(double r0) const {
    const auto& r = tab.r();
    double s = 0;
    for (std::size_t i = 0; i + 1 < r.size(); ++i) {
      if (r[i + 1] <= r0) continue;
      const double a = std::max(r[i], r0), b = r[i + 1], m = 0.5 * (a + b);
      s += h.density(m) * h.enclosed(m) / (m * m) * (b - a);
    }
    return s / h.density(r0);
  }
};

TEST(GalaxyDf, EddingtonInversionReproducesTheDensity) {
  const Sphere s;
  const EddingtonDf df(s.tab.r(), s.rho, s.psi);
  // the smooth taper keeps the distribution function positive: no energy clipped
  EXPECT_LT(df.negative_fraction(), 0.01);
  for (double r : {0.05, 0.2, 1.0, 3.0, 10.0, 25.0}) {
    const double want = s.h.density(r), got = df.density_at(s.tab.at(s.psi, r));
    std::printf("r = %5.2f a: rho %.4e, from the DF %.4e (%+.2f %%)\n", r, want, got,
                100 * (got / want - 1));
    EXPECT_NEAR(got / want, 1.0, 0.02) << "r = " << r;
  }
}

TEST(GalaxyDf, SampledHaloIsInVirialEquilibriumWithTheJeansDispersions) {
  const Sphere s;
  const EddingtonDf df(s.tab.r(), s.rho, s.psi);
  scenes::Rng rng(7);
  Bodies b;
  constexpr int kN = 8192;
  for (int i = 0; i < kN; ++i) {
    const double r = s.h.sample_radius(rng);
    const auto d = rng.unit_vector(), e = rng.unit_vector();
    const double v = df.sample_speed(s.tab.at(s.psi, r), rng);
    b.add(r * d[0], r * d[1], r * d[2], v * e[0], v * e[1], v * e[2], 1.0 / kN);
  }
  const Diagnostics d = compute_diagnostics(b, 1.0, 0.005);
  std::printf("sampled Hernquist halo, N = %d: 2K/|W| = %.4f\n", kN, d.virial_ratio);
  EXPECT_NEAR(d.virial_ratio, 1.0, 0.03);
  // shells of ~1/6 of the bodies each: <v^2>/3 against the isotropic Jeans dispersion
  std::vector<std::pair<double, double>> rv;
  for (std::size_t i = 0; i < b.size(); ++i)
    rv.push_back({std::hypot(b.x[i], b.y[i], b.z[i]),
                  b.vx[i] * b.vx[i] + b.vy[i] * b.vy[i] + b.vz[i] * b.vz[i]});
  std::sort(rv.begin(), rv.end());
  const std::size_t per = rv.size() / 6;
  for (std::size_t k = 0; k + 1 < 6; ++k) {
    double v2 = 0, r = 0;
    for (std::size_t i = k * per; i < (k + 1) * per; ++i) {
      v2 += rv[i].second;
      r += rv[i].first;
    }
    v2 /= 3.0 * static_cast<double>(per);
    r /= static_cast<double>(per);
    const double want = s.jeans(r);
    std::printf("shell at r = %.2f a: sigma^2 %.4f, Jeans %.4f\n", r, v2, want);
    EXPECT_NEAR(v2 / want, 1.0, 0.1) << "r = " << r;
  }
}

TEST(GalaxyDf, SlabWithoutSofteningIsTheIsothermalSheet) {
  const scenes::SechSquaredSlab sheet(0.25, 0.0);
  for (double z : {0.0, 0.1, 0.25, 0.5}) {
    EXPECT_NEAR(sheet.pull(z), std::tanh(z / 0.25), 2e-3) << z;
    EXPECT_NEAR(sheet.slab_dispersion(z), 0.5, 5e-3) << z;  // sigma_z^2 = pi G Sigma z0
  }
  // softening weakens the pull near the plane: the layer needs less dispersion
  const scenes::SechSquaredSlab soft(0.25, 0.1);
  EXPECT_LT(soft.slab_dispersion(0), 0.49);
  EXPECT_GT(soft.slab_dispersion(0), 0.3);
}

// a disk-galaxy scene with the rigid halo (every body a star: no halo particles' noise)
Scene rigid_galaxy(std::size_t n) {
  SceneParams sp;
  sp.n = n;
  sp.values = {{"halo", 1}};
  return make_scene("disk-galaxy", sp);
}

TEST(DiskGalaxy, VirialRatioIsOneWithARigidOrLiveHalo) {
  for (double halo : {0.0, 1.0}) {
    SceneParams sp;
    sp.n = 8192;
    sp.values = {{"halo", halo}};
    const Scene s = make_scene("disk-galaxy", sp);
    const Diagnostics d = compute_diagnostics(s.bodies, s.units.G, s.softening);
    std::printf("disk-galaxy N = 8192, halo %g: 2K/|W| = %.4f\n", halo, d.virial_ratio);
    EXPECT_NEAR(d.virial_ratio, 1.0, 0.04) << "halo " << halo;
  }
}

// Each component of the live galaxy starts centred at the origin and at rest: the halo and bulge
// are drawn in mirror pairs (x, v) and (-x, -v), the disk recentred. A sampled component's centre
// is otherwise off by its noise, ~r_rms / sqrt(N) (0.1 kpc for the halo at N = 32,768), and the
// disk then oscillates through the halo and bulge, its inner and outer rings at different
// vertical frequencies: a bowl-shaped bending of +-0.05-0.08 kpc in 100 Myr (docs/GALAXIES.md).
TEST(DiskGalaxy, ComponentsStartCentredAndAtRest) {
  SceneParams sp;
  sp.n = 8192;
  const Scene s = make_scene("disk-galaxy", sp);
  for (Component c : {Component::Disk, Component::Bulge, Component::Dark}) {
    double m = 0, x[3] = {0, 0, 0}, v[3] = {0, 0, 0}, r2 = 0;
    std::size_t n = 0;
    for (std::size_t i = 0; i < s.bodies.size(); ++i) {
      if (s.bodies.component[i] != c) continue;
      const double mi = s.bodies.m[i];
      m += mi;
      ++n;
      x[0] += mi * s.bodies.x[i];
      x[1] += mi * s.bodies.y[i];
      x[2] += mi * s.bodies.z[i];
      v[0] += mi * s.bodies.vx[i];
      v[1] += mi * s.bodies.vy[i];
      v[2] += mi * s.bodies.vz[i];
      r2 += s.bodies.x[i] * s.bodies.x[i] + s.bodies.y[i] * s.bodies.y[i] +
            s.bodies.z[i] * s.bodies.z[i];
    }
    ASSERT_GT(n, 0u);
    // the noise of an unpaired sample would be r_rms / sqrt(n): at least 0.03 kpc here
    const double noise = std::sqrt(r2 / static_cast<double>(n)) / std::sqrt(static_cast<double>(n));
    for (int k = 0; k < 3; ++k) {
      EXPECT_LT(std::fabs(x[k] / m), 1e-3 * noise) << "component " << static_cast<int>(c);
      EXPECT_LT(std::fabs(v[k] / m), 1e-6) << "component " << static_cast<int>(c) << " (km/s)";
    }
  }
}

// The disk's velocities against the Jeans equations with the accelerations the tree code
// computes (rigid halo included): in annuli, the vertical virial sum v_z^2 = -z a_z and the radial
// equation <v_phi^2> = <-R a_R> + sigma_R^2 + (R / nu) d(nu sigma_R^2)/dR, the last term from the
// bodies' own binned surface density and dispersion.
TEST(DiskGalaxy, DiskVelocitiesSatisfyTheJeansEquationsInTheComputedForces) {
  const Scene s = rigid_galaxy(32768);
  SimParams p = testing::params("cpu-barnes-hut", s.dt, s.softening, s.units.G);
  auto backend = make_backend(p);
  backend->set_bodies(s.bodies);
  std::vector<double> ax, ay, az;
  backend->compute_accelerations(p, ax, ay, az);
  const Bodies& b = s.bodies;
  constexpr int kBins = 9;
  const double r0 = 1.0, dr = 1.0;  // annuli 1-10 kpc
  struct Bin {
    double n = 0, vz2 = 0, zaz = 0, vphi2 = 0, vr2 = 0, rar = 0, r = 0;
  };
  std::vector<Bin> bins(kBins);
  for (std::size_t i = 0; i < b.size(); ++i) {
    if (b.component[i] != Component::Disk) continue;
    const double R = std::hypot(b.x[i], b.y[i]);
    const int k = static_cast<int>((R - r0) / dr);
    if (k < 0 || k >= kBins) continue;
    Bin& q = bins[static_cast<std::size_t>(k)];
    const double c = b.x[i] / R, sn = b.y[i] / R;
    const double vr = b.vx[i] * c + b.vy[i] * sn, vp = b.vy[i] * c - b.vx[i] * sn;
    q.n += 1;
    q.vz2 += b.vz[i] * b.vz[i];
    q.zaz += b.z[i] * az[i];
    q.vphi2 += vp * vp;
    q.vr2 += vr * vr;
    q.rar += R * (ax[i] * c + ay[i] * sn);
    q.r += R;
  }
  // nu sigma_R^2 per unit area at each bin centre, for the pressure gradient
  std::vector<double> press(kBins);
  for (int k = 0; k < kBins; ++k) {
    const double a = r0 + k * dr;
    press[static_cast<std::size_t>(k)] =
        bins[static_cast<std::size_t>(k)].vr2 / (kPi * ((a + dr) * (a + dr) - a * a));
  }
  // from 3 kpc out: inside it the bulge dominates, sigma_R is capped at v_c / 2 and the 1 kpc
  // bins are too coarse for the steep pressure gradient (there the sums differ by ~13 %)
  // The vertical sums of a bin differ by the sampling noise of <v_z^2> over its n stars,
  // sqrt(2 / n) (4 % at 8-9 kpc, n ~ 1,200), and by a small systematic (the local slab: +5-9 % at
  // 3-4 kpc, -3-7 % at 8-9 kpc). Over seeds 1-4, with and without the spheres' mirror pairs, the
  // ratio ranged over 0.86-1.09 in single bins and its mean over the six bins over 0.975-1.027.
  // Each bin is held to 4 % + 3 standard errors, the mean to 3.5 %.
  double ratio_sum = 0;
  int ratios = 0;
  for (int k = 2; k + 1 < kBins; ++k) {
    const Bin& q = bins[static_cast<std::size_t>(k)];
    const double R = q.r / q.n, vz2 = q.vz2 / q.n, zaz = -q.zaz / q.n;
    const double vp2 = q.vphi2 / q.n, sr2 = q.vr2 / q.n, vc2 = -q.rar / q.n;
    const double nu =
        q.n / (kPi * ((r0 + (k + 1) * dr) * (r0 + (k + 1) * dr) - (r0 + k * dr) * (r0 + k * dr)));
    const double grad =
        R / nu * (press[static_cast<std::size_t>(k + 1)] - press[static_cast<std::size_t>(k - 1)]) /
        (2 * dr);
    const double jeans = vc2 + sr2 + grad;
    std::printf(
        "R %.1f kpc: <v_z^2> %.0f, <-z a_z> %.0f; <v_phi^2> %.0f, v_c^2 + sigma_R^2 + (R/nu) "
        "d(nu sigma_R^2)/dR %.0f\n",
        R, vz2, zaz, vp2, jeans);
    EXPECT_NEAR(vz2 / zaz, 1.0, 0.04 + 3 * std::sqrt(2 / q.n)) << "R = " << R;
    EXPECT_NEAR(vp2 / jeans, 1.0, 0.05) << "R = " << R;
    ratio_sum += vz2 / zaz;
    ++ratios;
  }
  std::printf("3-9 kpc: mean <v_z^2> / <-z a_z> = %.3f\n", ratio_sum / ratios);
  EXPECT_NEAR(ratio_sum / ratios, 1.0, 0.035);
}

// The fast version of docs/GALAXIES.md's runs: 100 Myr at N = 8192 on cpu-barnes-hut. With the
// rigid halo the disk keeps v/sigma within 7 % and its thickness within 10 % (measured 0.96x
// and 1.07x; the former gaussian epicyclic velocities cost 9 % of v/sigma in 20 Myr at every
// N); with the live halo the halo keeps its Lagrangian radii within 3 % (its former gaussian
// velocities made the inner halo contract ~10 %) and the disk, heated by the graininess of the
// halo and of its own particles (growth ~ particle mass, docs/GALAXIES.md), stays below 1.4x its
// thickness (measured 1.29x; 1.36x before the components were centred on one another).
TEST(DiskGalaxy, StaysInEquilibriumForItsFirst100Myr) {
  for (double halo : {1.0, 0.0}) {
    SceneParams sp;
    sp.n = 8192;
    sp.values = {{"halo", halo}};
    const Scene s = make_scene("disk-galaxy", sp);
    SimParams p = testing::params("cpu-barnes-hut", s.dt, s.softening, s.units.G, Precision::Float);
    auto backend = make_backend(p);
    backend->set_bodies(s.bodies);
    backend->step(p, 205);  // 100 Myr
    Bodies b;
    backend->get_bodies(b);
    const GroupStructure g0 = measure_structure(s.bodies, s.groups).at(0);
    const GroupStructure g1 = measure_structure(b, s.groups).at(0);
    std::printf(
        "disk-galaxy N = 8192, halo %g, 100 Myr: thickness %.3f -> %.3f kpc (%.3fx), v/sigma "
        "%.2f -> %.2f (%.3fx), r10/50/90 %.2f/%.2f/%.2f -> %.2f/%.2f/%.2f kpc\n",
        halo, g0.disk_thickness, g1.disk_thickness, g1.disk_thickness / g0.disk_thickness,
        g0.v_over_sigma, g1.v_over_sigma, g1.v_over_sigma / g0.v_over_sigma, g0.lagrangian[0],
        g0.lagrangian[2], g0.lagrangian[4], g1.lagrangian[0], g1.lagrangian[2], g1.lagrangian[4]);
    if (halo == 1.0) {
      EXPECT_GT(g1.v_over_sigma, 0.93 * g0.v_over_sigma);
      EXPECT_LT(g1.disk_thickness, 1.10 * g0.disk_thickness);
    } else {
      for (int k : {1, 2, 4})
        EXPECT_NEAR(g1.lagrangian[k] / g0.lagrangian[k], 1.0, 0.03) << "Lagrangian radius " << k;
      EXPECT_LT(g1.disk_thickness, 1.4 * g0.disk_thickness);
    }
  }
}

}  // namespace
}  // namespace nbody
