#include "render/camera.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include <glm/gtc/matrix_transform.hpp>

namespace nbody::render {

void OrbitCamera::set_home(const glm::vec3& target, float distance, float yaw, float pitch) {
  home_target_ = target;
  home_distance_ = distance > 0 ? distance : 10.0f;
  home_yaw_ = std::isfinite(yaw) ? yaw : kHomeYaw;
  home_pitch_ = std::isfinite(pitch) ? std::clamp(pitch, -1.55f, 1.55f) : kHomePitch;
  reset();
}

void OrbitCamera::reset() {
  target_ = home_target_;
  distance_ = home_distance_;
  yaw_ = home_yaw_;
  pitch_ = home_pitch_;
}

void OrbitCamera::rotate(float dx, float dy) {
  yaw_ -= dx * 0.006f;
  pitch_ = std::clamp(pitch_ + dy * 0.006f, -1.55f, 1.55f);
}

void OrbitCamera::pan(float dx, float dy, float height) {
  // move the target in the view plane, one pixel = the visible height / height
  glm::mat4 v = view();
  glm::vec3 right(v[0][0], v[1][0], v[2][0]);
  glm::vec3 up(v[0][1], v[1][1], v[2][1]);
  float scale = 2.0f * distance_ * std::tan(fov_y_ * 0.5f) / std::max(height, 1.0f);
  target_ += (-dx * right + dy * up) * scale;
}

void OrbitCamera::zoom(float clicks) {
  distance_ = std::clamp(distance_ * std::pow(0.88f, clicks), 1e-6f, 1e9f);
}

void OrbitCamera::fit(const float* xyz, std::size_t n, std::size_t stride, float aspect) {
  if (n == 0) return;
  if (n <= 64) {
    // few bodies: centre of the bounding box, then the distance at which every body lies inside
    // the view frustum (with a margin) seen from the current direction
    glm::vec3 lo(1e30f), hi(-1e30f);
    std::size_t finite = 0;
    for (std::size_t i = 0; i < n; ++i) {
      glm::vec3 p(xyz[i * stride], xyz[i * stride + 1], xyz[i * stride + 2]);
      if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) continue;
      lo = glm::min(lo, p);
      hi = glm::max(hi, p);
      ++finite;
    }
    if (finite == 0) return;
    target_ = 0.5f * (lo + hi);
    glm::mat4 v = view();
    glm::vec3 right(v[0][0], v[1][0], v[2][0]), up(v[0][1], v[1][1], v[2][1]);
    glm::vec3 back(v[0][2], v[1][2], v[2][2]);  // towards the eye
    float ty = std::tan(fov_y_ * 0.5f) * 0.85f, tx = ty * std::max(aspect, 0.1f);
    float d = 0;
    for (std::size_t i = 0; i < n; ++i) {
      glm::vec3 p(xyz[i * stride], xyz[i * stride + 1], xyz[i * stride + 2]);
      if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) continue;
      glm::vec3 q = p - target_;
      float z = glm::dot(q, back);
      d = std::max({d, z + std::abs(glm::dot(q, right)) / tx, z + std::abs(glm::dot(q, up)) / ty});
    }
    distance_ = std::max(d, 1e-6f);
    return;
  }
  // sample at most 20k points: median centre, 95th percentile radius
  std::size_t every = std::max<std::size_t>(1, n / 20000);
  std::vector<float> xs, ys, zs;
  for (std::size_t i = 0; i < n; i += every) {
    const float* p = xyz + i * stride;
    if (!std::isfinite(p[0]) || !std::isfinite(p[1]) || !std::isfinite(p[2])) continue;
    xs.push_back(p[0]);
    ys.push_back(p[1]);
    zs.push_back(p[2]);
  }
  if (xs.empty()) return;
  auto median = [](std::vector<float> v) {
    std::nth_element(v.begin(), v.begin() + v.size() / 2, v.end());
    return v[v.size() / 2];
  };
  glm::vec3 c(median(xs), median(ys), median(zs));
  std::vector<float> r(xs.size());
  for (std::size_t i = 0; i < xs.size(); ++i)
    r[i] = glm::length(glm::vec3(xs[i], ys[i], zs[i]) - c);
  std::size_t k = std::min(r.size() - 1, r.size() * 95 / 100);
  std::nth_element(r.begin(), r.begin() + k, r.end());
  float radius = std::max(r[k], 1e-6f);
  target_ = c;
  distance_ = radius / std::sin(fov_y_ * 0.5f) * 1.05f;
}

glm::vec3 OrbitCamera::eye() const {
  glm::vec3 dir(std::cos(pitch_) * std::cos(yaw_), std::cos(pitch_) * std::sin(yaw_),
                std::sin(pitch_));
  return target_ + distance_ * dir;
}

void OrbitCamera::set_view(const glm::vec3& target, float distance, float yaw, float pitch) {
  target_ = target;
  if (std::isfinite(distance) && distance > 0) distance_ = std::clamp(distance, 1e-6f, 1e9f);
  if (std::isfinite(yaw)) yaw_ = yaw;
  if (std::isfinite(pitch)) pitch_ = std::clamp(pitch, -1.55f, 1.55f);
}

glm::mat4 OrbitCamera::view() const {
  return glm::lookAt(eye(), target_, glm::vec3(0, 0, 1));
}

glm::mat4 OrbitCamera::projection(float aspect) const {
  float near_plane = std::max(distance_ * 1e-3f, 1e-6f);
  return glm::perspective(fov_y_, std::max(aspect, 1e-3f), near_plane, distance_ * 1e3f);
}

}  // namespace nbody::render
