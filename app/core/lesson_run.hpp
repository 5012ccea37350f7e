#pragma once
// `nbody simulate --lesson FILE`: plays a lesson without a window (issue 19, item 7).

#include <cstdio>
#include <optional>
#include <string>

#include "app/core/launch.hpp"

namespace nbody::app {

/// What a headless lesson run is given on the command line.
struct LessonRunOptions {
  LaunchOptions launch;               ///< launch.lesson is the lesson file
  std::optional<long long> steps;     ///< stop after this many steps (before the lesson's end)
  std::optional<long long> every;     ///< a diagnostics line every this many steps (default ~20)
  std::string output, output_format;  ///< -o / --format: the final state, as for any run
};

/// Plays the lesson: its scene, each event applied between steps at the first step boundary at
/// or after its time (at most one dt late), captions and window actions printed as log lines
/// with their time, touching bodies merged after every step while collisions are on; ends at
/// the `end` event, the lesson's duration or the scene's (or after opt.steps). Writes -o as any
/// run does. Throws nbody::Error (an event that cannot be played names the lesson and event).
int run_lesson(const LessonRunOptions& opt);

}  // namespace nbody::app
