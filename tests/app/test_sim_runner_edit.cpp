// The simulation thread's hands-on requests (issue 19), inline: edits are undone and redone
// bitwise; a gesture's many edits are one undo step; the timeline rewinds and a replay from
// there gives the same bits; selection, cards, merging on touch and saving; on every CPU kernel
// family and, with a CUDA device, on the GPU kernels.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <memory>
#include <string>

#include "app/core/state_file.hpp"
#include "app/runner/sim_runner.hpp"
#include "sim/core/backend.hpp"
#include "sim/core/error.hpp"
#include "sim/core/scene.hpp"
#include "sim/lesson/lesson.hpp"

using namespace nbody;
using namespace nbody::app;

namespace {

bool same_bits(const Bodies& a, const Bodies& b) {
  if (a.size() != b.size()) return false;
  auto eq = [](const std::vector<double>& u, const std::vector<double>& v) {
    return u.size() == v.size() && std::memcmp(u.data(), v.data(), u.size() * sizeof(double)) == 0;
  };
  return eq(a.x, b.x) && eq(a.y, b.y) && eq(a.z, b.z) && eq(a.vx, b.vx) && eq(a.vy, b.vy) &&
         eq(a.vz, b.vz) && eq(a.m, b.m);
}

SimRequest edit_request(Edit e, long long gesture = 0, bool end = false) {
  SimRequest r;
  r.kind = SimRequest::Kind::Edit;
  r.edit = std::move(e);
  r.gesture = gesture;
  r.gesture_end = end;
  return r;
}

SimRequest simple(SimRequest::Kind k) {
  SimRequest r;
  r.kind = k;
  return r;
}

struct TestRun {
  Scene scene;
  SimParams params;
};

TestRun plummer_run(const std::string& kernel, std::size_t n) {
  SceneParams sp;
  sp.n = n;
  sp.seed = 3;
  TestRun r{make_scene("plummer", sp), params_for_kernel(SimParams{}, kernel)};
  r.params.dt = r.scene.dt;
  r.params.softening = r.scene.softening;
  r.params.G = r.scene.units.G;
  return r;
}

SimControls quiet(int steps_per_frame) {
  SimControls c;
  c.steps_per_frame = steps_per_frame;
  c.health = false;
  c.accuracy = false;
  return c;
}

// edits, undo and redo, a gesture, rewind and replay on `kernel`
void hands_on(const std::string& kernel) {
  SCOPED_TRACE(kernel);
  const TestRun run = plummer_run(kernel, 257);
  SimRunner r(run.scene, run.params, false);
  SimControls c = quiet(7);
  c.paused = true;
  r.set_controls(c);
  SimState st;
  r.run_frame();
  r.take(st);
  const Bodies start = r.bodies_inline();

  // add a heavy body: one undoable edit; undo is bitwise the start, redo bitwise the edit
  Edit add;
  add.kind = Edit::Kind::Add;
  BodySpec b;
  b.x = 0.5, b.vy = 0.3, b.m = 0.05, b.name = "intruder";
  add.bodies.push_back(b);
  r.request(edit_request(add));
  r.run_frame();
  r.take(st);
  ASSERT_EQ(st.n, 258u) << st.error;
  ASSERT_EQ(st.undo_labels.size(), 1u);
  EXPECT_GT(st.edit_serial, 0);
  const Bodies added = r.bodies_inline();
  r.request(simple(SimRequest::Kind::Undo));
  r.run_frame();
  r.take(st);
  EXPECT_TRUE(same_bits(r.bodies_inline(), start));
  EXPECT_EQ(st.redo_labels.size(), 1u);
  r.request(simple(SimRequest::Kind::Redo));
  r.run_frame();
  r.take(st);
  EXPECT_TRUE(same_bits(r.bodies_inline(), added));

  // a drag moving a body: five edits, one undo step
  for (int k = 0; k < 5; ++k) {
    Edit mv;
    mv.kind = Edit::Kind::Translate;
    mv.indices = {257};
    mv.dx = 0.01;
    r.request(edit_request(mv, 42, k == 4));
  }
  r.run_frame();
  r.take(st);
  EXPECT_EQ(st.undo_labels.size(), 2u);
  EXPECT_NEAR(r.bodies_inline().x[257], 0.55, 1e-12);
  r.request(simple(SimRequest::Kind::Undo));
  r.run_frame();
  r.take(st);
  EXPECT_TRUE(same_bits(r.bodies_inline(), added));

  // run: the timeline keeps a snapshot at the first batch; rewind there and replay the same
  // number of steps in other batch sizes: the same bits (a deterministic kernel)
  c.paused = false;
  r.set_controls(c);
  r.run_frame();  // 7 steps, snapshot
  r.take(st);
  ASSERT_FALSE(st.timeline.empty());
  const double t_snap = st.timeline.back();
  const long long steps_snap = st.steps;
  for (int i = 0; i < 4; ++i)
    r.run_frame();  // 28 more
  r.take(st);
  const long long steps_end = st.steps;
  const Bodies end = r.bodies_inline();
  SimRequest back = simple(SimRequest::Kind::Rewind);
  back.time = t_snap;
  r.request(back);
  c.paused = true;
  r.set_controls(c);
  r.run_frame();
  r.take(st);
  EXPECT_EQ(st.steps, steps_snap);
  EXPECT_DOUBLE_EQ(st.time, t_snap);
  c = quiet(4);
  r.set_controls(c);
  while (st.steps < steps_end) {
    if (steps_end - st.steps < 4) {
      c.steps_per_frame = static_cast<int>(steps_end - st.steps);
      r.set_controls(c);
    }
    r.run_frame();
    r.take(st);
  }
  EXPECT_EQ(st.steps, steps_end);
  EXPECT_TRUE(same_bits(r.bodies_inline(), end)) << "the replay differs";

  // delete it; the selection and cards follow the simulation's answer
  Edit del;
  del.kind = Edit::Kind::Remove;
  del.indices = {257};
  r.request(edit_request(del));
  c.paused = true;
  c.selection = {0, 1};
  r.set_controls(c);
  r.run_frame();
  r.take(st);
  EXPECT_EQ(st.n, 257u);
  ASSERT_EQ(st.cards.size(), 2u);
  EXPECT_EQ(st.cards[1].index, 1u);
  EXPECT_GT(st.cards[0].kinetic, 0);
  EXPECT_LT(st.cards[0].potential, 0);
  EXPECT_TRUE(st.error.empty()) << st.error;
}

}  // namespace

