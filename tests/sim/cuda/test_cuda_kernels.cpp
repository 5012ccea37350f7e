// GPU kernels against the CPU oracle: accelerations for many N, block sizes and both precisions,
// a leapfrog step, energy drift of a Plummer sphere, the interop output and the tunable checks.
// Every test that needs a device skips with the reason when there is none.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <tuple>

#include <gtest/gtest.h>

#include "sim/analysis/diagnostics.hpp"
#include "sim/core/backend.hpp"
#include "sim/core/error.hpp"
#include "sim/core/scene.hpp"
#include "tests/sim/cuda/gpu_test_util.hpp"

using namespace nbody;
using namespace nbody::test;

namespace {

const char* const kGpuKernels[] = {"naive", "tiled", "tiled2d"};
const std::size_t kSizes[] = {1, 2, 31, 32, 33, 257, 1000, 4099, 65536};

double tolerance(Precision p) {
  return p == Precision::Float ? 1e-5 : 1e-12;
}

struct Case {
  std::string kernel;
  Precision precision;
  int block;
  int block_y = 0;
  int luf = 0;
  int unroll = 4;
};

std::string case_name(const testing::TestParamInfo<Case>& info) {
  const Case& c = info.param;
  std::string s = c.kernel + "_" + precision_name(c.precision) + "_b" + std::to_string(c.block);
  if (c.kernel == "tiled2d") s += "_y" + std::to_string(c.block_y) + "_l" + std::to_string(c.luf);
  if (c.kernel == "tiled") s += "_u" + std::to_string(c.unroll);
  return s;
}

SimParams params_of(const Case& c) {
  SimParams p;
  p.kernel = c.kernel;
  p.precision = c.precision;
  // only the kernel's own tunables
  const KernelInfo& k = find_kernel(c.kernel);
  const std::pair<const char*, int> given[] = {
      {"block_size", c.block}, {"block_y", c.block_y}, {"luf", c.luf}, {"unroll", c.unroll}};
  for (const auto& [key, v] : given)
    if (k.find_tunable(key)) p.tunables[key] = v;
  p.G = 1.0;
  p.softening = 0.01;
  p.dt = 1e-3;
  return p;
}

// the positions as the backend holds them (float-rounded for float kernels)
Bodies held_bodies(ForceBackend& b) {
  Bodies h;
  b.get_bodies(h);
  return h;
}

class GpuAccel : public testing::TestWithParam<Case> {};

// accelerations vs the double reference (cpu-reference for N <= 4099, a sample of 512 above)
TEST_P(GpuAccel, MatchesReferenceForAllSizes) {
  NBODY_REQUIRE_GPU();
  const Case c = GetParam();
  for (const double eps : {0.01, 0.0}) {
    for (const std::size_t n : kSizes) {
      if (eps == 0 && n > 4099) continue;
      SCOPED_TRACE("N = " + std::to_string(n) + ", eps = " + std::to_string(eps));
      SimParams p = params_of(c);
      p.softening = eps;
      auto gpu = make_backend(p);
      gpu->set_bodies(random_bodies(n, 17 + static_cast<unsigned>(n)));
      std::vector<double> ax, ay, az, rx, ry, rz;
      gpu->compute_accelerations(p, ax, ay, az);
      ASSERT_EQ(ax.size(), n);
      const Bodies h = held_bodies(*gpu);
      if (n <= 4099) {
        SimParams rp = p;
        rp.kernel = "cpu-reference";
        rp.precision = Precision::Double;
        auto ref = make_backend(rp);
        ref->set_bodies(h);
        ref->compute_accelerations(rp, rx, ry, rz);
      } else {
        const auto idx = sample_indices(n, 512);
        reference_accelerations(h, idx, p.G, eps, rx, ry, rz);
        std::vector<double> sx, sy, sz;
        for (std::size_t i : idx) {
          sx.push_back(ax[i]);
          sy.push_back(ay[i]);
          sz.push_back(az[i]);
        }
        ax = sx;
        ay = sy;
        az = sz;
      }
      const AccelError e = acceleration_error(ax, ay, az, rx, ry, rz);
      EXPECT_LT(e.normwise, tolerance(c.precision)) << "max per-body " << e.max;
      EXPECT_TRUE(std::isfinite(e.max));
    }
  }
}

// at a million bodies a float sum of N terms is the error's main source: every kernel keeps
// it under 1e-5 (naive and tiled by summing in blocks, tiled2d by its split sums)
TEST(GpuLargeN, FloatKernelsStayAccurateAtAMillionBodies) {
  NBODY_REQUIRE_GPU();
  const std::size_t n = 1048583;  // prime: no multiple of any block size
  const Bodies b = random_bodies(n, 99);
  const auto idx = sample_indices(n, 256);
  for (const char* name : {"naive", "tiled", "tiled2d"}) {
    SCOPED_TRACE(name);
    SimParams p;
    p.kernel = name;
    p.softening = 0.01;
    auto gpu = make_backend(p);
    gpu->set_bodies(b);
    std::vector<double> ax, ay, az, rx, ry, rz, sx, sy, sz;
    gpu->compute_accelerations(p, ax, ay, az);
    reference_accelerations(held_bodies(*gpu), idx, p.G, p.softening, rx, ry, rz);
    for (std::size_t i : idx) {
      sx.push_back(ax[i]);
      sy.push_back(ay[i]);
      sz.push_back(az[i]);
    }
    const AccelError e = acceleration_error(sx, sy, sz, rx, ry, rz);
    EXPECT_LT(e.normwise, 1e-5) << "max per-body " << e.max;
  }
}

// a few leapfrog steps match the CPU reference's
TEST_P(GpuAccel, LeapfrogStepsMatchCpu) {
  NBODY_REQUIRE_GPU();
  const Case c = GetParam();
  SimParams p = params_of(c);
  const Bodies start = random_bodies(1000, 5);
  auto gpu = make_backend(p);
  gpu->set_bodies(start);
  const Bodies h = held_bodies(*gpu);
  SimParams rp = p;
  rp.kernel = "cpu-reference";
  rp.precision = Precision::Double;
  auto ref = make_backend(rp);
  ref->set_bodies(h);
  gpu->step(p, 3);
  ref->step(rp, 3);
  EXPECT_GT(gpu->last_step_ms(), 0.0);
  Bodies g, r;
  gpu->get_bodies(g);
  ref->get_bodies(r);
  double dx = 0, nx = 0, dv = 0, nv = 0;
  for (std::size_t i = 0; i < g.size(); ++i) {
    dx +=
        std::pow(g.x[i] - r.x[i], 2) + std::pow(g.y[i] - r.y[i], 2) + std::pow(g.z[i] - r.z[i], 2);
    nx += r.x[i] * r.x[i] + r.y[i] * r.y[i] + r.z[i] * r.z[i];
    // velocities change by a small amount per step: compare the change
    const double cvx = r.vx[i] - h.vx[i], cvy = r.vy[i] - h.vy[i], cvz = r.vz[i] - h.vz[i];
    dv += std::pow(g.vx[i] - r.vx[i], 2) + std::pow(g.vy[i] - r.vy[i], 2) +
          std::pow(g.vz[i] - r.vz[i], 2);
    nv += cvx * cvx + cvy * cvy + cvz * cvz;
  }
  const double tol = c.precision == Precision::Float ? 1e-5 : 1e-12;
  EXPECT_LT(std::sqrt(dx / nx), tol);
  EXPECT_LT(std::sqrt(dv / nv), 10 * tol) << "relative to the velocity change";
}

std::vector<Case> all_cases() {
  std::vector<Case> v;
  for (Precision pr : {Precision::Float, Precision::Double}) {
    for (int b : {32, 96, 256, 1024})
      v.push_back({"naive", pr, b});
    for (int b : {32, 128, 256, 1024})
      v.push_back({"tiled", pr, b, 0, 0, b == 128 ? 1 : 4});
    v.push_back({"tiled", pr, 64, 0, 0, 7});
    for (int b : {32, 128, 256, 1024})
      for (int y : {0, 1, 2, 4})
        v.push_back({"tiled2d", pr, b, y, 0});
    v.push_back({"tiled2d", pr, 128, 3, 5});
    v.push_back({"tiled2d", pr, 64, 4, 1});
    v.push_back({"tiled2d", pr, 256, 2, 256});
    // the register-hungriest variant: 8 bodies per thread
    v.push_back({"tiled2d", pr, 256, 8, 0});
    v.push_back({"tiled2d", pr, 512, 6, 3});
  }
  return v;
}

INSTANTIATE_TEST_SUITE_P(Kernels, GpuAccel, testing::ValuesIn(all_cases()), case_name);

// energy drift of 1,000 GPU steps of a Plummer sphere is within 2x of the CPU run's
TEST(GpuPhysics, PlummerEnergyDriftMatchesCpu) {
  NBODY_REQUIRE_GPU();
  SceneParams sp;
  sp.n = 1024;
  sp.seed = 3;
  const Scene scene = make_scene("plummer", sp);
  for (Precision pr : {Precision::Float, Precision::Double}) {
    SimParams p;
    p.precision = pr;
    p.G = scene.units.G;
    p.softening = 0.05;
    p.dt = 0.01;
    auto drift_of = [&](const std::string& kernel) {
      SimParams q = p;
      q.kernel = kernel;
      auto b = make_backend(q);
      b->set_bodies(scene.bodies);
      Bodies s;
      b->get_bodies(s);
      const double e0 = compute_diagnostics(s, q.G, q.softening).total;
      b->step(q, 1000);
      b->get_bodies(s);
      return relative_energy_drift(e0, compute_diagnostics(s, q.G, q.softening).total);
    };
    const double cpu = std::abs(drift_of("cpu-openmp"));
    for (const char* k : kGpuKernels) {
      const double gpu = std::abs(drift_of(k));
      SCOPED_TRACE(std::string(k) + " " + precision_name(pr));
      EXPECT_TRUE(std::isfinite(gpu));
      // within 2x (or both at the rounding floor)
      EXPECT_LE(gpu, 2 * cpu + 1e-7) << "cpu drift " << cpu << ", gpu drift " << gpu;
      EXPECT_GE(gpu, 0.5 * cpu - 1e-7) << "cpu drift " << cpu << ", gpu drift " << gpu;
    }
  }
}

// the device output receives float4 positions + mass and |v| of the held bodies
TEST(GpuOutput, WritesPositionsAndSpeedIntoDevicePointers) {
  NBODY_REQUIRE_GPU();
  const std::size_t n = 3000;
  for (const char* k : kGpuKernels) {
    for (Precision pr : {Precision::Float, Precision::Double}) {
      SimParams p;
      p.kernel = k;
      p.precision = pr;
      auto b = make_backend(p);
      ASSERT_TRUE(b->supports_device_output());
      b->set_bodies(random_bodies(n, 9));
      float4* dpos = nullptr;
      float* dspeed = nullptr;
      ASSERT_EQ(cudaMalloc(&dpos, n * sizeof(float4)), cudaSuccess);
      ASSERT_EQ(cudaMalloc(&dspeed, n * sizeof(float)), cudaSuccess);
      cudaMemset(dpos, 0xff, n * sizeof(float4));
      b->set_device_output({dpos, dspeed});
      b->step(p, 2);
      std::vector<float4> pos(n);
      std::vector<float> speed(n);
      cudaMemcpy(pos.data(), dpos, n * sizeof(float4), cudaMemcpyDeviceToHost);
      cudaMemcpy(speed.data(), dspeed, n * sizeof(float), cudaMemcpyDeviceToHost);
      b->set_device_output({});
      cudaFree(dpos);
      cudaFree(dspeed);
      Bodies h;
      b->get_bodies(h);
      for (std::size_t i = 0; i < n; ++i) {
        ASSERT_FLOAT_EQ(pos[i].x, static_cast<float>(h.x[i])) << k << " body " << i;
        ASSERT_FLOAT_EQ(pos[i].y, static_cast<float>(h.y[i]));
        ASSERT_FLOAT_EQ(pos[i].z, static_cast<float>(h.z[i]));
        ASSERT_FLOAT_EQ(pos[i].w, static_cast<float>(h.m[i]));
        const double v = std::sqrt(h.vx[i] * h.vx[i] + h.vy[i] * h.vy[i] + h.vz[i] * h.vz[i]);
        ASSERT_NEAR(speed[i], v, 1e-6 * (1 + v));
      }
    }
  }
}

// stepping twice by k equals stepping once by 2k (no state lost between calls), and the time
// per step comes from CUDA events
TEST(GpuIntegrator, SplitCallsEqualOneCall) {
  NBODY_REQUIRE_GPU();
  for (const char* k : kGpuKernels) {
    SimParams p;
    p.kernel = k;
    p.precision = Precision::Double;
    const Bodies start = random_bodies(500, 2);
    auto a = make_backend(p), b = make_backend(p);
    a->set_bodies(start);
    b->set_bodies(start);
    a->step(p, 4);
    b->step(p, 2);
    b->step(p, 2);
    Bodies ra, rb;
    a->get_bodies(ra);
    b->get_bodies(rb);
    for (std::size_t i = 0; i < ra.size(); ++i) {
      ASSERT_NEAR(ra.x[i], rb.x[i], 1e-13) << k;
      ASSERT_NEAR(ra.vx[i], rb.vx[i], 1e-13) << k;
    }
  }
}

}  // namespace

