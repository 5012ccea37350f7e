// The simulation side of the window's Barnes-Hut views: the background accuracy check reports
// the running kernel's force error, a tree kernel publishes its cells, and a kernel switch
// forgets both (no stale numbers under another kernel's name).
#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <thread>

#include "app/runner/sim_runner.hpp"
#include "sim/core/scene.hpp"

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
  ASSERT_TRUE(st.tree);
  ASSERT_GT(st.tree->size(), 8u);
  for (const TreeCell& t : *st.tree)
    EXPECT_LE(t.level, 3);

  // another kernel: the tree and the old report are gone; the new report is the new kernel's
  SimRequest req;
  req.kind = SimRequest::Kind::SwitchKernel;
  req.choice = params_for_kernel(p, "cpu-openmp").choice();
  r.request(req);
  r.run_frame();
  r.take(st);
  EXPECT_EQ(st.kernel, "cpu-openmp");
  EXPECT_FALSE(st.has_tree);
  if (st.accuracy) {
    EXPECT_EQ(st.accuracy->kernel, "cpu-openmp");
  }
  ASSERT_TRUE(run_until(r, st, [](const SimState& s) { return s.accuracy.has_value(); }));
  EXPECT_EQ(st.accuracy->kernel, "cpu-openmp");
  EXPECT_LT(st.accuracy->error.median, 1e-5);  // the direct sum in float
}

