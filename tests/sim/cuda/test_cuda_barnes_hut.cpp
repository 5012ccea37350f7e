// The GPU Barnes-Hut kernel against the double-precision direct sum: theta = 0 is the direct sum
// for awkward N, the octree's invariants, degenerate inputs (one point, a line, a cluster deeper
// than the keys resolve), error bounds on a Plummer sphere and a uniform cube, bitwise
// determinism, the user's order after many steps and the energy drift. Every test that needs a
// device skips with the reason when there is none. DISABLED_Benchmark prints the speed table
// (run it with --gtest_also_run_disabled_tests --gtest_filter='*Benchmark*'; NBODY_BH_BENCH_N=N
// for one size, NBODY_BH_BENCH_SCENE=uniform|plummer for one scene, NBODY_BH_BENCH_FINAL=1 for
// the defaults only, with a galaxy collision as third scene).
#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "sim/analysis/diagnostics.hpp"
#include "sim/core/backend.hpp"
#include "sim/core/error.hpp"
#include "sim/core/scene.hpp"
#include "sim/cuda/barnes_hut.hpp"
#include "sim/tree/tree_math.hpp"
#include "tests/sim/cuda/bh_test_util.hpp"
#include "tests/sim/cuda/gpu_test_util.hpp"

using namespace nbody;
using namespace nbody::test;

