// Lessons (issue 19, item 7): parsing a good file, each kind of bad input naming the file, the
// event and the field, times with units, and the player: each event once, again after a rewind,
// names resolved against the scene as it is when the event is due.

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "sim/core/error.hpp"
#include "sim/lesson/lesson.hpp"
#include "tests/test_util.hpp"

using namespace nbody;

namespace {

const char* kGood = R"({
  "title": "t", "description": "d",
  "scene": {"name": "two-body", "params": {"e": 0.3}},
  "physics": {"dt": 0.01, "integrator": "yoshida4", "speed": 2},
  "events": [
    {"time": 2, "action": "caption", "text": "later", "duration": 3},
    {"time": 1, "action": "add", "mass": 0.5, "name": "third", "position": [0, 2, 0],
     "velocity": [0.1, 0, 0], "relative_to": "one"},
    {"time": 1, "action": "follow", "name": "third"},
    {"time": 1.5, "action": "set", "name": "third", "mass_factor": 2, "velocity_factor": -1},
    {"time": 3, "action": "merge", "names": ["one", "third"]},
    {"time": 3, "action": "collisions", "on": true},
    {"time": 4, "action": "delete", "name": "two"},
    {"time": 4, "action": "speed", "value": 0.5},
    {"time": 4, "action": "pause"},
    {"time": 5, "action": "end"}
  ]
})";

// a two-body scene whose bodies are named "one" and "two"
Scene named_scene() {
  Scene s = make_scene("two-body");
  s.bodies.name = {"one", "two"};
  return s;
}

std::string error_of(const std::string& text) {
  return test::error_of([&] { parse_lesson(text, "bad.json"); });
}

// kGood with one event replaced
std::string with_event(const std::string& event) {
  return std::string(
             R"({"title": "t", "scene": "two-body", "events": [{"time": 0, "action": "pause"}, )") +
         event + "]}";
}

}  // namespace

TEST(Lesson, ParsesAGoodFile) {
  const Lesson l = parse_lesson(kGood, "good.json");
  EXPECT_EQ(l.title, "t");
  EXPECT_EQ(l.scene.name, "two-body");
  EXPECT_EQ(l.scene.params.values.at("e"), 0.3);
  ASSERT_TRUE(l.integrator);
  EXPECT_EQ(*l.integrator, Integrator::Yoshida4);
  ASSERT_EQ(l.events.size(), 10u);
  EXPECT_EQ(l.events[1].kind, LessonEvent::Kind::Add);
  EXPECT_EQ(l.events[1].relative_to, "one");
  EXPECT_EQ(*l.events[1].mass, 0.5);
  EXPECT_EQ(l.events[3].mass_factor.value_or(0), 2);
}

TEST(Lesson, TimesWithUnits) {
  const UnitSystem solar = units::solar(), galactic = units::galactic(), henon = units::henon();
  EXPECT_DOUBLE_EQ(lesson_time({30, "d"}, solar, "x"), 30);
  EXPECT_DOUBLE_EQ(lesson_time({2, "yr"}, solar, "x"), 730.5);
  EXPECT_NEAR(lesson_time({100, "Myr"}, galactic, "x"), 0.10227, 1e-4);
  EXPECT_EQ(lesson_time({3, ""}, henon, "x"), 3);
  const std::string m = test::error_of([&] { lesson_time({2, "yr"}, henon, "les.json: event 4"); });
  EXPECT_NE(m.find("les.json: event 4"), std::string::npos) << m;
  EXPECT_NE(m.find("dimensionless"), std::string::npos) << m;
}

