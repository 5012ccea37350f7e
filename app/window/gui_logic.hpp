#pragma once
// Pure helpers of the window, kept apart from GL and ImGui so they are unit-tested: calendar
// dates, simulation speed as "1 s = 10 days", steps per real second, body colours and sizes by
// name, the scale bar's length, and where recordings go.

#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "render/distance_scale.hpp"
#include "sim/core/bodies.hpp"
#include "sim/core/units.hpp"

namespace nbody::app {

/// Calendar date and time (proleptic Gregorian, UTC) of a Julian date: "1998-07-06 12:00 UTC".
std::string format_julian_date(double jd);

/// A span of simulated time in the scene's units written for people: "10 days", "2.5 years",
/// "3.1 Myr", or "0.05 time units" for dimensionless scenes.
std::string format_span(double t, const UnitSystem& u);
/// Simulation speed as simulated time per real second: "1 s = 10 days".
std::string format_speed(double sim_per_second, const UnitSystem& u);

/// Steps per real second that give `sim_per_second` with a step of dt (|dt|: a run backwards,
/// dt < 0, paces like a forward one).
double steps_per_second(double sim_per_second, double dt);
/// Steps to run now so that simulated time keeps up with `sim_per_second` since the anchor:
/// `elapsed_real` seconds have passed and `done_sim` simulated time has been covered since it.
/// Never negative; at most `cap`.
long long steps_due(double sim_per_second, double dt, double elapsed_real, double done_sim,
                    long long cap);

/// The colour of a named body (Sun yellow, Earth blue, Mars red, ...); false when the name is
/// not in the table.
bool body_color(const std::string& name, glm::vec3& color);
/// The colour of a JPL SBDB small-body class (main belt grey, Jupiter trojans green, near-Earth
/// red, Centaurs orange, trans-Neptunian violet, comets cyan) and a short name for the legend;
/// false for an unknown class (then: grey, "other").
bool small_body_color(const std::string& sbdb_class, glm::vec3& color, std::string& legend);
/// Sprite diameter in pixels that reads well for a named body at the reference window height
/// (the Sun largest, the giants next, the Moon smallest); 0 when unknown.
float body_size_px(const std::string& name);

/// The centre of bodies [begin, end) of xyzm (x, y, z, mass per body): mass-weighted, or the
/// mean position when they have no mass; false when the range is empty or outside.
bool mass_centre(const std::vector<float>& xyzm, std::size_t begin, std::size_t end,
                 glm::dvec3& centre);
/// A centre measured at t0 (c0) and t1 (c1) moved on to t at their velocity, at most two
/// intervals past t1 in the run's direction (then it waits for the next measurement); c1 when
/// t1 == t0.
glm::dvec3 moved_centre(double t0, const glm::dvec3& c0, double t1, const glm::dvec3& c1, double t);

/// A body's closed orbit about its attractor (the heavier body whose sphere of influence holds
/// it, the most local one: the Sun for a planet, the Earth for the Moon), as points relative to
/// the attractor.
struct OrbitOutline {
  std::size_t body = 0, centre = 0;
  std::vector<glm::dvec3> points;
};
/// The orbits of the named bodies of `b` that are not small bodies (`body_class` empty for
/// them, or no classes at all), `segments` points each; bodies on open orbits have none. None
/// at all when more than `max_bodies` named bodies would need one.
std::vector<OrbitOutline> orbit_outlines(const Bodies& b,
                                         const std::vector<std::string>& body_class, double G,
                                         int segments, std::size_t max_bodies = 64);

/// The body holding more than half of the total mass (the Sun of a planetary system); -1 when
/// none does.
int dominant_body(const Bodies& b);
/// The reference radius R of the log distance display (render/distance_scale.hpp): the distance
/// from the dominant body (none: the origin) of the farthest named body that is not a small
/// body (Neptune), else the 95th percentile of the visible bodies' distances (dark halo left
/// out). Positive (1 when nothing is measurable).
double log_reference_radius(const Bodies& b, const std::vector<std::string>& body_class,
                            int dominant);
/// One mark of the log scale bar: a true length and its drawn length in pixels.
struct RulerMark {
  double length = 0;
  double px = 0;
};
/// The marks of a scale bar for log distances: nice true lengths (1, 2, 5 times a power of ten)
/// drawn at their mapped distance map_distance(m, length) / units_per_px from the bar's left
/// end, at least `min_gap` pixels apart and not past `max_px`; increasing in both fields.
std::vector<RulerMark> log_ruler(const render::DistanceMap& m, double units_per_px, double max_px,
                                 double min_gap);

/// The longest "nice" length (1, 2 or 5 times a power of ten) not longer than `max_length`.
double nice_length(double max_length);
/// A length with its unit: "1 AU", "500 kpc", "0.2 length units".
std::string format_length(double v, const std::string& unit);
/// The unit names a person reads: "N-body time units" / "N-body length units" for Hénon units
/// (G = 1), the system's own labels ("day", "AU", "kpc") otherwise.
std::string time_label(const UnitSystem& u);
std::string length_label(const UnitSystem& u);

/// What a kernel does, for people (the table's description without internal notes such as
/// "(seed 000)").
std::string kernel_description(const std::string& name, const std::string& table_description);

/// The default folder for screenshots and recordings: ~/Pictures/nbody when it exists or can be
/// made, else the working directory. Never throws.
std::string default_capture_dir();

}  // namespace nbody::app