// the table has the three GPU rows with block-size tunables; runs without a device too
TEST(GpuTable, RowsAndTunables) {
  for (const char* k : kGpuKernels) {
    const KernelInfo& info = find_kernel(k);
    EXPECT_TRUE(info.gpu);
    EXPECT_TRUE(info.supports_float);
    EXPECT_TRUE(info.supports_double);
    const auto bs = std::find_if(info.tunables.begin(), info.tunables.end(),
                                 [](const Tunable& t) { return t.key == "block_size"; });
    ASSERT_NE(bs, info.tunables.end()) << k;
    EXPECT_TRUE(bs->valid(32));
    EXPECT_TRUE(bs->valid(1024));
    EXPECT_FALSE(bs->valid(100));
    EXPECT_FALSE(bs->valid(2048));
    for (const Tunable& t : info.tunables)
      EXPECT_TRUE(t.valid(t.def)) << k << " " << t.key;
  }
}

// an invalid block size is refused with the allowed values, before any device is touched
TEST(GpuTable, InvalidBlockSizeNamesAllowedValues) {
  for (const char* k : kGpuKernels) {
    SimParams p;
    p.kernel = k;
    p.tunables["block_size"] = 100;
    try {
      make_backend(p);
      FAIL() << "block size 100 accepted by " << k;
    } catch (const Error& e) {
      const std::string m = e.what();
      EXPECT_NE(m.find("block_size: 100"), std::string::npos) << m;
      EXPECT_NE(m.find("32..1024"), std::string::npos) << m;
    }
  }
}

// a GPU kernel without a device says why
TEST(GpuTable, NoDeviceIsAClearError) {
  if (cuda_available()) GTEST_SKIP() << "a CUDA device is present: " << cuda_device_summary();
  SimParams p;
  p.kernel = "tiled";
  try {
    make_backend(p);
    FAIL();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("needs a CUDA device"), std::string::npos) << e.what();
  }
}
