// Rigid halos on the GPU: every GPU kernel adds the same field as the double-precision
// reference (bodies' pull and the anchors' reaction), at awkward N, in float and double; and a
// run with moving halos conserves momentum like the CPU one and agrees with it.

#include <cmath>
#include <string>

#include "sim/analysis/diagnostics.hpp"
#include "tests/sim/cuda/gpu_test_util.hpp"

namespace nbody {
namespace {

// n random bodies (every 4th massless) plus two halos on massless anchors
Bodies bodies_with_halos(std::size_t n, unsigned seed) {
  Bodies b = test::random_bodies(n, seed);
  for (std::size_t i = 3; i < n; i += 4)
    b.m[i] = 0;
  if (b.total_mass() == 0) b.m[0] = 1.0 / static_cast<double>(n);
  const auto a1 = static_cast<std::uint32_t>(b.size());
  b.add(-0.7, 0.1, 0.0, 0.0, 0.2, 0.0, 0, Component::Dark);
  const auto a2 = static_cast<std::uint32_t>(b.size());
  b.add(0.8, -0.2, 0.1, 0.0, -0.2, 0.0, 0, Component::Dark);
  RigidHalo h1, h2;
  h1.profile = HaloProfile::Hernquist;
  h1.mass = 2;
  h1.scale = 0.5;
  h1.cut = 3;
  h1.anchor = a1;
  h2.profile = HaloProfile::Nfw;
  h2.mass = 1;
  h2.scale = 0.3;
  h2.cut = 2;
  h2.anchor = a2;
  b.halos = {h1, h2};
  b.validate("test");
  return b;
}

TEST(CudaRigidHalo, EveryGpuKernelAddsTheFieldLikeTheReference) {
  NBODY_REQUIRE_GPU();
  for (std::size_t n : {1u, 31u, 257u, 1009u, 4099u}) {
    const Bodies b = bodies_with_halos(n, 11 + static_cast<unsigned>(n));
    const std::vector<std::size_t> idx = sample_indices(b.size(), b.size());
    std::vector<double> rx, ry, rz;
    reference_accelerations(b, idx, 1.0, 0.05, rx, ry, rz);
    for (const KernelInfo& k : kernel_table()) {
      if (!k.gpu) continue;
      for (Precision prec : {Precision::Float, Precision::Double}) {
        if (prec == Precision::Double && !k.supports_double) continue;
        if (prec == Precision::Float && !k.supports_float) continue;
        SimParams p;
        p.kernel = k.name;
        p.precision = prec;
        p.softening = 0.05;
        if (k.find_tunable("theta")) p.tunables["theta"] = 0;  // exact
        auto be = make_backend(p);
        be->set_bodies(b);
        std::vector<double> ax, ay, az;
        be->compute_accelerations(p, ax, ay, az);
        const AccelError e = acceleration_error(ax, ay, az, rx, ry, rz);
        EXPECT_LT(e.max, prec == Precision::Double ? 1e-10 : 1e-3)
            << k.name << " " << precision_name(prec) << " N " << n;
        Bodies out;
        be->get_bodies(out);
        EXPECT_EQ(out.halos.size(), 2u) << k.name;
      }
    }
  }
}

TEST(CudaRigidHalo, MovingHalosConserveMomentumAndMatchTheCpu) {
  NBODY_REQUIRE_GPU();
  const Bodies b = bodies_with_halos(2000, 5);
  const Diagnostics d0 = compute_diagnostics(b, 1.0, 0.05);
  const double pscale = std::sqrt(2 * d0.kinetic * d0.mass);
  SimParams p;
  p.precision = Precision::Double;
  p.softening = 0.05;
  p.dt = 1e-3;
  p.kernel = "cpu-openmp";
  auto cpu = make_backend(p);
  cpu->set_bodies(b);
  cpu->step(p, 200);
  Bodies ref;
  cpu->get_bodies(ref);
  for (const char* k : {"tiled", "barnes-hut"}) {
    p.kernel = k;
    p.tunables.clear();
    if (std::string(k) == "barnes-hut") p.tunables["theta"] = 0;
    auto be = make_backend(p);
    be->set_bodies(b);
    be->step(p, 200);
    Bodies out;
    be->get_bodies(out);
    const Diagnostics d1 = compute_diagnostics(out, 1.0, 0.05);
    for (int c = 0; c < 3; ++c)
      EXPECT_NEAR(d1.momentum[c], d0.momentum[c], 1e-11 * pscale) << k;
    for (const RigidHalo& h : b.halos) {
      const std::size_t a = h.anchor;
      EXPECT_NEAR(out.x[a], ref.x[a], 1e-9) << k;
      EXPECT_NEAR(out.vy[a], ref.vy[a], 1e-9) << k;
    }
  }
}

}  // namespace
}  // namespace nbody