TEST(Lesson, BadInputNamesFileEventAndField) {
  struct Case {
    std::string text;
    std::vector<std::string> parts;
  };
  const std::vector<Case> cases = {
      {"{", {"bad.json", "not valid JSON"}},
      {R"({"scene": "two-body"})", {"bad.json", "'title'", "missing"}},
      {R"({"title": "t", "scene": "two-body", "colour": 1})", {"bad.json", "'colour'"}},
      {R"({"title": "t", "scene": {"n": 3}})", {"bad.json: scene", "name", "file"}},
      {R"({"title": "t", "scene": "two-body", "physics": {"dt": -1}})",
       {"bad.json: physics", "'dt'"}},
      {with_event(R"({"time": 1, "action": "fly"})"), {"bad.json: event 1", "'action'", "fly"}},
      {with_event(R"({"action": "pause"})"), {"event 1 (pause)", "'time'", "missing"}},
      {with_event(R"({"time": "3 fortnights", "action": "pause"})"),
       {"event 1 (pause)", "'time'", "fortnights"}},
      {with_event(R"({"time": 1, "action": "add", "position": [0, 0, 0]})"),
       {"event 1 (add)", "palette", "mass"}},
      {with_event(R"({"time": 1, "action": "add", "mass": 1, "position": [0, 0]})"),
       {"event 1 (add)", "'position'", "[x, y, z]"}},
      {with_event(R"({"time": 1, "action": "add", "mass": 1, "velocity": [0, "a", 0]})"),
       {"event 1 (add)", "'velocity'", "number"}},
      {with_event(R"({"time": 1, "action": "merge", "names": ["one"]})"),
       {"event 1 (merge)", "'names'", "two names"}},
      {with_event(R"({"time": 1, "action": "set", "name": "one"})"), {"event 1 (set)", "mass"}},
      {with_event(R"({"time": 1, "action": "set", "name": "one", "mass": 1, "mass_factor": 2})"),
       {"event 1 (set)", "'mass_factor'", "not both"}},
      {with_event(R"({"time": 1, "action": "caption"})"), {"event 1 (caption)", "'text'"}},
      {with_event(R"({"time": 1, "action": "caption", "text": "x", "colour": 2})"),
       {"event 1 (caption)", "'colour'", "not a field of 'caption'"}},
      {with_event(R"({"time": 1, "action": "collisions", "on": "yes"})"),
       {"event 1 (collisions)", "'on'", "true or false"}},
      {with_event(R"({"time": 1, "action": "speed"})"), {"event 1 (speed)", "'value'"}},
      {with_event(R"({"time": 1, "action": "throw_comet", "distance": 2})"),
       {"event 1 (throw_comet)", "'distance'", "\"at\""}},
      {with_event(R"({"time": -1, "action": "end"})"), {"event 1 (end)", "'time'", ">= 0"}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    const std::string m = error_of(c.text);
    EXPECT_FALSE(m.empty()) << "no error";
    for (const std::string& p : c.parts)
      EXPECT_NE(m.find(p), std::string::npos) << "'" << m << "' does not mention '" << p << "'";
  }
}

TEST(Lesson, PlayerReturnsEachEventOnceAndAgainAfterARewind) {
  LessonPlayer player(parse_lesson(kGood, "good.json"), units::henon());
  Scene s = named_scene();
  auto drain = [&](double t) {
    std::vector<LessonAction> v;
    while (auto a = player.next_due(t, s, 1.0)) {
      EXPECT_NE(a->kind, LessonAction::Kind::Error) << a->text;
      if (a->kind == LessonAction::Kind::Edit) apply_edit(s, a->edit);
      v.push_back(*a);
    }
    return v;
  };
  EXPECT_TRUE(drain(0.5).empty());
  EXPECT_EQ(player.next_time().value_or(-1), 1.0);
  // t = 1: the add, then the follow that names the added body (events at one time keep the
  // file's order)
  std::vector<LessonAction> at1 = drain(1.0);
  ASSERT_EQ(at1.size(), 2u);
  EXPECT_EQ(at1[0].kind, LessonAction::Kind::Edit);
  EXPECT_EQ(at1[0].edit.kind, Edit::Kind::Add);
  EXPECT_EQ(at1[1].kind, LessonAction::Kind::Follow);
  EXPECT_EQ(at1[1].body, 2u);
  // the added body is relative to "one"
  EXPECT_DOUBLE_EQ(s.bodies.y[2], s.bodies.y[0] + 2);
  EXPECT_TRUE(drain(1.2).empty());  // once only
  std::vector<LessonAction> at2 = drain(2.0);
  ASSERT_EQ(at2.size(), 2u);  // the set at 1.5, the caption at 2
  EXPECT_EQ(at2[0].edit.kind, Edit::Kind::Set);
  EXPECT_DOUBLE_EQ(s.bodies.m[2], 1.0);
  EXPECT_EQ(at2[1].kind, LessonAction::Kind::Caption);
  EXPECT_EQ(at2[1].text, "later");
  EXPECT_EQ(at2[1].value, 3);
  // rewind to 1.7: the caption at 2 is due again, the set at 1.5 is not
  EXPECT_TRUE(drain(1.7).empty());
  std::vector<LessonAction> again = drain(2.5);
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(again[0].kind, LessonAction::Kind::Caption);
  // the rest: merge, collisions, delete, speed, pause, end
  std::vector<LessonAction> rest = drain(10);
  ASSERT_EQ(rest.size(), 6u);
  EXPECT_EQ(rest[0].edit.kind, Edit::Kind::Merge);
  EXPECT_EQ(rest[1].kind, LessonAction::Kind::Collisions);
  EXPECT_EQ(rest[2].edit.kind, Edit::Kind::Remove);
  EXPECT_EQ(rest[3].value, 0.5);
  EXPECT_EQ(rest[4].kind, LessonAction::Kind::Pause);
  EXPECT_EQ(rest[5].kind, LessonAction::Kind::End);
  EXPECT_TRUE(player.finished());
  EXPECT_EQ(player.end_time(s), 5);
}

TEST(Lesson, UnknownNameIsAnErrorActionNamingEventAndField) {
  LessonPlayer player(
      parse_lesson(with_event(R"({"time": 1, "action": "delete", "name": "Pluto"})"), "les.json"),
      units::henon());
  const Scene s = named_scene();
  ASSERT_TRUE(player.next_due(1, s, 1.0));  // the pause
  const auto a = player.next_due(1, s, 1.0);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->kind, LessonAction::Kind::Error);
  for (const char* p : {"les.json", "event 1 (delete)", "'name'", "Pluto"})
    EXPECT_NE(a->text.find(p), std::string::npos) << a->text;
}

