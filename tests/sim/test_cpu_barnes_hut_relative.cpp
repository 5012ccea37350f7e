// cpu-barnes-hut's relative opening (tunable alpha, tree::relative_opening_size): the sizes of
// the cells, the accuracy it buys at a large theta with fewer interactions, awkward sizes against
// the direct sum, and alpha = 0 leaving the kernel as it was.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <vector>

#include "sim/core/backend.hpp"
#include "sim/core/scene.hpp"
#include "sim/tree/octree.hpp"
#include "tests/sim/scenes/evolve.hpp"
#include "tests/test_util.hpp"

namespace nbody {
namespace {

Bodies plummer(std::size_t n, std::uint64_t seed) {
  return testing::generated_scene("plummer", n, seed).bodies;
}

// n bodies uniform in the cube [-1, 1]^3, masses in [0.5, 1.5] / n
Bodies uniform_cube(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto u = [&] { return static_cast<double>(rng() >> 11) * 0x1.0p-53; };
  Bodies b;
  for (std::size_t i = 0; i < n; ++i)
    b.add(2 * u() - 1, 2 * u() - 1, 2 * u() - 1, 0, 0, 0, (0.5 + u()) / static_cast<double>(n));
  return b;
}

SimParams bh_params(double theta, double alpha, Precision prec) {
  SimParams p = testing::params("cpu-barnes-hut", 1e-3, 0.01, 1.0, prec);
  p.tunables["theta"] = theta;
  p.tunables["alpha"] = alpha;
  p.tunables["threads"] = 2;
  return p;
}

struct Outcome {
  AccelError error;     // against the double direct sum on the sample
  double interactions;  // the kernel's count (of the step after): both walks'
};

// one force evaluation of p on b, checked on `samples` bodies
Outcome run(const SimParams& p, const Bodies& b, std::size_t samples) {
  const std::vector<std::size_t> idx = sample_indices(b.size(), samples);
  std::vector<double> rx, ry, rz, ax, ay, az, sx, sy, sz;
  reference_accelerations(b, idx, p.G, p.softening, rx, ry, rz);
  auto backend = make_backend(p);
  backend->set_bodies(b);
  backend->compute_accelerations(p, ax, ay, az);
  for (std::size_t i : idx) {
    sx.push_back(ax[i]);
    sy.push_back(ay[i]);
    sz.push_back(az[i]);
  }
  backend->step(p, 1);
  return {acceleration_error(sx, sy, sz, rx, ry, rz), backend->last_work().interactions};
}

// the octree of b (sorted in place as the kernel does), with moments for theta and alpha
template <typename T>
struct SortedTree {
  tree::Octree<T> tree;
  std::vector<T> x, y, z, m;

