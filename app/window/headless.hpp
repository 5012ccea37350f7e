#pragma once
// `nbody render`: frames drawn offscreen (EGL + FBO) and written as PNG, plus a summary of the
// timings (simulation, interop, render, frame) and the energy drift.

#include <functional>
#include <string>

#include "app/core/launch.hpp"

namespace nbody::app {

class Viewer;

struct HeadlessOptions {
  int frames = 60;      ///< frames to simulate and draw
  std::string out_dir;  ///< PNG frames and summary.json go here
  int width = 1280, height = 720;
  int png_every = 1;      ///< write every k-th frame (0: only the last)
  bool interop = true;    ///< false: copy device -> host -> GL even on the GPU path
  bool energy = true;     ///< energy drift at start and end (O(N²) on the CPU; N <= 262,144)
  bool map = false;       ///< compute the activity map each frame and show its overlay
  bool fit = false;       ///< fit the camera to the bodies
  int tree_cells = -1;    ///< >= 0: a tree kernel's cells drawn as boxes to this depth (the
                          ///< command line checks the kernel: check_tree_cells())
  bool hdr = true;        ///< false: no float frame and no tone curve
  bool glow = false;      ///< glow around bright light (HDR only)
  int trails = -1;        ///< 1 on, 0 off, -1 the scene's default
  bool gl_debug = false;  ///< debug context; every GL message printed; GL errors fail the run
  /// Called after each frame with the frames done (a progress bar); may be empty.
  std::function<void(int)> progress;
  /// Draws over each frame written, on the frame's target (burn-in: date, scale bar, caption);
  /// may be empty.
  std::function<void(Viewer&, int width, int height)> overlay;
  /// Called once before the GL context ends, when `overlay` was given (its GL objects go first).
  std::function<void()> overlay_end;
};

/// Runs the headless render; prints the summary and returns the exit code. Throws nbody::Error
/// (no EGL context, bad options).
int run_headless(const Launch& launch, const HeadlessOptions& opt);

}  // namespace nbody::app
