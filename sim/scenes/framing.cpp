// The collision scenes' look-ahead framing: two galaxy centres and a sample of their stars
// integrated ahead in the centres' spherical fields, so that the default camera can frame the
// encounter at the time that matters (the Toomre presets at the paper's time, the galaxy
// collision just after its first passage) rather than at the start.

#include <algorithm>
#include <cmath>

#include "sim/core/error.hpp"
#include "sim/forces/external_field.hpp"
#include "sim/scenes/common.hpp"

namespace nbody::scenes {

void look_ahead(std::array<LookAheadCore, 2>& cores, std::vector<Vec3>& x, std::vector<Vec3>& v,
                double dt, double t_end) {
  if (!(t_end > 0) || !(dt > 0)) return;
  const std::size_t n = x.size();
  const double mt = cores[0].mass + cores[1].mass;
  std::vector<Vec3> a(n);
  Vec3 ac[2];
  auto accel = [&] {
    // the relative orbit: each centre in the other's field at their distance, split by mass
    // (point masses: G (m1 + m2) / d^2 on the relative vector, momentum conserved)
    Vec3 d;
    for (int c = 0; c < 3; ++c)
      d[c] = cores[1].x[c] - cores[0].x[c];
    const double r = std::max(std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]), 1e-300);
    const double rel = (cores[0].pull(r) + cores[1].pull(r)) / r;
    for (int c = 0; c < 3; ++c) {
      ac[0][c] = cores[1].mass / mt * rel * d[c];
      ac[1][c] = -cores[0].mass / mt * rel * d[c];
    }
    for (std::size_t k = 0; k < n; ++k) {
      a[k] = {0, 0, 0};
      for (const LookAheadCore& core : cores) {
        const double e[3] = {core.x[0] - x[k][0], core.x[1] - x[k][1], core.x[2] - x[k][2]};
        const double s = std::sqrt(e[0] * e[0] + e[1] * e[1] + e[2] * e[2]);
        if (!(s > 0)) continue;
        const double f = core.pull(s) / s;
        for (int c = 0; c < 3; ++c)
          a[k][c] += f * e[c];
      }
    }
  };
  const long steps = std::max(1L, std::lround(t_end / dt));
  const double h = t_end / static_cast<double>(steps);
  auto kick = [&] {
    for (std::size_t k = 0; k < n; ++k)
      for (int c = 0; c < 3; ++c)
        v[k][c] += 0.5 * h * a[k][c];
    for (int j = 0; j < 2; ++j)
      for (int c = 0; c < 3; ++c)
        cores[j].v[c] += 0.5 * h * ac[j][c];
  };
  accel();
  for (long s = 0; s < steps; ++s) {
    kick();
    for (std::size_t k = 0; k < n; ++k)
      for (int c = 0; c < 3; ++c)
        x[k][c] += h * v[k][c];
    for (int j = 0; j < 2; ++j)
      for (int c = 0; c < 3; ++c)
        cores[j].x[c] += h * cores[j].v[c];
    accel();
    kick();
  }
}

std::function<double(double)> spherical_pull(const Bodies& b, std::size_t begin, std::size_t end,
                                             const Vec3& centre, double G, double eps) {
  // enclosed mass on radii spaced by the sorted bodies (every ~1/200 of them), plus the rigid
  // halos anchored in [begin, end)
  std::vector<std::pair<double, double>> rm;
  rm.reserve(end - begin);
  for (std::size_t i = begin; i < end; ++i)
    if (b.m[i] > 0)
      rm.emplace_back(std::hypot(b.x[i] - centre[0], b.y[i] - centre[1], b.z[i] - centre[2]),
                      b.m[i]);
  std::sort(rm.begin(), rm.end());
  auto table = std::make_shared<std::vector<std::pair<double, double>>>();
  table->emplace_back(0.0, 0.0);
  const std::size_t every = std::max<std::size_t>(1, rm.size() / 200);
  double m = 0;
  for (std::size_t k = 0; k < rm.size(); ++k) {
    m += rm[k].second;
    if ((k + 1) % every == 0 || k + 1 == rm.size()) table->emplace_back(rm[k].first, m);
  }
  std::vector<RigidHalo> halos;
  for (const RigidHalo& h : b.halos)
    if (h.anchor >= begin && h.anchor < end) halos.push_back(h);
  const ExternalField f = make_external_field(halos, 1.0);
  return [table, f, G, eps](double r) {
    const auto& t = *table;
    const auto it = std::lower_bound(t.begin(), t.end(), std::make_pair(r, 0.0));
    double live = t.back().second;
    if (it != t.end()) {
      const auto& hi = *it;
      const auto& lo = it == t.begin() ? hi : *(it - 1);
      const double w = hi.first > lo.first ? (r - lo.first) / (hi.first - lo.first) : 1.0;
      live = lo.second + w * (hi.second - lo.second);
    }
    double rigid = 0;
    for (int h = 0; h < f.count; ++h)
      rigid += f.mass[h] * halo_fraction(f.shape[h], r);
    // the live bodies' gravity Plummer-softened as the kernels soften it
    return G * live * r / std::pow(r * r + eps * eps, 1.5) + G * rigid / std::max(r * r, 1e-300);
  };
}