namespace {

class BarnesHutDirect : public testing::TestWithParam<Config> {};

// theta = 0 opens every cell: the direct sum to float round-off, N^2 interactions counted
TEST_P(BarnesHutDirect, ThetaZeroIsTheDirectSum) {
  NBODY_REQUIRE_GPU();
  Config c = GetParam();
  c.theta = 0;
  const double tol = c.precision == Precision::Float ? 1e-5 : 1e-12;
  for (const double eps : {0.01, 0.0}) {
    for (const std::size_t n : {1, 2, 31, 33, 257, 1000, 4099, 65543}) {
      if (eps == 0 && n > 4099) continue;
      SCOPED_TRACE("N = " + std::to_string(n) + ", eps = " + std::to_string(eps));
      const SimParams p = bh_params(c, eps);
      auto bh = make_backend(p);
      bh->set_bodies(random_bodies(n, 11 + static_cast<unsigned>(n)));
      const Accel a = accelerations(*bh, p);
      ASSERT_EQ(a.x.size(), n);
      const Errors e = errors_at(a, held_bodies(*bh), check_indices(n), p.G, eps);
      EXPECT_TRUE(e.finite);
      EXPECT_LT(e.normwise, tol) << "max per-body " << e.max;
      EXPECT_EQ(bh->last_work().interactions, double(n) * double(n));
    }
  }
}

// the same on clustered input (Plummer) at a size that is no multiple of a group
TEST_P(BarnesHutDirect, ThetaZeroOnAPlummerSphere) {
  NBODY_REQUIRE_GPU();
  Config c = GetParam();
  c.theta = 0;
  const std::size_t n = 20011;
  const SimParams p = bh_params(c);
  auto bh = make_backend(p);
  bh->set_bodies(plummer(n));
  const Accel a = accelerations(*bh, p);
  const Errors e = errors_at(a, held_bodies(*bh), check_indices(n), p.G, p.softening);
  EXPECT_LT(e.normwise, c.precision == Precision::Float ? 1e-5 : 1e-12);
}

INSTANTIATE_TEST_SUITE_P(Configs, BarnesHutDirect,
                         testing::Values(Config{Precision::Float, 0, 16, 64, true},
                                         Config{Precision::Float, 0, 1, 32, false},
                                         Config{Precision::Float, 0, 64, 64, false},
                                         Config{Precision::Double, 0, 64, 64, true},
                                         Config{Precision::Double, 0, 8, 32, false},
                                         Config{Precision::Float, 0, 16, 16, true},
                                         Config{Precision::Float, 0, 4, 8, false},
                                         Config{Precision::Double, 0, 16, 8, true},
                                         Config{Precision::Float, 0, 16, 24, true},
                                         Config{Precision::Float, 0, 16, 48, false}),
                         config_name);

// checks the octree of the last force evaluation of `b` against the held bodies
void check_tree(const ForceBackend& b, std::size_t n, int leaf, double mass_tol, int group = 64) {
  cuda::BarnesHutTree t;
  ASSERT_TRUE(cuda::download_barnes_hut_tree(b, t));
  const std::size_t nodes = t.begin.size();
  ASSERT_GE(nodes, 1u);
  ASSERT_EQ(t.level_start.front(), 0u);
  ASSERT_EQ(t.level_start.back(), nodes);
  // the user's bodies in the stored order
  const Bodies user = held_bodies(b);
  ASSERT_EQ(t.order.size(), n);
  std::vector<int> seen(n, 0);
  for (std::uint32_t o : t.order) {
    ASSERT_LT(o, n);
    ++seen[o];
  }
  for (std::size_t i = 0; i < n; ++i)
    ASSERT_EQ(seen[i], 1) << "order is not a permutation at " << i;
  // keys sorted on the digits of the levels the tree may reach
  ASSERT_GE(t.sorted_levels, 1);
  ASSERT_LE(t.sorted_levels, tree::kMaxLevel);
  const int sorted_shift = tree::digit_shift(t.sorted_levels);
  for (std::size_t k = 1; k < n; ++k)
    ASSERT_LE(t.keys[k - 1] >> sorted_shift, t.keys[k] >> sorted_shift);
  // root: all bodies, level 0, mass and centre of mass of the whole set
  EXPECT_EQ(t.begin[0], 0u);
  EXPECT_EQ(t.count[0], n);
  EXPECT_EQ(t.level[0], 0u);
  double m = 0, mx = 0, my = 0, mz = 0;
  for (std::size_t i = 0; i < n; ++i) {
    m += user.m[i];
    mx += user.m[i] * user.x[i];
    my += user.m[i] * user.y[i];
    mz += user.m[i] * user.z[i];
  }
  EXPECT_NEAR(t.mass[0], m, mass_tol * m);
  const double scale = t.side;
  EXPECT_NEAR(t.comx[0], mx / m, mass_tol * scale);
  EXPECT_NEAR(t.comy[0], my / m, mass_tol * scale);
  EXPECT_NEAR(t.comz[0], mz / m, mass_tol * scale);
  // every node: levels by level_start, children nest, leaves partition the bodies
  std::vector<int> covered(n, 0);
  std::size_t lvl = 0;
  for (std::size_t i = 0; i < nodes; ++i) {
    while (i >= t.level_start[lvl + 1])
      ++lvl;
    ASSERT_EQ(t.level[i], lvl) << "node " << i;
    ASSERT_GE(t.count[i], 1u);
    ASSERT_LE(std::size_t(t.begin[i]) + t.count[i], n);
    const int shift = tree::digit_shift(static_cast<int>(lvl));
    for (std::uint32_t k = t.begin[i]; k < t.begin[i] + t.count[i]; ++k)
      ASSERT_EQ(lvl == 0 ? 0 : t.keys[k] >> shift, lvl == 0 ? 0 : t.prefix[i] >> shift)
          << "body " << k << " outside node " << i;
    if (t.child_count[i] == 0) {
      EXPECT_TRUE(t.count[i] <= std::uint32_t(leaf) || int(lvl) == t.sorted_levels) << "node " << i;
      for (std::uint32_t k = t.begin[i]; k < t.begin[i] + t.count[i]; ++k)
        ++covered[k];
      continue;
    }
    EXPECT_GT(t.count[i], std::uint32_t(leaf));
    ASSERT_LE(t.child_count[i], 8u);
    std::uint32_t next = t.begin[i];
    double cm = 0;
    int last_oct = -1;
    for (std::uint32_t c = t.first_child[i]; c < t.first_child[i] + t.child_count[i]; ++c) {
      ASSERT_LT(c, nodes);
      ASSERT_EQ(t.level[c], lvl + 1);
      ASSERT_EQ(t.begin[c], next) << "child ranges of node " << i << " do not nest";
      next += t.count[c];
      const int oct = tree::octant(t.prefix[c], static_cast<int>(lvl) + 1);
      ASSERT_GT(oct, last_oct) << "children out of octant order";
      last_oct = oct;
      ASSERT_EQ(t.prefix[c] >> shift, t.prefix[i] >> shift);
      cm += t.mass[c];
    }
    ASSERT_EQ(next, t.begin[i] + t.count[i]) << "children do not cover node " << i;
    EXPECT_NEAR(cm, t.mass[i], mass_tol * t.mass[i]);
  }
  for (std::size_t k = 0; k < n; ++k)
    ASSERT_EQ(covered[k], 1) << "body " << k << " is in " << covered[k] << " leaves";
  // the traversal's groups: at most `group` bodies each, every body in exactly one
  std::vector<int> grouped(n, 0);
  ASSERT_EQ(t.group_begin.size(), t.group_count.size());
  for (std::size_t g = 0; g < t.group_begin.size(); ++g) {
    ASSERT_GE(t.group_count[g], 1u);
    ASSERT_LE(t.group_count[g], std::uint32_t(group));
    ASSERT_LE(std::size_t(t.group_begin[g]) + t.group_count[g], n);
    for (std::uint32_t k = t.group_begin[g]; k < t.group_begin[g] + t.group_count[g]; ++k)
      ++grouped[k];
  }
  for (std::size_t k = 0; k < n; ++k)
    ASSERT_EQ(grouped[k], 1) << "body " << k << " is in " << grouped[k] << " groups";
  // the cells the window draws: the nodes of the first levels, each inside its parent's cube
  std::vector<TreeCell> cells;
  ASSERT_TRUE(const_cast<ForceBackend&>(b).tree_cells(2, cells));
  const std::size_t upto = t.level_start[std::min<std::size_t>(3, t.level_start.size() - 1)];
  ASSERT_EQ(cells.size(), upto);
  for (std::size_t i = 0; i < cells.size(); ++i) {
    ASSERT_EQ(cells[i].level, static_cast<int>(t.level[i]));
    EXPECT_NEAR(cells[i].half, 0.5 * t.side / double(1 << t.level[i]), 1e-12 * t.side);
    for (std::size_t c = t.first_child[i]; c < t.first_child[i] + t.child_count[i] && c < upto; ++c)
      EXPECT_LE(std::abs(cells[c].cx - cells[i].cx), cells[i].half * (1 + 1e-12)) << c;
  }
}

TEST(BarnesHutTree, InvariantsHold) {
  NBODY_REQUIRE_GPU();
  for (const Precision pr : {Precision::Float, Precision::Double})
    for (const int leaf : {1, 8, 16, 64})
      for (const std::size_t n : {1, 2, 33, 1000, 65543}) {
        for (const bool clustered : {false, true}) {
          if (clustered && n < 33) continue;
          const int group = leaf == 1 ? 8 : leaf == 8 ? 16 : leaf == 16 ? 64 : 32;
          SCOPED_TRACE(std::string(precision_name(pr)) + " leaf " + std::to_string(leaf) +
                       " group " + std::to_string(group) + " N = " + std::to_string(n) +
                       (clustered ? " plummer" : " uniform"));
          Config c{pr, 0.5, leaf, group, true};
          const SimParams p = bh_params(c);
          auto bh = make_backend(p);
          bh->set_bodies(clustered ? plummer(n) : random_bodies(n, 3));
          accelerations(*bh, p);
          check_tree(*bh, n, leaf, pr == Precision::Float ? 1e-5 : 1e-12, group);
        }
      }
}

// all bodies at one point: one chain of single children down to level 21, one fat leaf; the
// pulls cancel exactly
TEST(BarnesHutDegenerate, AllBodiesAtOnePoint) {
  NBODY_REQUIRE_GPU();
  for (const Precision pr : {Precision::Float, Precision::Double})
    for (const double eps : {0.01, 0.0}) {
      Bodies b;
      for (int i = 0; i < 1000; ++i)
        b.add(0.5, -0.25, 0.125, 0, 0, 0, 1e-3);
      const SimParams p = bh_params(Config{pr, 0.5, 16, 64, true}, eps);
      auto bh = make_backend(p);
      bh->set_bodies(b);
      const Accel a = accelerations(*bh, p);
      for (std::size_t i = 0; i < b.size(); ++i) {
        ASSERT_EQ(a.x[i], 0.0);
        ASSERT_EQ(a.y[i], 0.0);
        ASSERT_EQ(a.z[i], 0.0);
      }
      check_tree(*bh, b.size(), 16, 1e-5);
    }
}

// massless bodies feel the massive ones and pull on nothing: at theta = 0 the direct sum of
// the massive bodies; at theta 0.5 close to it, with ε = 0.01 and ε = 0 (no NaN from a cell
// without mass), and fewer interactions than with every body massive
TEST(BarnesHutMassless, MasslessBodiesAreNotSources) {
  NBODY_REQUIRE_GPU();
  for (const Precision pr : {Precision::Double, Precision::Float})
    for (const double eps : {0.01, 0.0}) {
      Bodies b = plummer(20000, 3);
      for (std::size_t i = 0; i < b.size(); ++i)
        if (i % 10 != 0) b.m[i] = 0;
      for (const double theta : {0.0, 0.5}) {
        const SimParams p = bh_params(Config{pr, theta, 16, 64, true}, eps);
        auto bh = make_backend(p);
        bh->set_bodies(b);
        const Accel a = accelerations(*bh, p);
        const Errors e = errors_at(a, held_bodies(*bh), check_indices(b.size()), 1.0, eps);
        SCOPED_TRACE(std::string(precision_name(pr)) + " eps " + std::to_string(eps) + " theta " +
                     std::to_string(theta));
        EXPECT_TRUE(e.finite);
        if (theta == 0)
          EXPECT_LT(e.max, pr == Precision::Double ? 1e-10 : 1e-4);
        else
          EXPECT_LT(e.median, 1e-3);
      }
    }
}

// bodies on a line: a flat tree, still accurate
TEST(BarnesHutDegenerate, CollinearBodies) {
  NBODY_REQUIRE_GPU();
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(-1, 1);
  Bodies b;
  for (int i = 0; i < 3000; ++i)
    b.add(u(rng), 0.5, -0.5, 0, 0, 0, 1.0 / 3000);
  for (const double theta : {0.0, 0.5}) {
    const SimParams p = bh_params(Config{Precision::Float, theta, 16, 64, true});
    auto bh = make_backend(p);
    bh->set_bodies(b);
    const Accel a = accelerations(*bh, p);
    const Errors e = errors_at(a, held_bodies(*bh), check_indices(b.size()), p.G, p.softening);
    EXPECT_TRUE(e.finite);
    if (theta == 0)
      EXPECT_LT(e.normwise, 1e-5);
    else
      EXPECT_LT(e.median, 1.5e-3) << "p99 " << e.p99;
    check_tree(*bh, b.size(), 16, 1e-5);
  }
}

// a cluster 1e-9 wide inside a unit box is finer than level 21: it ends in one fat leaf, which
// the traversal sums directly (no hang, no NaN, the direct sum at theta = 0)
TEST(BarnesHutDegenerate, ClusterFinerThanTheKeys) {
  NBODY_REQUIRE_GPU();
  std::mt19937_64 rng(9);
  std::uniform_real_distribution<double> u(0, 1), v(0, 1e-9);
  for (const Precision pr : {Precision::Float, Precision::Double}) {
    Bodies b;
    for (int i = 0; i < 600; ++i)
      b.add(u(rng), u(rng), u(rng), 0, 0, 0, 1e-3);
    for (int i = 0; i < 400; ++i)
      b.add(0.3 + v(rng), 0.3 + v(rng), 0.3 + v(rng), 0, 0, 0, 1e-3);
    for (const double eps : {1e-3, 0.0})
      for (const double theta : {0.0, 0.5}) {
        SCOPED_TRACE(std::string(precision_name(pr)) + " eps " + std::to_string(eps) + " theta " +
                     std::to_string(theta));
        const SimParams p = bh_params(Config{pr, theta, 16, 32, true}, eps);
        auto bh = make_backend(p);
        bh->set_bodies(b);
        const Accel a = accelerations(*bh, p);
        const Errors e = errors_at(a, held_bodies(*bh), check_indices(b.size()), p.G, eps);
        EXPECT_TRUE(e.finite);
        if (theta == 0)
          EXPECT_LT(e.normwise, pr == Precision::Float ? 1e-5 : 1e-12);
        else
          EXPECT_LT(e.median, 1.5e-3) << "p99 " << e.p99;
        cuda::BarnesHutTree t;
        ASSERT_TRUE(cuda::download_barnes_hut_tree(*bh, t));
        EXPECT_EQ(t.level.back(), std::uint32_t(tree::kMaxLevel));
        check_tree(*bh, b.size(), 16, 1e-5, 32);
      }
  }
}

// The sort's cube comes from the box that the step's drift left (DeviceStore::fresh_box): the
// enclosing cube of the drifted positions exactly, and every stored body's key is its position's,
// also for a body that flies far out of the last cube within one drift
TEST(BarnesHutSort, TheCubeEnclosesTheDriftedBodies) {
  NBODY_REQUIRE_GPU();
  constexpr double inf = std::numeric_limits<double>::infinity();
  for (Precision pr : {Precision::Float, Precision::Double})
    for (std::size_t n : {1u, 31u, 1001u}) {
      std::mt19937_64 rng(n);
      std::uniform_real_distribution<double> u(-1, 1);
      Bodies b;
      for (std::size_t i = 0; i < n; ++i)
        b.add(u(rng), u(rng), u(rng), 0, 0, 0, 1.0 / double(n));
      b.vx[0] = 3000;  // 3 units a step
      b.vy[0] = -1000;
      SimParams p = bh_params(Config{pr, 0.5, 16, 32, true}, 0.01);
      p.dt = 1e-3;
      auto bh = make_backend(p);
      bh->set_bodies(b);
      for (int steps : {1, 3}) {
        bh->step(p, steps);
        cuda::BarnesHutTree t;
        ASSERT_TRUE(cuda::download_barnes_hut_tree(*bh, t));
        const Bodies h = held_bodies(*bh);
        double lo[3] = {inf, inf, inf}, hi[3] = {-inf, -inf, -inf};
        for (std::size_t i = 0; i < n; ++i) {
          const double x[3] = {h.x[i], h.y[i], h.z[i]};
          for (int a = 0; a < 3; ++a) {
            lo[a] = std::min(lo[a], x[a]);
            hi[a] = std::max(hi[a], x[a]);
          }
        }
        const tree::Cube c = tree::enclosing_cube(lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]);
        EXPECT_EQ(t.x0, c.x0) << "n " << n << " steps " << steps;
        EXPECT_EQ(t.y0, c.y0);
        EXPECT_EQ(t.z0, c.z0);
        EXPECT_EQ(t.side, c.side);
        const int shift = tree::digit_shift(t.sorted_levels);
        for (std::size_t k = 0; k < n; ++k) {
          const std::size_t i = t.order.empty() ? k : t.order[k];
          ASSERT_EQ(tree::morton_key(h.x[i], h.y[i], h.z[i], c) >> shift, t.keys[k] >> shift)
              << "n " << n << " body " << i;
        }
      }
    }
}