// issue 11: the structure of a galaxy scene's groups is measured with the health checks, off
// the simulation thread, once per state; a reset drops what was measured before it; scenes
// without disk bodies or groups measure none
TEST(SimRunner, StructureOfTheGalaxiesWithTheHealthChecks) {
  SceneParams sp;
  sp.n = 1200;
  const Scene scene = make_scene("galaxy-collision", sp);
  SimParams p = params_for_kernel(SimParams{}, "cpu-barnes-hut");
  p.dt = scene.dt;
  p.softening = scene.softening;
  p.G = scene.units.G;
  SimRunner r(scene, p, false);
  SimControls c;
  c.health = true;
  c.accuracy = false;
  r.set_controls(c);
  SimState st;
  std::vector<StructureSample> samples;
  for (int i = 0; i < 2000 && samples.size() < 3; ++i) {
    r.run_frame();
    for (StructureSample& x : r.take(st).structure)
      samples.push_back(std::move(x));
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  ASSERT_GE(samples.size(), 3u);
  ASSERT_TRUE(st.structure.has_value());
  EXPECT_TRUE(st.shows_structure);
  const std::size_t groups = scene.groups.empty() ? 1 : scene.groups.size();
  for (const StructureSample& x : samples) {
    ASSERT_EQ(x.groups.size(), groups);
    for (const GroupStructure& g : x.groups) {
      EXPECT_GT(g.disk_bodies, 0u) << g.name;
      EXPECT_GT(g.lagrangian[2], 0) << g.name;
      EXPECT_LT(g.lagrangian[0], g.lagrangian[4]) << g.name;
    }
  }
  // one sample per state: times increase
  for (std::size_t i = 1; i < samples.size(); ++i)
    EXPECT_GT(samples[i].time, samples[i - 1].time);

  // reset: the next samples belong to the new run
  const long long before = st.reset_serial;
  r.request(SimRequest::of(SimRequest::Kind::Reset));
  ASSERT_TRUE(run_until(r, st, [&](const SimState& s) {
    return s.reset_serial > before && s.structure && s.structure->reset_serial == s.reset_serial;
  }));

  // a Plummer sphere has no disk and no groups: nothing is measured
  SimRunner plummer(make_scene("plummer", sp), params_for_kernel(p, "cpu-openmp"), false);
  plummer.set_controls(c);
  SimState ps;
  for (int i = 0; i < 5; ++i) {
    plummer.run_frame();
    EXPECT_TRUE(plummer.take(ps).structure.empty());
  }
  EXPECT_FALSE(ps.shows_structure);
  EXPECT_FALSE(ps.structure.has_value());
}

// issue 18: the simulation owns dt, ε, G, the integrator and 1PN; the UI asks with a request
// that carries them; an invalid one is refused with a message and changes nothing; the
// command line's values replace a new scene's; Reset restores the values the scene started with
TEST(SimRunner, PhysicsHasOneOwnerAndChangesByRequest) {
  SceneParams sp;
  sp.n = 300;
  const Scene scene = make_scene("plummer", sp);
  SimParams p = params_for_kernel(SimParams{}, "cpu-openmp");
  PhysicsOverride cli;
  cli.dt = scene.dt / 4;
  SimRunner r(scene, p, false, cli);
  SimControls c;
  c.health = false;
  c.accuracy = false;
  r.set_controls(c);
  SimState st;
  r.take(st);
  EXPECT_DOUBLE_EQ(st.params.dt, scene.dt / 4);            // the command line's
  EXPECT_DOUBLE_EQ(st.params.softening, scene.softening);  // the scene's
  EXPECT_EQ(st.physics_requests, 0);

  // a request with its payload
  SimRequest set;
  set.kind = SimRequest::Kind::SetPhysics;
  set.physics = st.params.physics();
  set.physics.dt = scene.dt / 8;
  set.physics.integrator = Integrator::Yoshida4;
  r.request(set);
  r.run_frame();
  r.take(st);
  EXPECT_DOUBLE_EQ(st.params.dt, scene.dt / 8);
  EXPECT_EQ(st.params.integrator, Integrator::Yoshida4);
  EXPECT_EQ(st.physics_requests, 1);

  // an invalid one: refused, nothing changes, the error names the parameter
  set.physics.dt = 0;
  r.request(set);
  r.run_frame();
  r.take(st);
  EXPECT_DOUBLE_EQ(st.params.dt, scene.dt / 8);
  EXPECT_EQ(st.physics_requests, 2);
  EXPECT_NE(st.error.find("dt must be finite and not 0"), std::string::npos) << st.error;

  // tunables alone: no new backend, the value applies
  SimRequest tune;
  tune.kind = SimRequest::Kind::SwitchKernel;
  tune.choice = st.params.choice();
  tune.choice.tunables["threads"] = 1;
  r.request(tune);
  r.run_frame();
  r.take(st);
  EXPECT_EQ(st.kernel_requests, 1);
  EXPECT_EQ(st.params.tunables.at("threads"), 1);

  // Reset: the values the scene started with (the command line's dt)
  r.request(SimRequest::of(SimRequest::Kind::Reset));
  r.run_frame();
  r.take(st);
  EXPECT_DOUBLE_EQ(st.params.dt, scene.dt / 4);
  EXPECT_EQ(st.params.integrator, Integrator::Yoshida4);  // the integrator is not the scene's

  // a new scene from the panel: its own dt (no override), the integrator kept
  SimRequest scene_req;
  scene_req.kind = SimRequest::Kind::Scene;
  scene_req.what = "scene plummer";
  scene_req.make = [sp] { return make_scene("plummer", sp); };
  r.request(scene_req);
  r.run_frame();
  r.take(st);
  EXPECT_DOUBLE_EQ(st.params.dt, scene.dt);
  EXPECT_EQ(st.params.integrator, Integrator::Yoshida4);
}

// issue 18: the monitors write their parts of the one published state; the map and the tree's
// cells are shared between published copies, not copied; a reset makes the health and structure
// monitors start over (no energy of the old run), a new measurement follows
TEST(SimRunner, MonitorsWriteTheStateAndForgetOnReset) {
  SceneParams sp;
  sp.n = 600;
  const Scene scene = make_scene("plummer", sp);
  SimParams p = params_for_kernel(SimParams{}, "cpu-barnes-hut");
  SimRunner r(scene, p, false);
  SimControls c;
  c.health = true;
  c.accuracy = false;
  c.map_enabled = true;
  c.tree_boxes = true;
  r.set_controls(c);
  SimState st;
  ASSERT_TRUE(run_until(r, st, [](const SimState& s) {
    return s.diag && s.map && s.map->size > 0 && s.tree && !s.tree->empty();
  }));
  EXPECT_LT(std::abs(st.diag->total - st.e0), 1e-3 * std::abs(st.e0));
  // the next publish without a new map shares the same map
  const long long map_version = st.map_version;
  const ActivityMap* map = st.map.get();
  SimState next;
  r.run_frame();
  r.take(next);
  if (next.map_version == map_version) {
    EXPECT_EQ(next.map.get(), map);
  }
  EXPECT_EQ(st.map->size, c.map.size);

  // a reset: the energy of the old run is forgotten in the state published with it
  const long long resets = next.reset_serial;
  r.request(SimRequest::of(SimRequest::Kind::Reset));
  r.run_frame();
  r.take(st);
  EXPECT_EQ(st.reset_serial, resets + 1);
  EXPECT_FALSE(st.diag.has_value());
  EXPECT_FALSE(st.health_paused);
  ASSERT_TRUE(run_until(r, st, [](const SimState& s) { return s.diag.has_value(); }));
  EXPECT_LT(std::abs(st.diag->total - st.e0), 1e-3 * std::abs(st.e0));
}
