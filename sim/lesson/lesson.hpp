#pragma once
// Lessons (issue 19, item 7): a JSON file that scripts a demo. It names a scene and its start
// physics, and lists events, each at a simulated time, that add, throw, delete, merge or change
// bodies, switch collisions, pause, set the speed, follow a body, show a caption or end the
// lesson. docs/LESSONS.md describes the format. LessonPlayer turns the events that are due into
// Edits (sim/edit/edit.hpp) and UI actions; the window and `nbody simulate --lesson` play them.

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "sim/core/scene.hpp"
#include "sim/edit/edit.hpp"

namespace nbody {

/// A time as a lesson writes it: a number in the scene's time unit (unit "") or a number with a
/// unit ("30 d" -> 30, "d"). Units: s, min, h, d, yr, kyr, Myr, Gyr (and their long names).
struct LessonTime {
  double value = 0;
  std::string unit;
};

/// One event of a lesson, as parsed (names are resolved when it is played).
struct LessonEvent {
  enum class Kind {
    Add,         ///< add a body
    ThrowComet,  ///< throw a comet (from the edge of the system, or aimed at a body)
    Delete,      ///< delete bodies by name
    Merge,       ///< merge bodies by name
    Collisions,  ///< merging of touching bodies on or off
    Set,         ///< a body's mass or velocity
    Pause,       ///< pause the run (the window; headless runs go on)
    Speed,       ///< simulated time per real second
    Follow,      ///< the camera follows a body
    Caption,     ///< a caption shown for some seconds
    End          ///< the lesson (and a headless run) ends
  };
  Kind kind = Kind::Caption;
  LessonTime time;
  std::vector<std::string> names;  ///< Delete, Merge (>= 2), Set, Follow (one), ThrowComet "at"
  // Add: the body
  std::string palette;                      ///< palette label ("Jupiter"); "" with an explicit mass
  std::optional<double> mass;               ///< scene mass units (Add: explicit; Set: absolute)
  std::optional<double> mass_factor;        ///< Set: multiply the mass
  std::string body_name;                    ///< Add: the new body's name
  std::optional<Component> component;       ///< Add: default Star (palette: the entry's)
  std::array<double, 3> position{0, 0, 0};  ///< Add: absolute, or relative to `relative_to`
  std::optional<std::array<double, 3>> velocity;  ///< Add, Set
  std::optional<double> velocity_factor;          ///< Set: multiply the velocity (scene frame)
  std::string relative_to;                        ///< Add: position and velocity relative to it
  /// Add with relative_to: "axes" (the scene's axes) or "orbit" (x away from the dominant body,
  /// y along the body's motion, z along its orbital angular momentum).
  std::string frame = "axes";
  // ThrowComet
  std::uint64_t seed = 1;
  std::optional<double> distance;  ///< start distance from the target (scene length units)
  std::optional<double> speed;     ///< speed relative to the target (scene velocity units)
  // Collisions
  bool on = true;
  double density = 0;  ///< kg/m^3 (0: bodies touch within the softening)
  // Speed
  LessonTime rate;  ///< simulated time per real second
  // Caption
  std::string text;
  double duration_s = 5;
};

/// The action's name in a lesson file: "add", "throw_comet", "delete", ...
const char* lesson_event_name(LessonEvent::Kind k);

/// Where the scene of a lesson comes from: a preset with its parameters, or a file.
struct LessonScene {
  std::string name;  ///< a scene of scene_table(), or "" with a file
  SceneParams params;
  std::string file;  ///< absolute (resolved against the lesson's folder), or ""
};

/// A parsed lesson.
struct Lesson {
  std::string source;  ///< the file, for messages
  std::string title, description;
  LessonScene scene;
  // start physics (absent: the scene's)
  std::optional<LessonTime> dt;
  std::optional<LessonTime> speed;  ///< simulated time per real second
  std::optional<Integrator> integrator;
  std::string kernel;                  ///< "" : chosen as for any scene
  std::string precision;               ///< "float", "double" or "" (the kernel's default)
  std::optional<double> softening;     ///< scene length units
  std::optional<LessonTime> duration;  ///< when it ends without an `end` event
  std::vector<LessonEvent> events;     ///< in time order (stable)
};

/// Parses lesson JSON text; `source` names it in errors ("FILE: event 3 (add): field
/// 'velocity': ..."). A relative scene file is resolved against `source`'s folder.
Lesson parse_lesson(const std::string& text, const std::string& source);
/// Reads and parses a lesson file. A name without a folder that is not a file is looked up in
/// the shipped lessons (assets/lessons, with or without ".json"). Throws nbody::Error.
Lesson load_lesson(const std::string& path);
/// The folder of the shipped lessons.
std::string lessons_dir();
/// Makes the lesson's scene (preset or file). Throws nbody::Error naming the lesson.
Scene make_lesson_scene(const Lesson& l);
/// `t` in the time unit of `u`; throws nbody::Error naming `what` for an unknown unit or a unit
/// the scene cannot convert (a dimensionless scene takes plain numbers only).
double lesson_time(const LessonTime& t, const UnitSystem& u, const std::string& what);

/// What an event asks for when it is due: an edit of the bodies, or an action of the player.
struct LessonAction {
  /// Error: the event could not be played (a name not in the scene now); `text` says why,
  /// naming the lesson, the event and the field. The window shows it, a headless run stops.
  enum class Kind { Edit, Collisions, Pause, Speed, Follow, Caption, End, Error };
  Kind kind = Kind::Caption;
  std::size_t event = 0;  ///< index in Lesson::events
  double time = 0;        ///< the event's time in the scene's time unit
  Edit edit;              ///< Kind::Edit
  bool on = true;         ///< Collisions
  double density = 0;     ///< Collisions: kg/m^3 (0: the softening)
  double value = 0;       ///< Speed: simulated time per second; Caption: seconds shown
  std::size_t body = 0;   ///< Follow: the body's index now
  std::string text;       ///< Caption: the text; every kind: one line saying what happens
};

/// Plays a lesson's events against a running simulation: due() returns each event once, when
/// the simulated time reaches it; after a rewind to an earlier time the events after that time
/// become due again.
class LessonPlayer {
 public:
  /// Converts the events' times to the units of `u` (throws nbody::Error naming the event).
  LessonPlayer(Lesson lesson, const UnitSystem& u);