// Bodies that share a cell of the sorted depth (the stable sort leaves them in their last order)
// take the order of their whole keys, then of the user's indices, as the first sort (of every
// digit) put them: the second evaluation, which sorts the digits down to the tree's depth + 2 with
// the indices in the keys (DeviceStore::permute orders the ties), stores the bodies in the same
// order. Runs of three: a body, a copy of it (equal keys: the user's indices decide) and one a
// hair away, in shuffled user order, for N = 3, 33, 9003 and 120027.
TEST(BarnesHutSort, BodiesInOneCellTakeTheOrderOfTheirWholeKeys) {
  NBODY_REQUIRE_GPU();
  for (Precision pr : {Precision::Float, Precision::Double})
    for (std::size_t m : {1u, 11u, 3001u, 40009u}) {
      std::mt19937_64 rng(m);
      std::uniform_real_distribution<double> u(-1, 1), hair(0, 1e-4);
      std::vector<std::array<double, 3>> x;
      for (std::size_t i = 0; i < m; ++i) {
        const std::array<double, 3> q{u(rng), u(rng), u(rng)};
        x.push_back(q);
        x.push_back(q);
        x.push_back({q[0] + hair(rng), q[1] + hair(rng), q[2] + hair(rng)});
      }
      std::shuffle(x.begin(), x.end(), rng);
      const std::size_t n = x.size();
      Bodies b;
      for (const auto& q : x)
        b.add(q[0], q[1], q[2], 0, 0, 0, 1.0 / double(n));
      SimParams p = bh_params(Config{pr, 0.5, 8, 32, true});
      p.tunables["rebuild"] = 1;
      auto bh = make_backend(p);
      bh->set_bodies(b);
      std::vector<std::uint32_t> first;
      for (int eval : {0, 1}) {
        SCOPED_TRACE(std::string(precision_name(pr)) + " N = " + std::to_string(n) +
                     " evaluation " + std::to_string(eval));
        accelerations(*bh, p);
        cuda::BarnesHutTree t;
        ASSERT_TRUE(cuda::download_barnes_hut_tree(*bh, t));
        ASSERT_EQ(t.order.size(), n);
        if (eval == 0) {
          EXPECT_EQ(t.sorted_levels, tree::kMaxLevel);
        } else {
          ASSERT_LT(t.sorted_levels, tree::kMaxLevel) << "the second sort stops above level 21";
          ASSERT_LE(tree::index_bits(n), tree::digit_shift(t.sorted_levels));
        }
        const Bodies h = held_bodies(*bh);
        const tree::Cube c{t.x0, t.y0, t.z0, t.side};
        std::size_t tied = 0;
        for (std::size_t k = 1; k < n; ++k) {
          if (t.keys[k - 1] != t.keys[k]) continue;  // the sorted digits differ
          ++tied;
          const std::uint32_t i0 = t.order[k - 1], i1 = t.order[k];
          const std::uint64_t w0 = tree::morton_key(h.x[i0], h.y[i0], h.z[i0], c);
          const std::uint64_t w1 = tree::morton_key(h.x[i1], h.y[i1], h.z[i1], c);
          ASSERT_TRUE(w0 < w1 || (w0 == w1 && i0 < i1))
              << "stored " << k - 1 << " (user " << i0 << ", key " << w0 << ") before " << k
              << " (user " << i1 << ", key " << w1 << ")";
        }
        EXPECT_GE(tied, m);  // at least the copies
        if (eval == 0)
          first = t.order;
        else
          EXPECT_EQ(t.order, first);
      }
    }
}

