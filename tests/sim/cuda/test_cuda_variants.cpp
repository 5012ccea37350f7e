// The tiled kernel's variants (rsqrt flavour, tile layout, masses, flush-to-zero) and the
// pairwise-atomic kernel against the CPU oracle, at awkward N (1, 31, 257, primes, not multiples
// of the block), with the error bound each variant is expected to meet; the combinations that
// are not built and N above pairwise-atomic's limit are refused with messages that say why.
#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <string>
#include <tuple>

#include <gtest/gtest.h>

#include "sim/core/backend.hpp"
#include "sim/core/error.hpp"
#include "tests/sim/cuda/gpu_test_util.hpp"

using namespace nbody;
using namespace nbody::test;

namespace {

const char* const kRsqrt[] = {"fast", "exact", "powf", "quake1", "quake2"};
// (layout, masses) pairs
const std::pair<const char*, const char*> kMemory[] = {
    {"aos4", "inline"}, {"aos4", "const"}, {"aos4", "ldg"},  {"aos3", "inline"}, {"aos3", "const"},
    {"aos3", "ldg"},    {"soa", "inline"}, {"soa", "const"}, {"soa", "ldg"}};
const char* const kFtz[] = {"on", "off"};

// the norm-wise bound of each rsqrt flavour in float: rsqrtf, 1/sqrtf and __powf are within a
// few ulps per interaction (the float sum dominates, as for the default kernel); the fast
// inverse square root underestimates r^-3 by up to 5.3e-3 after one Newton step and 1.4e-5
// after two
double bound(const std::string& rsqrt) {
  if (rsqrt == "quake1") return 1e-2;
  if (rsqrt == "quake2") return 1e-4;
  if (rsqrt == "powf") return 5e-5;
  return 1e-5;
}

SimParams tiled_params(const std::string& rsqrt, const std::string& layout,
                       const std::string& masses, const std::string& ftz, int block = 256) {
  SimParams p;
  p.kernel = "tiled";
  p.precision = Precision::Float;
  p.G = 1.0;
  p.softening = 0.01;
  p.dt = 1e-3;
  const KernelInfo& k = find_kernel("tiled");
  p.tunables["block_size"] = block;
  p.tunables["rsqrt"] = k.find_tunable("rsqrt")->parse(rsqrt, "rsqrt");
  p.tunables["layout"] = k.find_tunable("layout")->parse(layout, "layout");
  p.tunables["masses"] = k.find_tunable("masses")->parse(masses, "masses");
  p.tunables["ftz"] = k.find_tunable("ftz")->parse(ftz, "ftz");
  return p;
}

// the error of `be`'s accelerations vs the double direct sum on its held bodies: all bodies
// (cpu-reference) up to 4,099, a sample of 512 above
AccelError error_vs_reference(ForceBackend& be, const SimParams& p) {
  std::vector<double> ax, ay, az, rx, ry, rz;
  be.compute_accelerations(p, ax, ay, az);
  Bodies h;
  be.get_bodies(h);
  const std::size_t n = h.size();
  EXPECT_EQ(ax.size(), n);
  if (n <= 4099) {
    std::vector<std::size_t> all(n);
    for (std::size_t i = 0; i < n; ++i)
      all[i] = i;
    reference_accelerations(h, all, p.G, p.softening, rx, ry, rz);
    return acceleration_error(ax, ay, az, rx, ry, rz);
  }
  const auto idx = sample_indices(n, 512);
  reference_accelerations(h, idx, p.G, p.softening, rx, ry, rz);
  std::vector<double> sx, sy, sz;
  for (std::size_t i : idx) {
    sx.push_back(ax[i]);
    sy.push_back(ay[i]);
    sz.push_back(az[i]);
  }
  return acceleration_error(sx, sy, sz, rx, ry, rz);
}

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no error)";
}

using VariantCase = std::tuple<const char*, std::pair<const char*, const char*>, const char*>;

class TiledVariant : public testing::TestWithParam<VariantCase> {};

std::string variant_name(const testing::TestParamInfo<VariantCase>& info) {
  const auto& [r, mem, f] = info.param;
  return std::string(r) + "_" + mem.first + "_" + mem.second + "_ftz" + f;
}

