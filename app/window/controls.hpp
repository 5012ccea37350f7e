#pragma once
// What the panel edits, and what it asks for. The window owns one `Controls` value: the panel's
// widgets bind to its fields, the simulation's part (`sim`) goes to the simulation thread whole
// every frame, the rest is read where the window draws. Structural changes are not settings:
// widgets and keys push requests that carry their own payload (SimRequest for the simulation,
// ViewRequest for the camera), applied at one point in the frame (MuJoCo simulate's `pending_`).

#include <string>
#include <vector>

#include "app/runner/sim_runner.hpp"
#include "render/distance_scale.hpp"
#include "render/hdr.hpp"
#include "render/particle_renderer.hpp"
#include "sim/analysis/kernel_compare.hpp"
#include "sim/core/scene.hpp"
#include "sim/io/io.hpp"

namespace nbody::app {

/// Every setting the panel edits.
struct Controls {
  /// The simulation's settings: pause, speed, trails, map, health, accuracy, tree cells,
  /// selection, merging (handed to the simulation whole).
  SimControls sim;
  // the look
  render::ParticleStyle style;
  render::ToneMapping tone;
  bool map_overlay = false;  ///< draw the activity map over the bodies
  float map_overlay_alpha = 0.5f;
  bool labels = true;
  bool orbits = false;  ///< the named bodies' orbit ellipses about their attractors
  /// Bodies, trails and orbits drawn at true or log-compressed distances from the followed
  /// body or centre, else the body holding most of the mass (the Sun), else the origin; a change
  /// fits the view. Only the picture changes, never the simulation.
  render::DistanceScale distance_scale = render::DistanceScale::True;
  // the camera
  int follow = -1;  ///< body the camera follows (-1: none)
  /// Centre the camera follows (-1: none): 0 the centre of mass of all bodies, g + 1 that of
  /// the scene's group g (a galaxy).
  int follow_group = -1;
  float view_offset_px = 0;  ///< the 3D view's centre moves right by this many pixels
  /// The camera keeps the shown bodies in view: when most of them drift out of the picture (or
  /// gather in a small part of it) it re-centres and zooms, smoothly, never nearer than the view
  /// it started from. A zoom, a pan or a saved view hands the camera to the user (and it rests
  /// while the camera follows something); F, R and a new scene hand it back.
  bool keep_in_view = true;
  // what the scene and comparison requests will carry
  std::string preset_name;
  SceneParams preset_params;
  std::string load_path;
  io::LoadOptions load_options;
  std::vector<CompareEntry> compare_set;  ///< what a comparison runs (empty: all)
};

/// A camera action asked for by a widget or key (applied in Viewer::frame()).
enum class ViewRequest {
  Fit,   ///< the camera frames every body
  Reset  ///< the camera's home position
};

/// A request that builds the preset scene `name` with `params` (on the simulation thread).
SimRequest scene_request(const std::string& name, const SceneParams& params);
/// A request that loads the file `path` with `options` (on the simulation thread).
SimRequest load_request(const std::string& path, const io::LoadOptions& options);
/// A request that compares the kernels of `entries` (empty: all) on a copy of the bodies.
SimRequest compare_request(const std::vector<CompareEntry>& entries);

}  // namespace nbody::app