// A pile of more bodies on one point than a run orders (kTieRun = 1024) keeps the order it came
// in (the user's here), evaluation after evaluation, beside bodies whose ties are ordered
TEST(BarnesHutSort, APileLongerThanARunKeepsItsOrder) {
  NBODY_REQUIRE_GPU();
  std::mt19937_64 rng(17);
  std::uniform_real_distribution<double> u(-1, 1);
  Bodies b;
  for (int i = 0; i < 1500; ++i)
    b.add(0.25, 0.5, -0.125, 0, 0, 0, 1e-4);
  for (int i = 0; i < 501; ++i)
    b.add(u(rng), u(rng), u(rng), 0, 0, 0, 1e-3);
  SimParams p = bh_params(Config{Precision::Float, 0.5, 16, 32, true});
  p.tunables["rebuild"] = 1;
  auto bh = make_backend(p);
  bh->set_bodies(b);
  for (int steps : {0, 1, 3}) {
    if (steps > 0) bh->step(p, steps);
    accelerations(*bh, p);
    cuda::BarnesHutTree t;
    ASSERT_TRUE(cuda::download_barnes_hut_tree(*bh, t));
    std::int64_t last = -1;
    std::size_t pile = 0;
    for (const std::uint32_t i : t.order)
      if (i < 1500) {
        ASSERT_GT(std::int64_t(i), last) << "after " << steps << " steps";
        last = i;
        ++pile;
      }
    EXPECT_EQ(pile, 1500u);
    check_tree(*bh, b.size(), 16, 1e-5, 32);
  }
}