TEST(SimRunnerEdit, UndoRedoGestureRewindReplayOnCpuKernels) {
  for (const char* k : {"cpu-reference", "cpu-openmp", "cpu-symmetric", "cpu-barnes-hut"})
    hands_on(k);
}

TEST(SimRunnerEdit, UndoRedoGestureRewindReplayOnGpuKernels) {
  if (!cuda_available()) GTEST_SKIP() << "no CUDA device: " << cuda_device_summary();
  for (const char* k : {"tiled", "tiled2d", "barnes-hut"})
    hands_on(k);
}

TEST(SimRunnerEdit, SelectByPointAndBox) {
  const TestRun run = plummer_run("cpu-reference", 100);
  SimRunner r(run.scene, run.params, false);
  r.set_controls(quiet(1));
  SimState st;
  // an orthographic-like view: x, y straight to the screen (identity, z kept in the clip box)
  SimRequest q = simple(SimRequest::Kind::Select);
  q.selector.view_proj = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0.01f, 0, 0, 0, 0, 1};
  q.selector.width = 200;
  q.selector.height = 200;
  q.selector.box = true;
  q.selector.x0 = 0, q.selector.y0 = 0, q.selector.x1 = 200, q.selector.y1 = 200;
  r.request(q);
  r.run_frame();
  r.take(st);
  const Bodies b = r.bodies_inline();
  std::size_t inside = 0;
  for (std::size_t i = 0; i < b.size(); ++i)
    inside += std::abs(b.x[i]) <= 1 && std::abs(b.y[i]) <= 1 && std::abs(b.z[i]) <= 100;
  EXPECT_EQ(st.selection.size(), inside);
  // a point on body 5's pixel picks it
  SimRequest p = q;
  p.selector.box = false;
  for (std::size_t i = 0; i < b.size(); ++i)
    if (std::abs(b.x[i]) < 0.9 && std::abs(b.y[i]) < 0.9) {
      p.selector.x0 = static_cast<float>((b.x[i] * 0.5 + 0.5) * 200);
      p.selector.y0 = static_cast<float>((0.5 - b.y[i] * 0.5) * 200);
      p.selector.radius = 0.5f;
      r.request(p);
      r.run_frame();
      r.take(st);
      ASSERT_EQ(st.selection.size(), 1u);
      EXPECT_EQ(st.selection[0], i);
      break;
    }
}

TEST(SimRunnerEdit, MergingOnTouchConservesMassAndMomentumAndCounts) {
  Scene s = make_scene("plummer", SceneParams{.n = 64, .seed = 2, .values = {}});
  // two bodies on top of each other
  s.bodies.x[1] = s.bodies.x[0] + 1e-4;
  s.bodies.y[1] = s.bodies.y[0];
  s.bodies.z[1] = s.bodies.z[0];
  s.bodies.vx[1] = s.bodies.vx[0] + 0.01;  // moving together, slowly apart
  s.bodies.vy[1] = s.bodies.vy[0];
  s.bodies.vz[1] = s.bodies.vz[0];
  SimParams p = params_for_kernel(SimParams{}, "cpu-reference");
  p.precision = Precision::Double;
  p.dt = s.dt;
  PhysicsOverride eps;
  eps.softening = 0.001;  // only the two on top of each other touch
  SimRunner r(s, p, false, eps);
  SimControls c = quiet(1);
  c.merge = true;
  r.set_controls(c);
  double px = 0, m = 0;
  {
    const Bodies b = r.bodies_inline();
    for (std::size_t i = 0; i < b.size(); ++i)
      px += b.m[i] * b.vx[i], m += b.m[i];
  }
  SimState st;
  r.run_frame();
  r.take(st);
  EXPECT_EQ(st.mergers, 1);
  EXPECT_EQ(st.n, 63u);
  const Bodies b = r.bodies_inline();
  double px2 = 0, m2 = 0;
  for (std::size_t i = 0; i < b.size(); ++i)
    px2 += b.m[i] * b.vx[i], m2 += b.m[i];
  EXPECT_NEAR(m2, m, 1e-15);
  EXPECT_NEAR(px2, px, 1e-12);  // one step of forces moves momentum by round-off only
}