// every variant at N = 1, 31, 257, 1000 and 4099 (prime), ε = 0.01 and ε = 0 (the guarded
// kernels), block 256 and an awkward block of 96
TEST_P(TiledVariant, MatchesReferenceWithinItsBound) {
  NBODY_REQUIRE_GPU();
  const auto& [rsqrt, mem, ftz] = GetParam();
  for (const int block : {256, 96}) {
    for (const double eps : {0.01, 0.0}) {
      for (const std::size_t n : {1, 31, 257, 1000, 4099}) {
        if (eps == 0 && n > 257) continue;
        SCOPED_TRACE("N = " + std::to_string(n) + ", eps = " + std::to_string(eps) +
                     ", block = " + std::to_string(block));
        SimParams p = tiled_params(rsqrt, mem.first, mem.second, ftz, block);
        p.softening = eps;
        auto be = make_backend(p);
        be->set_bodies(random_bodies(n, 31 + static_cast<unsigned>(n)));
        const AccelError e = error_vs_reference(*be, p);
        EXPECT_TRUE(std::isfinite(e.max)) << "max per-body error";
        if (n == 1) {
          EXPECT_EQ(e.max, 0.0) << "a lone body feels nothing";
          continue;
        }
        EXPECT_LT(e.normwise, bound(rsqrt)) << "median " << e.median << ", max " << e.max;
        EXPECT_LT(e.median, bound(rsqrt));
        // the one-step fast inverse square root is an approximation, not rsqrtf in disguise
        if (std::string(rsqrt) == "quake1" && n >= 257) {
          EXPECT_GT(e.normwise, 1e-4);
        }
      }
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Variants, TiledVariant,
                         testing::Combine(testing::ValuesIn(kRsqrt), testing::ValuesIn(kMemory),
                                          testing::ValuesIn(kFtz)),
                         variant_name);

// a prime N in the tens of thousands (a sample checked), and N = 1,048,583 where the tiles sum
// on their own (the blocked path), for a variant of each layout
TEST(TiledVariantLargeN, PrimeSizesStayWithinTheirBounds) {
  NBODY_REQUIRE_GPU();
  const std::tuple<const char*, const char*, const char*, std::size_t> cases[] = {
      {"fast", "aos3", "inline", 65521}, {"exact", "soa", "ldg", 65521},
      {"powf", "aos4", "inline", 65521}, {"quake2", "soa", "inline", 65521},
      {"quake1", "aos3", "ldg", 65521},  {"exact", "soa", "ldg", 1048583}};
  for (const auto& [rsqrt, layout, masses, n] : cases) {
    SCOPED_TRACE(std::string(rsqrt) + " " + layout + " " + masses + " N = " + std::to_string(n));
    const SimParams p = tiled_params(rsqrt, layout, masses, "on");
    auto be = make_backend(p);
    be->set_bodies(random_bodies(n, 7));
    const AccelError e = error_vs_reference(*be, p);
    EXPECT_LT(e.normwise, bound(rsqrt)) << "median " << e.median << ", max " << e.max;
  }
}

// subnormal masses: ftz=on flushes them (zero acceleration), ftz=off keeps them
TEST(TiledVariantFtz, SubnormalMassesAreFlushedOnlyWithFtzOn) {
  NBODY_REQUIRE_GPU();
  Bodies b;
  b.add(0, 0, 0, 0, 0, 0, 1e-39);
  b.add(1, 0, 0, 0, 0, 0, 1e-39);
  for (const char* rsqrt : kRsqrt) {
    for (const char* layout : {"aos4", "soa"}) {
      SCOPED_TRACE(std::string(rsqrt) + " " + layout);
      SimParams on = tiled_params(rsqrt, layout, "inline", "on");
      SimParams off = tiled_params(rsqrt, layout, "inline", "off");
      std::vector<double> ax, ay, az;
      auto a = make_backend(on);
      a->set_bodies(b);
      a->compute_accelerations(on, ax, ay, az);
      EXPECT_EQ(ax[0], 0.0) << "flushed";
      auto c = make_backend(off);
      c->set_bodies(b);
      c->compute_accelerations(off, ax, ay, az);
      // a = m / (1 + eps²)^{3/2}, a subnormal float (about 20 significant bits at 1e-39;
      // quake1 itself is within 5.3e-3)
      const double expect = 1e-39 / std::pow(1.0001, 1.5);
      EXPECT_NEAR(ax[0], expect, 1e-2 * expect) << "kept";
      EXPECT_NEAR(ax[1], -expect, 1e-2 * expect);
    }
  }
}

// a few leapfrog steps of a variant match the CPU reference's
TEST(TiledVariantSteps, LeapfrogMatchesCpu) {
  NBODY_REQUIRE_GPU();
  for (const char* layout : {"aos3", "soa"}) {
    SimParams p = tiled_params("exact", layout, "const", "off");
    const Bodies start = random_bodies(999, 4);
    auto gpu = make_backend(p);
    gpu->set_bodies(start);
    Bodies h;
    gpu->get_bodies(h);
    SimParams rp = p;
    rp.kernel = "cpu-reference";
    rp.precision = Precision::Double;
    rp.tunables.clear();
    auto ref = make_backend(rp);
    ref->set_bodies(h);
    gpu->step(p, 3);
    ref->step(rp, 3);
    Bodies g, r;
    gpu->get_bodies(g);
    ref->get_bodies(r);
    double dx = 0, nx = 0;
    for (std::size_t i = 0; i < g.size(); ++i) {
      dx += std::pow(g.x[i] - r.x[i], 2) + std::pow(g.y[i] - r.y[i], 2) +
            std::pow(g.z[i] - r.z[i], 2);
      nx += r.x[i] * r.x[i] + r.y[i] * r.y[i] + r.z[i] * r.z[i];
    }
    EXPECT_LT(std::sqrt(dx / nx), 1e-5) << layout;
  }
}

// masses=const holds 16,384 masses: one tile more is refused, naming the limit
TEST(TiledVariantLimits, ConstantMemoryMassesRefuseLargeN) {
  NBODY_REQUIRE_GPU();
  SimParams p = tiled_params("fast", "soa", "const", "on");
  auto be = make_backend(p);
  be->set_bodies(random_bodies(16385, 1));
  std::vector<double> ax, ay, az;
  const std::string m = message_of([&] { be->compute_accelerations(p, ax, ay, az); });
  EXPECT_NE(m.find("at most 16384 masses"), std::string::npos) << m;
  // 16,384 itself fits
  auto ok = make_backend(p);
  ok->set_bodies(random_bodies(16384, 1));
  EXPECT_LT(error_vs_reference(*ok, p).normwise, 1e-5);
}

// the variants are Choice tunables of tiled, their defaults today's fastest path; runs without a
// device too
TEST(TiledVariantTable, ChoiceTunablesWithTheFastestPathAsDefault) {
  const KernelInfo& k = find_kernel("tiled");
  for (const char* key : {"rsqrt", "layout", "masses", "ftz"}) {
    const Tunable* t = k.find_tunable(key);
    ASSERT_NE(t, nullptr) << key;
    EXPECT_EQ(t->kind, TunableKind::Choice);
    EXPECT_EQ(t->def, 0) << "the default is today's fastest path";
  }
  EXPECT_EQ(k.find_tunable("rsqrt")->choices.size(), 5u);
  EXPECT_EQ(k.find_tunable("layout")->choices.size(), 3u);
  EXPECT_EQ(k.find_tunable("masses")->choices.size(), 3u);
  EXPECT_EQ(k.find_tunable("ftz")->choices.size(), 2u);
  const KernelInfo& pw = find_kernel("pairwise-atomic");
  EXPECT_TRUE(pw.gpu);
  EXPECT_TRUE(pw.supports_double);
  ASSERT_NE(pw.find_tunable("reduce"), nullptr);
  EXPECT_EQ(pw.find_tunable("reduce")->choices.size(), 3u);
}

// combinations that are not built are refused when the backend is made, naming why
TEST(TiledVariantTable, UnbuiltCombinationsAreRefusedWithAReason) {
  NBODY_REQUIRE_GPU();
  SimParams p = tiled_params("exact", "aos4", "inline", "on");
  p.precision = Precision::Double;
  EXPECT_NE(message_of([&] { make_backend(p); }).find("single-precision variant"),
            std::string::npos);
  p = tiled_params("quake1", "soa", "inline", "on");
  p.tunables["unroll"] = 4;
  EXPECT_NE(message_of([&] { make_backend(p); }).find("unroll 8 only"), std::string::npos);
  // the default in double and other unrolls of the default stay allowed
  p = tiled_params("fast", "aos4", "inline", "on");
  p.precision = Precision::Double;
  p.tunables["unroll"] = 3;
  EXPECT_NO_THROW(make_backend(p));
}

// pairwise-atomic ---------------------------------------------------------------------------

struct PairCase {
  Precision precision;
  int block, rows;
  const char* reduce;
};

class PairwiseAtomic : public testing::TestWithParam<PairCase> {};

std::string pair_name(const testing::TestParamInfo<PairCase>& info) {
  const PairCase& c = info.param;
  return std::string(precision_name(c.precision)) + "_b" + std::to_string(c.block) + "_r" +
         std::to_string(c.rows) + "_" + c.reduce;
}

SimParams pair_params(const PairCase& c) {
  SimParams p;
  p.kernel = "pairwise-atomic";
  p.precision = c.precision;
  p.G = 1.0;
  p.softening = 0.01;
  p.dt = 1e-3;
  const KernelInfo& k = find_kernel("pairwise-atomic");
  p.tunables["block_size"] = c.block;
  p.tunables["rows"] = c.rows;
  p.tunables["reduce"] = k.find_tunable("reduce")->parse(c.reduce, "reduce");
  return p;
}

TEST_P(PairwiseAtomic, MatchesReferenceForAwkwardSizes) {
  NBODY_REQUIRE_GPU();
  const PairCase c = GetParam();
  const double tol = c.precision == Precision::Float ? 1e-5 : 1e-12;
  for (const double eps : {0.01, 0.0}) {
    for (const std::size_t n : {1, 2, 31, 257, 1000, 4099}) {
      if (eps == 0 && n > 1000) continue;
      SCOPED_TRACE("N = " + std::to_string(n) + ", eps = " + std::to_string(eps));
      SimParams p = pair_params(c);
      p.softening = eps;
      auto be = make_backend(p);
      be->set_bodies(random_bodies(n, 5 + static_cast<unsigned>(n)));
      const AccelError e = error_vs_reference(*be, p);
      EXPECT_TRUE(std::isfinite(e.max));
      if (n == 1) {
        EXPECT_EQ(e.max, 0.0);
      } else {
        EXPECT_LT(e.normwise, tol) << "median " << e.median << ", max " << e.max;
      }
    }
  }
}

TEST_P(PairwiseAtomic, LeapfrogStepsMatchCpu) {
  NBODY_REQUIRE_GPU();
  const PairCase c = GetParam();
  SimParams p = pair_params(c);
  auto gpu = make_backend(p);
  gpu->set_bodies(random_bodies(600, 8));
  Bodies h;
  gpu->get_bodies(h);
  SimParams rp = p;
  rp.kernel = "cpu-reference";
  rp.precision = Precision::Double;
  rp.tunables.clear();
  auto ref = make_backend(rp);
  ref->set_bodies(h);
  gpu->step(p, 3);
  ref->step(rp, 3);
  EXPECT_GT(gpu->last_step_ms(), 0.0);
  Bodies g, r;
  gpu->get_bodies(g);
  ref->get_bodies(r);
  double dx = 0, nx = 0;
  for (std::size_t i = 0; i < g.size(); ++i) {
    dx +=
        std::pow(g.x[i] - r.x[i], 2) + std::pow(g.y[i] - r.y[i], 2) + std::pow(g.z[i] - r.z[i], 2);
    nx += r.x[i] * r.x[i] + r.y[i] * r.y[i] + r.z[i] * r.z[i];
  }
  EXPECT_LT(std::sqrt(dx / nx), c.precision == Precision::Float ? 1e-5 : 1e-12);
}

INSTANTIATE_TEST_SUITE_P(Shapes, PairwiseAtomic,
                         testing::Values(PairCase{Precision::Float, 256, 8, "block"},
                                         PairCase{Precision::Float, 256, 8, "warp"},
                                         PairCase{Precision::Float, 256, 8, "none"},
                                         PairCase{Precision::Float, 1024, 1, "block"},
                                         PairCase{Precision::Float, 96, 3, "block"},
                                         PairCase{Precision::Float, 32, 1, "block"},
                                         PairCase{Precision::Double, 256, 8, "block"},
                                         PairCase{Precision::Double, 512, 2, "warp"},
                                         PairCase{Precision::Double, 96, 1, "none"}),
                         pair_name);

// at its limit (65,536: a sample checked) it runs; one body more is refused with the limit
TEST(PairwiseAtomicLimits, RefusesAboveItsLimit) {
  NBODY_REQUIRE_GPU();
  SimParams p = pair_params({Precision::Float, 256, 8, "block"});
  auto be = make_backend(p);
  be->set_bodies(random_bodies(65536, 3));
  EXPECT_LT(error_vs_reference(*be, p).normwise, 1e-5);
  const std::string m = message_of([&] { be->set_bodies(random_bodies(65537, 3)); });
  EXPECT_NE(m.find("above its limit of 65536"), std::string::npos) << m;
  // rows must leave whole warps per row
  p.tunables["rows"] = 3;
  auto odd = make_backend(p);
  odd->set_bodies(random_bodies(100, 3));
  std::vector<double> ax, ay, az;
  const std::string r = message_of([&] { odd->compute_accelerations(p, ax, ay, az); });
  EXPECT_NE(r.find("multiple of 32 × rows"), std::string::npos) << r;
}

}  // namespace