// The sort orders the key digits down to the last tree's depth + 2 only (filled up to its radix
// passes: tree::sorted_levels). A cluster that shrinks below that depth within one step ends in a
// fat leaf at the sorted depth: the forces stay the direct sum at theta = 0 (checked through the
// step's closing kick, in double), and the next sort takes every digit again.
TEST(BarnesHutDegenerate, ClusterCollapsingBelowTheSortedDepth) {
  NBODY_REQUIRE_GPU();
  const double dt = 1e-3, eps = 0.01;
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(-1, 1), v(-1e-2, 1e-2);
  Bodies b0;
  for (int i = 0; i < 4000; ++i)
    b0.add(u(rng), u(rng), u(rng), 0, 0, 0, 1.0 / 4000);
  for (int i = 0; i < 300; ++i) {  // light: falls onto (0.3, 0.3, 0.3) within one drift
    const double dx = v(rng), dy = v(rng), dz = v(rng);
    b0.add(0.3 + dx, 0.3 + dy, 0.3 + dz, -dx / dt, -dy / dt, -dz / dt, 1e-9);
  }
  SimParams p = bh_params(Config{Precision::Double, 0, 16, 32, true}, eps);
  p.dt = dt;
  p.tunables["rebuild"] = 1;  // the sort and the build of every evaluation are what is tested
  auto bh = make_backend(p);
  bh->set_bodies(b0);
  bh->step(p, 1);
  const std::size_t n = b0.size();
  EXPECT_EQ(bh->last_work().interactions, double(n) * double(n));
  cuda::BarnesHutTree t;
  ASSERT_TRUE(cuda::download_barnes_hut_tree(*bh, t));
  EXPECT_LT(t.sorted_levels, 16);
  std::uint32_t fattest = 0;
  for (std::size_t i = 0; i < t.begin.size(); ++i)
    if (t.child_count[i] == 0) fattest = std::max(fattest, t.count[i]);
  EXPECT_GE(fattest, 300u);
  check_tree(*bh, n, 16, 1e-12, 32);
  // v1 = v0 + dt/2 (a(x0) + a(x1)): the kicks of the direct sum before and after the drift
  const Bodies b1 = held_bodies(*bh);
  std::vector<std::size_t> all(n);
  for (std::size_t i = 0; i < n; ++i)
    all[i] = i;
  std::vector<double> a0x, a0y, a0z, a1x, a1y, a1z;
  reference_accelerations(b0, all, p.G, eps, a0x, a0y, a0z);
  reference_accelerations(b1, all, p.G, eps, a1x, a1y, a1z);
  double worst = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const double ex = b0.vx[i] + 0.5 * dt * (a0x[i] + a1x[i]);
    const double ey = b0.vy[i] + 0.5 * dt * (a0y[i] + a1y[i]);
    const double ez = b0.vz[i] + 0.5 * dt * (a0z[i] + a1z[i]);
    const double a = std::sqrt(a1x[i] * a1x[i] + a1y[i] * a1y[i] + a1z[i] * a1z[i]);
    const double d =
        std::sqrt((b1.vx[i] - ex) * (b1.vx[i] - ex) + (b1.vy[i] - ey) * (b1.vy[i] - ey) +
                  (b1.vz[i] - ez) * (b1.vz[i] - ez));
    worst = std::max(worst, d / (0.5 * dt * a));
  }
  EXPECT_LT(worst, 1e-8);
  // the tree reached the sorted depth: the next sort takes every digit
  accelerations(*bh, p);
  ASSERT_TRUE(cuda::download_barnes_hut_tree(*bh, t));
  EXPECT_EQ(t.sorted_levels, tree::kMaxLevel);
  check_tree(*bh, n, 16, 1e-12, 32);
}

// per-body error bounds (median, 99th percentile) for theta 0.3, 0.5, 0.7, 1.0
struct Bound {
  double theta, median, p99;
};

