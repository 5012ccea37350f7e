#pragma once
// The mouse on the 3D view (issue 19): what a press, a drag and a release mean for the tool in
// hand. Select: a click selects the body under the cursor (Shift adds), Ctrl+drag selects a box,
// a drag that starts on a selected body moves the selection, any other drag rotates; right or
// middle drag (or Shift+drag) pans; the wheel zooms. Add: press where the body goes, drag its
// velocity (the arrow is where it will be after one real second at the current speed), release
// to add it; while dragging its predicted path is drawn. No GLFW and no ImGui here: the window
// feeds a PointerInput per frame, so tests drive it with a headless Viewer.

#include <string>

#include <glm/glm.hpp>

#include "app/window/gui_viewer.hpp"
#include "sim/edit/palette.hpp"

namespace nbody::app {

enum class Tool { Select, Add };

/// The mouse this frame, in pixels of a width×height window (origin top-left).
struct PointerInput {
  double x = 0, y = 0;
  bool left = false, right = false;  ///< buttons held now (right: right or middle)
  bool shift = false, ctrl = false;
  double scroll = 0;     ///< wheel clicks since the last frame
  bool over_ui = false;  ///< the panel has the mouse: the view ignores it
};

class Gestures {
 public:
  Tool tool = Tool::Select;
  /// What Add places (a palette entry of the current scene; mass in its units).
  PaletteEntry body;
  int added = 0;  ///< bodies added so far (for their names)

  /// Interprets this frame's mouse for `v` in a width×height window; `scale` is the UI scale
  /// (pick radius). Edits and selections go to the viewer as requests.
  void update(const PointerInput& in, Viewer& v, int width, int height, float scale);

  // what the overlay draws
  bool boxing() const { return drag_ == Drag::Box; }
  bool placing() const { return drag_ == Drag::Place; }
  bool moving() const { return drag_ == Drag::Move; }
  glm::vec2 press() const { return {static_cast<float>(press_x_), static_cast<float>(press_y_)}; }
  glm::vec2 cursor() const { return {static_cast<float>(last_x_), static_cast<float>(last_y_)}; }
  /// A line for the view while a gesture runs ("speed 12.3 km/s"), else "".
  const std::string& hint() const { return hint_; }

  /// The velocity a drag of `drag` (world units) gives at simulated time per real second
  /// `speed` (the body covers the arrow in one real second); `fallback` when speed is 0.
  static glm::dvec3 drag_velocity(const glm::dvec3& drag, double speed, double fallback);

 private:
  enum class Drag { None, Pending, Rotate, Pan, Box, Place, Move };
  void begin(const PointerInput& in, Viewer& v, int width, int height, float scale);
  void end(const PointerInput& in, Viewer& v, int width, int height, float scale);
  BodySpec placed(Viewer& v, int width, int height) const;

  Drag drag_ = Drag::None;
  bool was_left_ = false;
  double press_x_ = 0, press_y_ = 0, last_x_ = 0, last_y_ = 0;
  glm::vec3 anchor_{0.0f}, grabbed_{0.0f};
  long long gesture_ = 0;
  std::string hint_;
};

}  // namespace nbody::app