TEST(SimRunnerEdit, SaveHandsTheCurrentStateToTheWriter) {
  const TestRun run = plummer_run("cpu-reference", 50);
  SimRunner r(run.scene, run.params, false);
  r.set_controls(quiet(3));
  SimState st;
  r.run_frame();
  std::size_t saved_n = 0;
  double saved_t = -1;
  long long saved_steps = -1;
  SimRequest q = simple(SimRequest::Kind::Save);
  q.path = "memory";
  q.save = [&](const Scene& s, const SimParams& p, double t, long long steps) {
    saved_n = s.bodies.size();
    saved_t = t;
    saved_steps = steps;
    EXPECT_EQ(p.kernel, "cpu-reference");
  };
  r.request(q);
  r.run_frame();
  r.take(st);
  EXPECT_EQ(saved_n, 50u);
  EXPECT_EQ(saved_steps, 3);
  EXPECT_GT(saved_t, 0);
  // a writer that fails: an error naming the save, nothing else changes
  q.save = [](const Scene&, const SimParams&, double, long long) { throw Error("disk full"); };
  r.request(q);
  r.run_frame();
  r.take(st);
  EXPECT_NE(st.error.find("save failed: disk full"), std::string::npos) << st.error;
}

TEST(SimRunnerEdit, LoadStateRestoresBodiesTimeKernelAndView) {
  const TestRun run = plummer_run("cpu-symmetric", 40);
  SimRunner r(run.scene, run.params, false);
  r.set_controls(quiet(5));
  SimState st;
  r.run_frame();
  r.take(st);
  const Bodies saved = r.bodies_inline();
  const auto path =
      (std::filesystem::temp_directory_path() / "nbody_runner_state_test.bin").string();
  SimRequest save = simple(SimRequest::Kind::Save);
  save.path = path;
  save.save = [&](const Scene& s, const SimParams& p, double t, long long steps) {
    save_state_file(path, s, p, t, steps, {{"distance", 7.5}, {"yaw", 0.25}});
  };
  r.request(save);
  SimControls c = quiet(5);
  c.paused = true;
  r.set_controls(c);
  r.run_frame();
  // another scene and kernel, then the saved state
  SimRequest other = simple(SimRequest::Kind::SwitchKernel);
  other.choice = params_for_kernel(run.params, "cpu-reference").choice();
  r.request(other);
  SimRequest load = simple(SimRequest::Kind::LoadState);
  load.path = path;
  r.request(load);
  r.run_frame();
  r.take(st);
  EXPECT_TRUE(st.error.empty()) << st.error;
  EXPECT_EQ(st.n, 40u);
  EXPECT_EQ(st.steps, 5);
  EXPECT_EQ(st.kernel, "cpu-symmetric");
  EXPECT_EQ(st.view_serial, 1);
  EXPECT_DOUBLE_EQ(st.view.at("distance"), 7.5);
  EXPECT_TRUE(same_bits(r.bodies_inline(), saved));
  std::filesystem::remove(path);
}

TEST(SimRunnerEdit, ALessonPlaysItsEditsAtTheirTimes) {
  // the shipped "heavy sun": at its time the Sun's mass doubles; the batch ends on the event
  auto lesson = std::make_shared<const Lesson>(load_lesson("heavy-sun"));
  Scene scene = make_lesson_scene(*lesson);
  SimParams p = params_for_kernel(SimParams{}, "cpu-symmetric");
  p.precision = Precision::Double;
  SimRunner r(scene, p, false);
  r.set_controls(quiet(200));
  SimRequest q = simple(SimRequest::Kind::Lesson);
  q.lesson = lesson;
  r.request(q);
  SimState st;
  r.run_frame();
  r.take(st);
  EXPECT_EQ(st.lesson_title.empty(), false);
  const double sun0 = r.bodies_inline().m[0];
  SimUpdate u;
  bool doubled = false;
  std::vector<LessonAction> actions;
  for (int i = 0; i < 400 && !doubled; ++i) {
    r.run_frame();
    u = r.take(st);
    actions.insert(actions.end(), u.lesson.begin(), u.lesson.end());
    doubled = r.bodies_inline().m[0] > 1.5 * sun0;
  }
  ASSERT_TRUE(doubled) << st.error;
  EXPECT_NEAR(r.bodies_inline().m[0], 2 * sun0, 1e-12 * sun0);
  EXPECT_FALSE(actions.empty());  // its captions reach the UI
  EXPECT_TRUE(st.error.empty()) << st.error;
}