void check_error_bounds(const Bodies& bodies, const char* what) {
  const Bound mono[] = {
      {0.3, 5e-4, 2.5e-3}, {0.5, 1.5e-3, 7e-3}, {0.7, 4e-3, 2e-2}, {1.0, 1.2e-2, 6e-2}};
  const Bound quad[] = {
      {0.3, 1e-4, 6e-4}, {0.5, 4e-4, 2.5e-3}, {0.7, 1.2e-3, 8e-3}, {1.0, 5e-3, 3e-2}};
  const auto idx = sample_indices(bodies.size(), 2048);
  for (const Precision pr : {Precision::Float, Precision::Double}) {
    double last_mono = 0, last_quad = 0;
    for (int k = 0; k < 4; ++k) {
      Errors e[2];
      for (const bool q : {false, true}) {
        const Bound& bd = q ? quad[k] : mono[k];
        const SimParams p = bh_params(Config{pr, bd.theta, 16, 64, q});
        auto bh = make_backend(p);
        bh->set_bodies(bodies);
        const Accel a = accelerations(*bh, p);
        e[q] = errors_at(a, held_bodies(*bh), idx, p.G, p.softening);
        std::printf("%-8s %-6s theta %.1f %-4s median %.2e p99 %.2e max %.2e  %.0f int/body\n",
                    what, precision_name(pr), bd.theta, q ? "quad" : "mono", e[q].median, e[q].p99,
                    e[q].max, bh->last_work().interactions / double(bodies.size()));
        EXPECT_TRUE(e[q].finite);
        EXPECT_LE(e[q].median, bd.median) << what << " theta " << bd.theta << (q ? " quad" : "");
        EXPECT_LE(e[q].p99, bd.p99) << what << " theta " << bd.theta << (q ? " quad" : "");
      }
      // quadrupoles help; larger theta costs accuracy
      EXPECT_LT(e[1].median, e[0].median) << what << " theta " << mono[k].theta;
      EXPECT_GT(e[0].median, last_mono);
      EXPECT_GT(e[1].median, last_quad);
      last_mono = e[0].median;
      last_quad = e[1].median;
    }
  }
}

TEST(BarnesHutAccuracy, PlummerSphere) {
  NBODY_REQUIRE_GPU();
  check_error_bounds(plummer(32768), "plummer");
}

TEST(BarnesHutAccuracy, UniformCube) {
  NBODY_REQUIRE_GPU();
  check_error_bounds(random_bodies(32768, 21), "uniform");
}

// groups of 8 and 16 (four and two lanes a body): each body's lists come from a smaller box, so
// fewer interactions a body; the error rises a little (cells pass the opening test against a
// smaller box) and stays within the bounds
TEST(BarnesHutAccuracy, SmallGroupsWalkSmallerBoxes) {
  NBODY_REQUIRE_GPU();
  const Bodies b = plummer(32771);
  const auto idx = sample_indices(b.size(), 2048);
  for (const Precision pr : {Precision::Float, Precision::Double}) {
    double last = 0;
    for (const int group : {32, 16, 8}) {
      SCOPED_TRACE(std::string(precision_name(pr)) + " group " + std::to_string(group));
      const SimParams p = bh_params(Config{pr, 0.55, 16, group, true});
      auto bh = make_backend(p);
      bh->set_bodies(b);
      const Accel a = accelerations(*bh, p);
      const Errors e = errors_at(a, held_bodies(*bh), idx, p.G, p.softening);
      const double per_body = bh->last_work().interactions / double(b.size());
      std::printf("group %2d %-6s median %.2e p99 %.2e  %.0f int/body\n", group, precision_name(pr),
                  e.median, e.p99, per_body);
      EXPECT_TRUE(e.finite);
      EXPECT_LE(e.median, 3e-4);
      EXPECT_LE(e.p99, 2.5e-3);
      if (last > 0) {
        EXPECT_LT(per_body, last);
      }
      last = per_body;
      check_tree(*bh, b.size(), 16, pr == Precision::Float ? 1e-5 : 1e-12, group);
    }
  }
}

// opening=bmax: every cell's opening radius lies between the cell criterion's and 2 / sqrt(3) x
// the true extent of its bodies about its centre of mass / theta (so the bound holds), and a
// Plummer sphere walks with fewer interactions within the error bounds
TEST(BarnesHutAccuracy, BmaxOpeningBoundsTheBodies) {
  NBODY_REQUIRE_GPU();
  const Bodies b = plummer(32771);
  const auto idx = sample_indices(b.size(), 2048);
  double per_body[2] = {0, 0};
  for (const bool bmax : {false, true}) {
    SCOPED_TRACE(bmax ? "bmax" : "cell");
    const SimParams p = bh_params(Config{Precision::Double, 0.55, 16, 32, true, bmax});
    auto bh = make_backend(p);
    bh->set_bodies(b);
    const Errors e = errors_at(accelerations(*bh, p), held_bodies(*bh), idx, p.G, p.softening);
    per_body[bmax] = bh->last_work().interactions / double(b.size());
    std::printf("opening %s: median %.2e p99 %.2e  %.0f int/body\n", bmax ? "bmax" : "cell",
                e.median, e.p99, per_body[bmax]);
    EXPECT_LE(e.median, 3e-4);
    EXPECT_LE(e.p99, 2.5e-3);
    cuda::BarnesHutTree t;
    ASSERT_TRUE(cuda::download_barnes_hut_tree(*bh, t));
    const Bodies held = held_bodies(*bh);
    const tree::Cube cube{t.x0, t.y0, t.z0, t.side};
    int smaller = 0;
    for (std::size_t i = 0; i < t.begin.size(); ++i) {
      if (!(t.mass[i] > 0)) continue;
      double extent = 0, cx, cy, cz, side;
      for (std::uint32_t k = t.begin[i]; k < t.begin[i] + t.count[i]; ++k) {
        const std::uint32_t u = t.order[k];
        extent = std::max(extent, std::hypot(held.x[u] - t.comx[i], held.y[u] - t.comy[i],
                                             held.z[u] - t.comz[i]));
      }
      tree::cell_geometry(t.prefix[i], static_cast<int>(t.level[i]), cube, cx, cy, cz, side);
      const double cell =
          tree::opening_radius2(side, 0.55, t.comx[i], t.comy[i], t.comz[i], cx, cy, cz);
      const double least = std::min(cell, std::pow(2 / std::sqrt(3.0) * extent / 0.55, 2));
      ASSERT_LE(t.rcrit2[i], cell * (1 + 1e-9)) << "node " << i;
      ASSERT_GE(t.rcrit2[i], (bmax ? least : cell) * (1 - 1e-9)) << "node " << i;
      smaller += t.rcrit2[i] < cell * (1 - 1e-6);
    }
    if (bmax) {
      EXPECT_GT(smaller, static_cast<int>(t.begin.size() / 4));
    }
  }
  EXPECT_LT(per_body[1], 0.9 * per_body[0]);
}

