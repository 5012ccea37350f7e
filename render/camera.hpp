#pragma once
// Orbit camera: yaw/pitch around a target at a distance, perspective projection (GLM).

#include <cstddef>

#include <glm/glm.hpp>

namespace nbody::render {

class OrbitCamera {
 public:
  /// Sets the default view (target, distance, and the direction yaw/pitch in radians where
  /// finite, else the standard one) that reset() returns to.
  void set_home(const glm::vec3& target, float distance, float yaw = kHomeYaw,
                float pitch = kHomePitch);
  static constexpr float kHomeYaw = 0.6f, kHomePitch = 0.5f;
  /// Back to the home view.
  void reset();
  /// Rotates by a mouse drag of (dx, dy) pixels.
  void rotate(float dx, float dy);
  /// Pans by a drag of (dx, dy) pixels in a viewport `height` pixels tall.
  void pan(float dx, float dy, float height);
  /// Zooms by wheel clicks (positive: closer).
  void zoom(float clicks);
  /// Frames the points (x, y, z interleaved with `stride` floats) so most of them are visible:
  /// target at their median, distance from the 95th percentile radius.
  /// For n <= 64 every point counts and the frame is the view's own (a flat system seen at an
  /// angle is framed tightly); `aspect` is width / height of the view.
  void fit(const float* xyz, std::size_t n, std::size_t stride, float aspect = 1.0f);
  /// Moves the target (following a body) keeping the direction and distance.
  void set_target(const glm::vec3& t) { target_ = t; }

  glm::mat4 view() const;
  glm::mat4 projection(float aspect) const;
  glm::vec3 eye() const;
  float distance() const { return distance_; }
  const glm::vec3& target() const { return target_; }
  float fov_y() const { return fov_y_; }
  float yaw() const { return yaw_; }
  float pitch() const { return pitch_; }
  /// Sets the whole view (a saved state's camera); the distance and pitch are clamped as a
  /// drag or zoom would.
  void set_view(const glm::vec3& target, float distance, float yaw, float pitch);

 private:
  glm::vec3 target_{0.0f}, home_target_{0.0f};
  float distance_ = 10, home_distance_ = 10;
  float home_yaw_ = kHomeYaw, home_pitch_ = kHomePitch;
  float yaw_ = 0.6f, pitch_ = 0.5f;  // radians; pitch > 0 looks down onto the XY plane
  float fov_y_ = 0.785398f;          // 45 degrees
};

}  // namespace nbody::render