TEST(Lesson, PaletteAndAimedComet) {
  Scene s = make_scene("solar-system", {0, 1, {{"jd", 2460676.5}}});
  LessonPlayer player(parse_lesson(R"({"title": "t", "scene": "solar-system", "events": [
        {"time": 0, "action": "add", "palette": "Jupiter", "name": "Jupiter 2",
         "position": [0, 0, 0.1], "relative_to": "Jupiter", "frame": "orbit"},
        {"time": 0, "action": "throw_comet", "seed": 3, "at": "Earth", "distance": 0.5,
         "speed": 0.01, "name": "Halley"},
        {"time": 0, "action": "throw_comet", "seed": 4}]})",
                                   "p.json"),
                      s.units);
  std::vector<LessonAction> v;
  while (auto a = player.next_due(0, s, s.units.G)) {
    ASSERT_EQ(a->kind, LessonAction::Kind::Edit) << a->text;
    v.push_back(*a);
  }
  ASSERT_EQ(v.size(), 3u);
  const BodySpec& j2 = v[0].edit.bodies[0];
  const std::size_t j = *find_body(s, "Jupiter");
  EXPECT_NEAR(j2.m, s.bodies.m[j], 1e-3 * s.bodies.m[j]);  // the palette's Jupiter
  EXPECT_NEAR(j2.z - s.bodies.z[j], 0.1, 0.02);  // z of the orbit frame is near the ecliptic's
  const BodySpec& c = v[1].edit.bodies[0];
  const std::size_t e = *find_body(s, "Earth");
  EXPECT_EQ(c.name, "Halley");
  EXPECT_NEAR(std::hypot(c.x - s.bodies.x[e], c.y - s.bodies.y[e], c.z - s.bodies.z[e]), 0.5,
              1e-12);
  // moving straight at the Earth
  const double dx = s.bodies.x[e] - c.x, dvx = c.vx - s.bodies.vx[e];
  EXPECT_NEAR(dvx, 0.01 * dx / 0.5, 1e-12);
  EXPECT_FALSE(v[2].edit.bodies[0].name.empty());
}

TEST(Lesson, ShippedLessonsParse) {
  for (const char* name : {"comet-slingshot", "heavy-sun", "black-hole-galaxy"}) {
    SCOPED_TRACE(name);
    const Lesson l = load_lesson(name);
    EXPECT_FALSE(l.title.empty());
    const Scene s = make_lesson_scene(l);
    LessonPlayer player(l, s.units);
    EXPECT_GT(player.end_time(s), 0);
  }
}

// the full example of docs/LESSONS.md parses and every event translates
TEST(Lesson, TheDocumentedExamplePlays) {
  std::ifstream in(NBODY_ASSETS_DIR "/../docs/LESSONS.md");
  ASSERT_TRUE(in);
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string doc = ss.str();
  const std::size_t a = doc.find("```json\n"), b = doc.find("```", a + 8);
  ASSERT_NE(a, std::string::npos);
  const Lesson l = parse_lesson(doc.substr(a + 8, b - a - 8), "LESSONS.md");
  Scene s = make_lesson_scene(l);
  LessonPlayer player(l, s.units);
  int n = 0;
  while (auto e = player.next_due(1e9, s, s.units.G)) {
    ASSERT_NE(e->kind, LessonAction::Kind::Error) << e->text;
    if (e->kind == LessonAction::Kind::Edit) apply_edit(s, e->edit);
    ++n;
  }
  EXPECT_EQ(n, 13);
}