  /// The next event due at simulated time `time` (not yet returned, its time <= `time`, in
  /// time order), translated against `current` (the scene as edited now, e.g.
  /// Simulation::current()) with gravitational constant `G`; none when nothing is due. Call it
  /// until it returns none, applying each edit before the next call: a later event may name a
  /// body an earlier one added. A time earlier than the last call's rewinds: the events after
  /// it are due again. An event that cannot be played comes back as Kind::Error (never thrown).
  std::optional<LessonAction> next_due(double time, const Scene& current, double G);
  /// The time of the next event not yet returned, if any.
  std::optional<double> next_time() const;
  /// Whether every event has been returned.
  bool finished() const { return next_ >= times_.size(); }
  /// When the lesson ends: its `end` event, else its duration, else the scene's; 0 when none.
  double end_time(const Scene& scene) const;

  const Lesson& lesson() const { return lesson_; }
  /// Event times in the scene's unit, in time order.
  const std::vector<double>& times() const { return times_; }

 private:
  LessonAction translate(std::size_t i, const Scene& current, double G) const;
  Lesson lesson_;
  UnitSystem units_;
  std::vector<double> times_;       // event times in time order
  std::vector<std::size_t> index_;  // the Lesson::events index of each
  std::size_t next_ = 0;            // events before it have been returned
  double last_ = 0;
};

/// The index of the body named `name` in `s` (the first one), if any.
std::optional<std::size_t> find_body(const Scene& s, const std::string& name);

}  // namespace nbody