namespace {

// a group's centre of mass and velocity and its mass, rigid halos anchored in it included
LookAheadCore group_core(const Bodies& b, const BodyGroup& g) {
  LookAheadCore c;
  double m = 0;
  auto add = [&](std::size_t i, double w) {
    const double q[6] = {b.x[i], b.y[i], b.z[i], b.vx[i], b.vy[i], b.vz[i]};
    for (int k = 0; k < 3; ++k) {
      c.x[k] += w * q[k];
      c.v[k] += w * q[k + 3];
    }
    m += w;
  };
  for (std::size_t i = g.begin; i < g.end; ++i)
    if (b.m[i] > 0) add(i, b.m[i]);
  for (const RigidHalo& h : b.halos)
    if (h.anchor >= g.begin && h.anchor < g.end) add(h.anchor, h.mass);
  if (!(m > 0)) fail("framing: group '", g.name, "' has no mass");
  for (int k = 0; k < 3; ++k) {
    c.x[k] /= m;
    c.v[k] /= m;
  }
  c.mass = m;
  return c;
}

}  // namespace

double CollisionFrame::need(const Vec3& p, double margin) const {
  const double t = std::tan(0.5 * kFieldOfView), cy = std::cos(yaw), sy = std::sin(yaw);
  const double cp = std::cos(pitch), sp = std::sin(pitch);
  const Vec3 d = {p[0] - centre[0], p[1] - centre[1], p[2] - centre[2]};
  const double h = -sy * d[0] + cy * d[1];                            // screen right
  const double v = -sp * cy * d[0] - sp * sy * d[1] + cp * d[2];      // screen up
  const double toward = cp * cy * d[0] + cp * sy * d[1] + sp * d[2];  // towards the camera
  // a pinhole camera D from the centre sees p at h / (D - toward) of the distance
  return toward + margin * std::max(std::fabs(h) / (kAspect * t), std::fabs(v) / t);
}

void frame_collision(Scene& s, double t_look) {
  if (s.groups.size() != 2) fail("scene '", s.name, "': framing needs two galaxies");
  const Bodies& b = s.bodies;
  const double G = s.units.G;
  std::array<LookAheadCore, 2> cores;
  std::vector<Vec3> x, v;
  for (std::size_t j = 0; j < 2; ++j) {
    const BodyGroup& g = s.groups[j];
    cores[j] = group_core(b, g);
    cores[j].pull = spherical_pull(b, g.begin, g.end, cores[j].x, G, s.softening);
    // ~600 of the group's disk stars
    std::size_t disk = 0;
    for (std::size_t i = g.begin; i < g.end; ++i)
      disk += b.component[i] == Component::Disk;
    const std::size_t stride = std::max<std::size_t>(1, disk / 600);
    std::size_t k = 0;
    for (std::size_t i = g.begin; i < g.end; ++i)
      if (b.component[i] == Component::Disk && k++ % stride == 0) {
        x.push_back({b.x[i], b.y[i], b.z[i]});
        v.push_back({b.vx[i], b.vy[i], b.vz[i]});
      }
  }
  const std::array<Vec3, 2> start = {cores[0].x, cores[1].x};
  look_ahead(cores, x, v, s.dt, t_look);
  // the view: the line of centres across the screen (in the orbital plane, perpendicular to
  // the camera's azimuth: there it is seen at full length whatever the elevation), looked at
  // from kPitch above the orbital plane, about the centre of mass (the scene's frame); the
  // azimuth turned by up to 30 deg where that frames the start's line of centres (not quite
  // the same line) more closely
  const double mt = cores[0].mass + cores[1].mass;
  Vec3 now{}, then{};
  for (int c = 0; c < 3; ++c) {
    now[c] = (cores[0].mass * cores[0].x[c] + cores[1].mass * cores[1].x[c]) / mt;
    then[c] = (cores[0].mass * start[0][c] + cores[1].mass * start[1][c]) / mt;
  }
  const double dx = cores[1].x[0] - cores[0].x[0], dy = cores[1].x[1] - cores[0].x[1];
  // the distance: 90 % of the sampled stars (15 % to spare) and both centres (1.3 x 1.15: at
  // most 2/3 of the way to the frame's edge) at t_look, and both centres at the start (as
  // far in: most of each disk in view; the scene starts in the centre-of-mass frame)
  constexpr double kMargin = 1.15;
  auto distance = [&](CollisionFrame& f) {
    f.centre = now;
    std::vector<double> need;
    for (const Vec3& p : x)
      need.push_back(f.need(p, kMargin));
    std::sort(need.begin(), need.end());
    double d = need.empty() ? 0 : need[std::min(need.size() - 1, need.size() * 9 / 10)];
    for (const LookAheadCore& c : cores)
      d = std::max(d, f.need(c.x, 1.3 * kMargin));
    f.centre = then;
    for (const Vec3& p : start)
      d = std::max(d, f.need(p, 1.3 * kMargin));
    return d;
  };
  CollisionFrame best;
  double d = 1e300;
  for (int turn = -30; turn <= 30; turn += 2) {
    CollisionFrame f;
    f.yaw = std::remainder(std::atan2(dy, dx) + 0.5 * kPi + turn * kDeg, 2 * kPi);
    f.pitch = CollisionFrame::kPitch;
    const double df = distance(f);
    if (df < d - 1e-9 * df || (std::fabs(df - d) <= 1e-9 * df && turn == 0)) {
      d = df;
      best = f;
    }
  }
  const CollisionFrame& f = best;
  s.camera_distance = d;
  s.camera_yaw = f.yaw;
  s.camera_pitch = f.pitch;
}

}  // namespace nbody::scenes