  SortedTree(const Bodies& b, double theta, double alpha, int leaf_size = 16) {
    const std::size_t n = b.size();
    std::vector<T> ux(b.x.begin(), b.x.end()), uy(b.y.begin(), b.y.end()),
        uz(b.z.begin(), b.z.end());
    tree.sort(ux.data(), uy.data(), uz.data(), n, 2);
    for (std::uint32_t k : tree.permutation()) {
      x.push_back(ux[k]);
      y.push_back(uy[k]);
      z.push_back(uz[k]);
      m.push_back(static_cast<T>(b.m[k]));
    }
    tree.build(leaf_size, 2);
    tree.moments(x.data(), y.data(), z.data(), m.data(), theta, 2, false, alpha);
  }
};

// the main walk's and the first walk's interactions of the tree over b (the kernel's CPU
// defaults: leaf 16, group 64), and its accelerations in the tree's order
template <typename T>
tree::TraversalWork tree_work(const Bodies& b, double theta, double alpha, int threads,
                              std::vector<T>* a = nullptr) {
  SortedTree<T> st(b, theta, alpha);
  std::vector<T> ax(b.size()), ay(b.size()), az(b.size());
  const tree::TraversalWork w =
      st.tree.accelerations(st.x.data(), st.y.data(), st.z.data(), st.m.data(), T(1), T(1e-4), 64,
                            true, ax.data(), ay.data(), az.data(), threads);
  if (a) {
    a->clear();
    for (const std::vector<T>* v : {&ax, &ay, &az})
      a->insert(a->end(), v->begin(), v->end());
  }
  return w;
}

// every node's relative size is relative_opening_size(mass, extent) with the extent a bound of
// its bodies' distance from its centre of mass: exact for the leaves, at least the true one above
// (so the multipole's error bound M b^3 / d^5 holds); one-body cells get ~0. alpha = 0 or
// theta = 0 sets nothing up.
TEST(CpuBarnesHutRelative, CellSizesBoundTheBodies) {
  for (const Bodies& b : {plummer(3000, 1), uniform_cube(2500, 3)}) {
    SortedTree<double> st(b, 1.0, 0.003);
    ASSERT_TRUE(st.tree.relative());
    const tree::Nodes& nd = st.tree.nodes();
    std::size_t single = 0;
    for (std::size_t i = 0; i < nd.size(); ++i) {
      const tree::Multipole<double>& q = st.tree.multipole(i);
      double extent = 0;
      for (std::uint32_t k = nd.begin[i]; k < nd.begin[i] + nd.count[i]; ++k)
        extent = std::max(extent, std::hypot(st.x[k] - q.x, st.y[k] - q.y, st.z[k] - q.z));
      // (M b^3)^(2/5), the size in the test d^2 > s * (alpha |a|min)^(-2/5)
      const double exact = std::pow(q.m * extent * extent * extent, 0.4);
      const double s = st.tree.relative_size(i);
      if (nd.is_leaf(i)) {
        EXPECT_NEAR(s, exact, 1e-12 * exact) << "leaf " << i;
      } else {
        EXPECT_GE(s, exact * (1 - 1e-12)) << "node " << i;
      }
      // one body: the extent is the rounding of its centre of mass
      if (nd.count[i] == 1) {
        EXPECT_LT(s, 1e-12 * st.tree.relative_size(0)) << "one-body node " << i;
        ++single;
      }
    }
    EXPECT_GT(single, 0u);
  }
  const Bodies b = plummer(2000, 2);
  EXPECT_FALSE(SortedTree<float>(b, 1.0, 0.0).tree.relative());
  EXPECT_FALSE(SortedTree<float>(b, 0.0, 0.003).tree.relative());
  EXPECT_TRUE(SortedTree<float>(b, 1.0, 0.003).tree.relative());
}

// Plummer 32,768 in float, the kernel against the double direct sum (1,024 bodies). Measured
// here (median / p99 error, main-walk + first-walk interactions a body):
//   theta 0.55 alpha 0      8.2e-5 / 5.9e-4, 4,702
//   theta 0.7  alpha 0      2.3e-4 / 2.1e-3, 3,325
//   theta 1    alpha 0      5.8e-4 / 4.6e-3, 2,261
//   theta 1    alpha 0.003  1.7e-4 / 1.1e-3, 2,908 + 1,761 (the first walk: monopoles)
// alpha 0.003 at theta 1 is held to 2.5e-4 (the same theta without it is 2.3x above that), with
// fewer main-walk interactions than theta 0.55 and than theta 0.7 (the cell criterion at about
// the same error), and more than theta 1 alone (the relative test only opens more cells).
TEST(CpuBarnesHutRelative, PlummerAtThetaOne) {
  const Bodies b = plummer(32768, 3);
  struct Case {
    double theta, alpha;
    AccelError e;
    tree::TraversalWork w;
  };
  Case c[] = {{0.55, 0, {}, {}}, {0.7, 0, {}, {}}, {1.0, 0, {}, {}}, {1.0, 0.003, {}, {}}};
  for (Case& k : c) {
    const Outcome r = run(bh_params(k.theta, k.alpha, Precision::Float), b, 1024);
    k.e = r.error;
    k.w = tree_work<float>(b, k.theta, k.alpha, 2);
    std::printf(
        "theta %.2f alpha %.3f: median %.2e p99 %.2e normwise %.2e; interactions a body: "
        "%.0f (walk %.0f + first walk %.0f)\n",
        k.theta, k.alpha, k.e.median, k.e.p99, k.e.normwise, r.interactions / b.size(),
        k.w.interactions / b.size(), k.w.pre / b.size());
    // the kernel counts both walks (of the next step's positions: within 1 %)
    EXPECT_NEAR(r.interactions, k.w.interactions + k.w.pre, 0.01 * r.interactions);
    EXPECT_EQ(k.w.pre > 0, k.alpha > 0);
  }
  const Case &cell055 = c[0], &cell07 = c[1], &cell1 = c[2], &rel = c[3];
  EXPECT_LE(rel.e.median, 2.5e-4);
  EXPECT_LE(rel.e.p99, 2e-3);
  EXPECT_GT(cell1.e.median, 2.5e-4) << "theta 1 alone would pass the bound";
  EXPECT_LT(rel.w.interactions, 0.7 * cell055.w.interactions);
  EXPECT_LT(rel.w.interactions, 0.95 * cell07.w.interactions);
  EXPECT_LT(rel.e.median, cell07.e.median);
  EXPECT_GT(rel.w.interactions, cell1.w.interactions);
}

// awkward sizes (one body, under two leaves, a partial last group, primes) with alpha 0.003 at
// theta 1 and 1.5, in groups of 64 (the default) and of one body (GADGET-2's per-body test),
// against the double direct sum. Each accepted cell's error bound is at most alpha |a|min, so
// the bodies' errors stay near alpha: measured median <= 2.1e-3, p99 <= 6.9e-3, largest
// 9.1e-3 (one-body groups; groups of 64 take |a|min of 64 bodies and stay 10x below). Without
// alpha one-body groups at theta 1.5 reach 0.3-0.5.
TEST(CpuBarnesHutRelative, AwkwardSizesAgreeWithTheDirectSum) {
  const double alpha = 0.003;
  for (std::size_t n : {1u, 31u, 257u, 1021u, 4099u}) {
    const Bodies b = n >= 1000 ? plummer(n, n) : uniform_cube(n, n);
    for (Precision prec : {Precision::Double, Precision::Float}) {
      for (double theta : {1.0, 1.5}) {
        for (int group : {0, 1}) {
          SimParams p = bh_params(theta, alpha, prec);
          p.tunables["group_size"] = group;
          if (n == 1) {
            std::vector<double> ax, ay, az;
            auto backend = make_backend(p);
            backend->set_bodies(b);
            backend->compute_accelerations(p, ax, ay, az);
            EXPECT_EQ(ax[0], 0);
            EXPECT_EQ(ay[0], 0);
            EXPECT_EQ(az[0], 0);
            continue;
          }
          const AccelError e = run(p, b, 500).error;
          std::printf("N %zu %s theta %.1f group %d: median %.2e p99 %.2e max %.2e\n", n,
                      precision_name(prec), theta, group, e.median, e.p99, e.max);
          SCOPED_TRACE(std::to_string(n) + " " + precision_name(prec) + " theta " +
                       std::to_string(theta) + " group " + std::to_string(group));
          EXPECT_LT(e.median, alpha);
          EXPECT_LT(e.p99, 3.5 * alpha);
          EXPECT_LT(e.max, 5 * alpha);
          // 31 bodies in one group of 64: every cell holds the group and is opened, both walks
          // are direct sums, the result the direct sum to round-off
          if (n == 31 && group == 0) {
            EXPECT_LT(e.max, prec == Precision::Double ? 1e-13 : 1e-5);
          }
        }
      }
    }
  }
  // the bounds mean something: without alpha one-body groups at theta 1.5 are far off
  SimParams p = bh_params(1.5, 0, Precision::Double);
  p.tunables["group_size"] = 1;
  EXPECT_GT(run(p, plummer(4099, 4099), 500).error.max, 20 * alpha);
}

// alpha = 0 leaves the kernel as it was: no first walk, and the same accelerations as the tree
// that is not told of alpha (the kernel's results were compared bitwise against the commit
// before the relative opening too: final states of Plummer 30,000 float and double, cell and
// bmax, quadrupole on and off, after 3 steps, and the galaxy collision). With an alpha so large
// that the relative test accepts every cell the geometric one does, the main walk is the same
// and so are the accelerations, bitwise: the first walk leaves no trace. And with alpha the
// results do not depend on the thread count.
TEST(CpuBarnesHutRelative, AlphaZeroAndHugeAlphaLeaveTheWalk) {
  const Bodies b = plummer(20000, 4);
  std::vector<float> plain, zero, huge, one_thread, two_threads;
  // a tree set up for alpha before: moments() without it drops the relative opening
  SortedTree<float> st(b, 0.8, 0.003);
  {
    std::vector<float> ax(b.size()), ay(b.size()), az(b.size());
    st.tree.moments(st.x.data(), st.y.data(), st.z.data(), st.m.data(), 0.8, 2);
    EXPECT_FALSE(st.tree.relative());
    const tree::TraversalWork w =
        st.tree.accelerations(st.x.data(), st.y.data(), st.z.data(), st.m.data(), 1.0f, 1e-4f, 64,
                              true, ax.data(), ay.data(), az.data(), 2);
    EXPECT_EQ(w.pre, 0);
    for (const std::vector<float>* v : {&ax, &ay, &az})
      plain.insert(plain.end(), v->begin(), v->end());
  }
  const tree::TraversalWork w0 = tree_work<float>(b, 0.8, 0.0, 2, &zero);
  const tree::TraversalWork wh = tree_work<float>(b, 0.8, 1e30, 2, &huge);
  EXPECT_EQ(w0.pre, 0);
  EXPECT_GT(wh.pre, 0);
  EXPECT_EQ(w0.interactions, wh.interactions);
  ASSERT_EQ(plain.size(), zero.size());
  for (std::size_t i = 0; i < plain.size(); ++i) {
    ASSERT_EQ(plain[i], zero[i]) << i;
    ASSERT_EQ(plain[i], huge[i]) << i;
  }
  tree_work<float>(b, 1.0, 0.003, 1, &one_thread);
  tree_work<float>(b, 1.0, 0.003, 2, &two_threads);
  EXPECT_EQ(one_thread, two_threads);
  EXPECT_NE(one_thread, zero);
}

}  // namespace
}  // namespace nbody
