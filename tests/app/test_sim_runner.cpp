// The simulation side of the window's Barnes-Hut views: the background accuracy check reports
// the running kernel's force error, a tree kernel publishes its cells, and a kernel switch
// forgets both (no stale numbers under another kernel's name).
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "app/sim_runner.hpp"
#include "sim/scene.hpp"

using namespace nbody;
using namespace nbody::app;

namespace {

// runs frames until `done` holds or ~20 s pass
template <typename Pred>
bool run_until(SimRunner& r, SimState& st, Pred done) {
  for (int i = 0; i < 2000; ++i) {
    r.run_frame();
    r.take(st);
    if (done(st)) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return false;
}

}  // namespace

TEST(SimRunner, AccuracyAndTreeCellsOfABarnesHutRun) {
  SceneParams sp;
  sp.n = 3000;
  const Scene scene = make_scene("plummer", sp);
  SimParams p = params_for_kernel(SimParams{}, "cpu-barnes-hut");
  p.dt = scene.dt;
  p.softening = scene.softening;
  p.G = scene.units.G;
  SimRunner r(scene, p, false);
  SimControls c;
  c.params = p;
  c.health = false;
  c.accuracy = true;
  c.tree_boxes = true;
  c.tree_depth = 3;
  r.set_controls(c);
  SimState st;
  ASSERT_TRUE(run_until(r, st, [](const SimState& s) { return s.accuracy && s.has_tree; }));
  EXPECT_EQ(st.accuracy->kernel, "cpu-barnes-hut");
  EXPECT_GE(st.accuracy->sample, 256u);
  EXPECT_EQ(st.accuracy->n, 3000u);
  // a tree's error: not zero, well under a percent at theta 0.5 with quadrupoles
  EXPECT_GT(st.accuracy->error.median, 0);
  EXPECT_LT(st.accuracy->error.median, 1e-3);
  EXPECT_LT(st.accuracy->error.p99, 1e-2);
  ASSERT_GT(st.tree.size(), 8u);
  for (const TreeCell& t : st.tree)
    EXPECT_LE(t.level, 3);

  // another kernel: the tree and the old report are gone; the new report is the new kernel's
  SimRequest req;
  req.kind = SimRequest::Kind::SwitchKernel;
  req.params = params_for_kernel(p, "cpu-openmp");
  r.request(req);
  c.params = req.params;
  r.set_controls(c);
  r.run_frame();
  r.take(st);
  EXPECT_EQ(st.kernel, "cpu-openmp");
  EXPECT_FALSE(st.has_tree);
  if (st.accuracy) EXPECT_EQ(st.accuracy->kernel, "cpu-openmp");
  ASSERT_TRUE(run_until(r, st, [](const SimState& s) { return s.accuracy.has_value(); }));
  EXPECT_EQ(st.accuracy->kernel, "cpu-openmp");
  EXPECT_LT(st.accuracy->error.median, 1e-5);  // the direct sum in float
}