// two runs from the same state agree bitwise (no float atomics; groups are independent)
TEST(BarnesHutDeterminism, TwoRunsAreBitwiseEqual) {
  NBODY_REQUIRE_GPU();
  const Bodies start = plummer(50001);
  for (const Precision pr : {Precision::Float, Precision::Double})
    for (const bool quad : {false, true}) {
      const SimParams p = bh_params(Config{pr, 0.6, 16, 64, quad});
      Bodies out[2];
      Accel acc[2];
      for (int r = 0; r < 2; ++r) {
        auto bh = make_backend(p);
        bh->set_bodies(start);
        bh->step(p, 5);
        bh->get_bodies(out[r]);
        acc[r] = accelerations(*bh, p);
      }
      for (std::size_t i = 0; i < start.size(); ++i) {
        ASSERT_EQ(out[0].x[i], out[1].x[i]) << i;
        ASSERT_EQ(out[0].vy[i], out[1].vy[i]) << i;
        ASSERT_EQ(acc[0].x[i], acc[1].x[i]) << i;
        ASSERT_EQ(acc[0].z[i], acc[1].z[i]) << i;
      }
    }
}

// the bodies are re-sorted every step; the user still sees them in their own order
TEST(BarnesHutOrder, UserOrderKeptAfterManySteps) {
  NBODY_REQUIRE_GPU();
  Bodies start = random_bodies(3001, 77);
  for (std::size_t i = 0; i < start.size(); ++i) {
    start.m[i] = (1.0 + double(i) / start.size()) / start.size();  // distinct masses
    start.component[i] = static_cast<Component>(i % 4);
  }
  // theta = 0 in double: the direct sum, so the path must match cpu-reference's closely
  SimParams p = bh_params(Config{Precision::Double, 0.0, 16, 64, true});
  p.dt = 1e-3;
  auto bh = make_backend(p);
  bh->set_bodies(start);
  SimParams rp = p;
  rp.kernel = "cpu-reference";
  rp.tunables.clear();
  auto ref = make_backend(rp);
  ref->set_bodies(start);
  for (int k = 0; k < 10; ++k) {
    bh->step(p, 10);
    ref->step(rp, 10);
  }
  Bodies g, r;
  bh->get_bodies(g);
  ref->get_bodies(r);
  ASSERT_EQ(g.size(), start.size());
  double dx = 0, nx = 0;
  for (std::size_t i = 0; i < g.size(); ++i) {
    ASSERT_EQ(g.m[i], start.m[i]) << i;
    ASSERT_EQ(g.component[i], start.component[i]) << i;
    dx +=
        std::pow(g.x[i] - r.x[i], 2) + std::pow(g.y[i] - r.y[i], 2) + std::pow(g.z[i] - r.z[i], 2);
    nx += r.x[i] * r.x[i] + r.y[i] * r.y[i] + r.z[i] * r.z[i];
  }
  EXPECT_LT(std::sqrt(dx / nx), 1e-10);
  // the same in float against theta 0.5: the same bodies, close positions
  SimParams pf = bh_params(Config{Precision::Float, 0.5, 16, 32, true});
  auto bf = make_backend(pf);
  bf->set_bodies(start);
  bf->step(pf, 100);
  Bodies f;
  bf->get_bodies(f);
  double fx = 0;
  for (std::size_t i = 0; i < f.size(); ++i) {
    ASSERT_EQ(f.m[i], float(start.m[i])) << i;
    fx +=
        std::pow(f.x[i] - r.x[i], 2) + std::pow(f.y[i] - r.y[i], 2) + std::pow(f.z[i] - r.z[i], 2);
  }
  EXPECT_LT(std::sqrt(fx / nx), 1e-4);
}

// energy drift of a 1,000-step Plummer run: within 2x of the all-pairs kernel's at theta = 0.3
// (at the default theta the force error, not the time step, sets the drift: printed only)
TEST(BarnesHutPhysics, EnergyDriftNearAllPairs) {
  NBODY_REQUIRE_GPU();
  const char* names[3] = {"tiled", "barnes-hut theta 0.3", "barnes-hut default"};
  double drift[3] = {0, 0, 0};
  for (int k = 0; k < 3; ++k) {
    SimParams p;
    p.kernel = k == 0 ? "tiled" : "barnes-hut";
    if (k == 1) p.tunables["theta"] = 0.3;
    p.precision = Precision::Float;
    drift[k] = plummer_energy_drift(p);
    std::printf("energy drift, 1000 steps, N = 32768, %s: %.3e\n", names[k], drift[k]);
  }
  EXPECT_LE(drift[1], 2 * drift[0]);
}

// the row: name, precisions, tunables with their defaults; bad values are rejected
TEST(BarnesHutRow, TableRowAndTunables) {
  const KernelInfo* row = nullptr;
  for (const KernelInfo& k : kernel_table())
    if (k.name == "barnes-hut") row = &k;
  if (!row) GTEST_SKIP() << "no CUDA in this build";
  EXPECT_TRUE(row->gpu);
  EXPECT_TRUE(row->supports_float);
  EXPECT_TRUE(row->supports_double);
  for (const char* key : {"theta", "leaf_size", "group_size", "quadrupole", "block_size"})
    EXPECT_NE(row->find_tunable(key), nullptr) << key;
  SimParams p;
  p.kernel = "barnes-hut";
  p.tunables["theta"] = 2.0;
  EXPECT_THROW(validate_kernel_params(p), Error);
  p.tunables["theta"] = 0.7;
  for (const int g : {4, 20, 72}) {
    p.tunables["group_size"] = g;
    EXPECT_THROW(validate_kernel_params(p), Error) << g;
  }
  for (const int g : {0, 8, 16, 24, 32, 48, 64}) {
    p.tunables["group_size"] = g;
    EXPECT_NO_THROW(validate_kernel_params(p)) << g;
  }
}

