#include "sim/edit/timeline.hpp"

#include <cstring>

#include <gtest/gtest.h>

using namespace nbody;

namespace {

// a snapshot of n bodies at time t whose values all derive from t
Snapshot snap(double t, std::size_t n = 100) {
  auto s = std::make_shared<Scene>();
  for (std::size_t i = 0; i < n; ++i)
    s->bodies.add(t + i, t * 2 + 0.1 * i, -t, 0.5 * t, 1.0 / (i + 1), t / 3, 1e-3 * (i + 1));
  Snapshot r;
  r.time = t;
  r.steps = static_cast<long long>(t * 10);
  r.scene = std::move(s);
  return r;
}

bool bitwise(const Snapshot& a, const Snapshot& b) {
  const Bodies &x = a.scene->bodies, &y = b.scene->bodies;
  if (x.size() != y.size() || a.time != b.time || a.steps != b.steps) return false;
  const std::vector<double>* fx[] = {&x.x, &x.y, &x.z, &x.vx, &x.vy, &x.vz, &x.m};
  const std::vector<double>* fy[] = {&y.x, &y.y, &y.z, &y.vx, &y.vy, &y.vz, &y.m};
  for (int f = 0; f < 7; ++f)
    if (std::memcmp(fx[f]->data(), fy[f]->data(), x.size() * sizeof(double)) != 0) return false;
  return true;
}

}  // namespace

TEST(Timeline, KeepsSortedAndFindsAtOrBefore) {
  Timeline tl;
  for (double t : {0.0, 2.0, 1.0, 3.0})
    tl.record(snap(t));
  EXPECT_EQ(tl.times(), (std::vector<double>{0, 1, 2, 3}));
  EXPECT_EQ(tl.at_or_before(-1), nullptr);
  EXPECT_EQ(tl.at_or_before(1.5)->time, 1);
  EXPECT_EQ(tl.at_or_before(2)->time, 2);
  EXPECT_EQ(tl.at_or_before(99)->time, 3);
  EXPECT_EQ(tl.first(), 0);
  EXPECT_EQ(tl.last(), 3);
  // the same time again replaces
  tl.record(snap(2));
  EXPECT_EQ(tl.size(), 4u);
  EXPECT_EQ(tl.bytes(), 4 * snap(0).bytes());
  tl.truncate_after(1.5);
  EXPECT_EQ(tl.times(), (std::vector<double>{0, 1}));
  EXPECT_EQ(tl.bytes(), 2 * snap(0).bytes());
  tl.clear();
  EXPECT_TRUE(tl.empty());
  EXPECT_EQ(tl.bytes(), 0u);
}

TEST(Timeline, BudgetThinsTheOlderHalfKeepingFirstAndNewest) {
  Timeline tl;
  const std::size_t one = snap(0).bytes();
  tl.set_budget(10 * one);
  for (int k = 0; k <= 200; ++k) {
    tl.record(snap(k));
    EXPECT_LE(tl.bytes(), 10 * one);
    EXPECT_EQ(tl.first(), 0);
    EXPECT_EQ(tl.last(), k);
  }
  EXPECT_GE(tl.size(), 5u);
  // the kept times spread over the run: the older half is thinned, the recent half is dense
  const std::vector<double> t = tl.times();
  for (std::size_t k = 1; k < t.size(); ++k)
    EXPECT_LT(t[k - 1], t[k]);
  EXPECT_GT(t[1], 10);
  // a smaller budget thins at once
  tl.set_budget(3 * one);
  EXPECT_LE(tl.bytes(), 3 * one);
  EXPECT_EQ(tl.first(), 0);
  EXPECT_EQ(tl.last(), 200);
}

TEST(Timeline, Due) {
  Timeline tl;
  EXPECT_TRUE(tl.due(0, 1));
  tl.record(snap(0));
  EXPECT_FALSE(tl.due(0.5, 1));
  EXPECT_TRUE(tl.due(1, 1));
  EXPECT_TRUE(tl.due(-1, 1));  // running backwards
}

TEST(UndoStack, UndoRedoRestoreBitwise) {
  UndoStack u;
  EXPECT_FALSE(u.can_undo());
  EXPECT_EQ(u.undo(), nullptr);
  u.push("add a", snap(0), snap(1));
  u.push("add b", snap(1), snap(2));
  u.push("remove c", snap(2), snap(3));
  EXPECT_EQ(u.undo_label(), "remove c");
  EXPECT_TRUE(bitwise(*u.undo(), snap(2)));
  EXPECT_TRUE(bitwise(*u.undo(), snap(1)));
  EXPECT_EQ(u.cursor(), 1u);
  EXPECT_EQ(u.redo_label(), "add b");
  EXPECT_TRUE(bitwise(*u.redo(), snap(2)));
  EXPECT_TRUE(bitwise(*u.undo(), snap(1)));
  EXPECT_TRUE(bitwise(*u.undo(), snap(0)));
  EXPECT_EQ(u.undo(), nullptr);
  EXPECT_TRUE(u.can_redo());
  // a new edit drops the undone ones
  u.redo();
  u.push("move d", snap(1), snap(5));
  EXPECT_EQ(u.labels(), (std::vector<std::string>{"add a", "move d"}));
  EXPECT_FALSE(u.can_redo());
  EXPECT_TRUE(bitwise(*u.undo(), snap(1)));
}

TEST(UndoStack, BudgetDropsTheOldest) {
  UndoStack u;
  const std::size_t one = snap(0).bytes();
  u.set_budget(7 * one);
  for (int k = 0; k < 10; ++k)
    u.push("edit " + std::to_string(k), snap(k), snap(k + 1));
  EXPECT_LE(u.bytes(), 7 * one);
  EXPECT_EQ(u.size(), 3u);
  EXPECT_EQ(u.labels().front(), "edit 7");
  EXPECT_EQ(u.undo_label(), "edit 9");
  // a scene shared by an edit's after and the next edit's before counts once
  UndoStack shared;
  shared.set_budget(3 * one);
  Snapshot a = snap(20), b = snap(21), c = snap(22);
  shared.push("one", a, b);
  shared.push("two", b, c);
  EXPECT_EQ(shared.bytes(), 3 * one);
  EXPECT_EQ(shared.size(), 2u);
  // the newest is kept even alone over budget
  u.set_budget(1);
  EXPECT_EQ(u.size(), 1u);
  EXPECT_TRUE(bitwise(*u.undo(), snap(9)));
}
