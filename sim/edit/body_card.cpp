#include "sim/edit/body_card.hpp"

#include <cmath>
#include <numbers>
#include <sstream>
#include <vector>

#include "sim/analysis/attractor.hpp"
#include "sim/core/error.hpp"
#include "sim/sky/kepler.hpp"

namespace nbody {

namespace {

// magnitude of the softened pull of body j on body i (per G)
double pull(const Bodies& b, std::size_t i, std::size_t j, double eps2) {
  const double dx = b.x[j] - b.x[i], dy = b.y[j] - b.y[i], dz = b.z[j] - b.z[i];
  const double r2 = dx * dx + dy * dy + dz * dz;
  if (!(r2 + eps2 > 0)) return 0;
  return b.m[j] * std::sqrt(r2) / ((r2 + eps2) * std::sqrt(r2 + eps2));
}

std::string body_name(const Bodies& b, std::size_t i) {
  if (i < b.name.size() && !b.name[i].empty()) return b.name[i];
  std::ostringstream os;
  os << "body " << i;
  return os.str();
}

// osculating elements of body i about body d
void elements(const Bodies& b, std::size_t i, std::size_t d, double G, BodyCard& c) {
  const double mu = G * (b.m[d] + b.m[i]);
  const sky::State rel = relative_state(b, i, d);
  const double r = std::sqrt(rel.r[0] * rel.r[0] + rel.r[1] * rel.r[1] + rel.r[2] * rel.r[2]);
  const double v2 = rel.v[0] * rel.v[0] + rel.v[1] * rel.v[1] + rel.v[2] * rel.v[2];
  if (!(mu > 0) || !(r > 0)) return;
  const sky::Elements el = sky::elements_from_state(rel, mu, 0);
  if (!std::isfinite(el.e) || !std::isfinite(el.q) || !(el.q > 0)) return;  // radial orbit
  c.has_elements = true;
  c.e = el.e;
  c.q = el.q;
  c.inc = el.i * 180 / std::numbers::pi;
  // a from the energy (vis-viva), finite at e = 1 too
  const double energy = 0.5 * v2 - mu / r;
  c.bound = energy < 0;
  c.a = energy != 0 ? -mu / (2 * energy) : INFINITY;
  c.period = c.bound ? 2 * std::numbers::pi * std::sqrt(c.a * c.a * c.a / mu) : 0;
}

}  // namespace

long pick_dominant(const Bodies& b, std::size_t i, double G, double softening) {
  (void)G;  // the same factor for every body
  const double eps2 = softening * softening;
  long best = -1;
  double best_pull = 0;
  for (std::size_t j = 0; j < b.size(); ++j) {
    if (j == i || !(b.m[j] > 0)) continue;
    const double p = pull(b, i, j, eps2);
    if (p > best_pull) {
      best_pull = p;
      best = static_cast<long>(j);
    }
  }
  return best;
}

BodyCard body_card(const Scene& s, std::size_t i, double G, double softening) {
  const Bodies& b = s.bodies;
  if (i >= b.size()) fail("body card: body index ", i, " out of range (N = ", b.size(), ")");
  BodyCard c;
  c.index = i;
  c.name = body_name(b, i);
  c.mass = b.m[i];
  c.x = b.x[i];
  c.y = b.y[i];
  c.z = b.z[i];
  c.vx = b.vx[i];
  c.vy = b.vy[i];
  c.vz = b.vz[i];
  c.speed = std::sqrt(c.vx * c.vx + c.vy * c.vy + c.vz * c.vz);
  c.kinetic = 0.5 * c.mass * c.speed * c.speed;
  // the potential and the pulls in one pass
  const double eps2 = softening * softening;
  double phi = 0, total_pull = 0, best_pull = 0;
  long strongest = -1;
  std::vector<double> pulls(b.size(), 0.0);
  for (std::size_t j = 0; j < b.size(); ++j) {
    if (j == i || !(b.m[j] > 0)) continue;
    const double dx = b.x[j] - b.x[i], dy = b.y[j] - b.y[i], dz = b.z[j] - b.z[i];
    const double r2 = dx * dx + dy * dy + dz * dz;
    if (r2 + eps2 > 0) phi += b.m[j] / std::sqrt(r2 + eps2);
    pulls[j] = pull(b, i, j, eps2);
    total_pull += pulls[j];
    if (pulls[j] > best_pull) {
      best_pull = pulls[j];
      strongest = static_cast<long>(j);
    }
  }
  c.potential = -G * c.mass * phi;
  // the body it orbits: the one whose sphere of influence holds it (the Earth for the Moon, which
  // the Sun pulls harder), else the one that pulls it hardest
  const long held = attractor(b, i, spheres_of_influence(b));
  c.dominant = held >= 0 ? held : strongest;
  if (c.dominant < 0) return c;
  const std::size_t d = static_cast<std::size_t>(c.dominant);
  c.dominant_name = body_name(b, d);
  const double dx = b.x[i] - b.x[d], dy = b.y[i] - b.y[d], dz = b.z[i] - b.z[d];
  c.distance = std::sqrt(dx * dx + dy * dy + dz * dz);
  c.dominance = total_pull > 0 ? pulls[d] / total_pull : 0;
  if (held >= 0 || c.dominance > 0.5) elements(b, i, d, G, c);
  return c;
}

}  // namespace nbody