// ---------------------------------------------------------------- benchmark (not run by ctest)

struct BenchScene {
  std::string name;
  Bodies bodies;
};

void bench_line(const BenchScene& s, const Config& c, int block, const Bodies& held,
                const std::vector<std::size_t>& idx, const std::vector<double>& rx,
                const std::vector<double>& ry, const std::vector<double>& rz, int steps) {
  SimParams p = bh_params(c);
  p.tunables["block_size"] = block;
  p.dt = 1e-6;  // the bodies barely move: every step times the same configuration
  auto bh = make_backend(p);
  bh->set_bodies(held);
  const Accel a = accelerations(*bh, p);
  std::vector<double> rel;
  for (std::size_t k = 0; k < idx.size(); ++k) {
    const std::size_t i = idx[k];
    const double dx = a.x[i] - rx[k], dy = a.y[i] - ry[k], dz = a.z[i] - rz[k];
    const double r2 = rx[k] * rx[k] + ry[k] * ry[k] + rz[k] * rz[k];
    rel.push_back(std::sqrt((dx * dx + dy * dy + dz * dz) / r2));
  }
  std::sort(rel.begin(), rel.end());
  bh->step(p, 2);  // warm
  std::vector<double> ms;
  std::map<std::string, double> phase;
  for (int k = 0; k < steps; ++k) {
    bh->step(p, 1);
    ms.push_back(bh->last_step_ms());
    for (const StepPhase& ph : bh->last_work().phases)
      phase[ph.name] += ph.ms / steps;
  }
  std::sort(ms.begin(), ms.end());
  double mean = 0;
  for (double v : ms)
    mean += v / steps;
  std::printf(
      "%-8s %8zu %-6s th %.2f %-4s leaf %2d grp %2d blk %3d | step %7.2f ms (mean %7.2f) | sort "
      "%5.2f build+moments %5.2f trav %7.2f integ %5.2f | med %.2e p99 %.2e | %.0f int/body\n",
      s.name.c_str(), held.size(), precision_name(c.precision), c.theta, c.quad ? "quad" : "mono",
      c.leaf, c.group, block, ms[ms.size() / 2], mean, phase["keys+sort"], phase["build"],
      phase["traversal"], phase["integrate"], rel[rel.size() / 2],
      rel[std::min(rel.size() - 1, rel.size() * 99 / 100)],
      bh->last_work().interactions / double(held.size()));
  std::fflush(stdout);
}

TEST(BarnesHutBench, DISABLED_Benchmark) {
  NBODY_REQUIRE_GPU();
  std::printf("%s\n", cuda_device_summary().c_str());
  const char* sizes_env = std::getenv("NBODY_BH_BENCH_N");
  std::vector<std::size_t> sizes = {1048576, 8388608};
  if (sizes_env) sizes = {static_cast<std::size_t>(std::atoll(sizes_env))};
  for (const std::size_t n : sizes) {
    const bool final_table = std::getenv("NBODY_BH_BENCH_FINAL") != nullptr;
    std::vector<BenchScene> scenes = {{"uniform", random_bodies(n, 1)}, {"plummer", plummer(n)}};
    if (final_table) {
      SceneParams sp;
      sp.n = n;
      scenes.push_back({"galaxy", make_scene("galaxy-collision", sp).bodies});
    }
    const char* only = std::getenv("NBODY_BH_BENCH_SCENE");
    for (const BenchScene& s : scenes) {
      if (only && s.name != only) continue;
      // the reference from float-rounded positions (what the float kernel holds)
      SimParams p0 = bh_params(Config{});
      auto tmp = make_backend(p0);
      tmp->set_bodies(s.bodies);
      const Bodies held = held_bodies(*tmp);
      tmp.reset();
      const auto idx = sample_indices(n, 1024);
      std::vector<double> rx, ry, rz;
      const auto t0 = std::chrono::steady_clock::now();
      reference_accelerations(held, idx, 1.0, 0.01, rx, ry, rz);
      std::printf("reference of %zu bodies: %.1f s\n", idx.size(),
                  std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
      const int steps = n > 4000000 ? 5 : 10;
      if (final_table) {
        // the defaults (quadrupoles, theta 0.55) and the monopole alternatives
        bench_line(s, Config{Precision::Float, 0.55, 16, 64, true}, 128, held, idx, rx, ry, rz,
                   steps);
        for (const double theta : {0.45, 0.5})
          bench_line(s, Config{Precision::Float, theta, 16, 64, false}, 128, held, idx, rx, ry, rz,
                     steps);
        continue;
      }
      for (const double theta : {0.3, 0.4, 0.5, 0.55, 0.6, 0.65, 0.7, 0.8, 1.0})
        bench_line(s, Config{Precision::Float, theta, 16, 64, true}, 128, held, idx, rx, ry, rz,
                   steps);
      for (const double theta : {0.4, 0.45, 0.5, 0.55, 0.6})
        bench_line(s, Config{Precision::Float, theta, 16, 64, false}, 128, held, idx, rx, ry, rz,
                   steps);
      for (const int leaf : {12, 24})
        bench_line(s, Config{Precision::Float, 0.6, leaf, 64, true}, 128, held, idx, rx, ry, rz,
                   steps);
      bench_line(s, Config{Precision::Float, 0.5, 16, 32, false}, 128, held, idx, rx, ry, rz,
                 steps);
      bench_line(s, Config{Precision::Double, 0.6, 16, 64, true}, 128, held, idx, rx, ry, rz,
                 steps);
    }
  }
}

}  // namespace
