#include "sim/forces/external_field.hpp"

#include <algorithm>

#include "sim/core/bodies.hpp"
#include "sim/core/error.hpp"

namespace nbody {

const char* halo_profile_name(HaloProfile p) {
  return p == HaloProfile::Nfw ? "nfw" : "hernquist";
}

HaloProfile parse_halo_profile(const std::string& s, const std::string& what) {
  if (s == "hernquist") return HaloProfile::Hernquist;
  if (s == "nfw") return HaloProfile::Nfw;
  fail(what, " must be hernquist or nfw (got '", s, "')");
}

namespace {

// NFW's mass function m(x) = ln(1 + x) - x / (1 + x)
double nfw_m(double x) {
  return std::log1p(x) - x / (1.0 + x);
}

HaloShape shape_of(const RigidHalo& h) {
  HaloShape s;
  s.profile = static_cast<int>(h.profile);
  s.a = h.scale;
  s.cut = h.cut;
  if (h.profile == HaloProfile::Hernquist) {
    // M(<r) = M_full r² / (r + a)², M(<cut) = M
    s.k = (h.cut + h.scale) * (h.cut + h.scale) / (h.cut * h.cut);
    // phi = -G M_full / (r + a) + c inside, -G M / r outside, continuous at the cut
    s.c0 = s.k / (h.cut + h.scale) - 1.0 / h.cut;
  } else {
    // M(<r) = M m(r / a) / m(c), phi = -G M ln(1 + r/a) / (m(c) r) + c inside
    const double c = h.cut / h.scale;
    s.k = 1.0 / nfw_m(c);
    s.c0 = s.k * std::log1p(c) / h.cut - 1.0 / h.cut;
  }
  return s;
}

}  // namespace

ExternalField make_external_field(const std::vector<RigidHalo>& halos, double G) {
  ExternalField f;
  f.count = static_cast<int>(std::min<std::size_t>(halos.size(), kMaxRigidHalos));
  for (int h = 0; h < f.count; ++h) {
    f.shape[h] = shape_of(halos[h]);
    f.mass[h] = halos[h].mass;
    f.gm[h] = G * halos[h].mass;
  }
  return f;
}

void validate_halos(const std::vector<RigidHalo>& halos, const std::vector<double>& masses,
                    const std::string& source) {
  if (halos.size() > static_cast<std::size_t>(kMaxRigidHalos))
    fail(source, ": ", halos.size(), " rigid halos (at most ", kMaxRigidHalos, ")");
  for (std::size_t h = 0; h < halos.size(); ++h) {
    const RigidHalo& r = halos[h];
    auto positive = [&](double v, const char* what) {
      if (!(std::isfinite(v) && v > 0))
        fail(source, ": rigid halo ", h + 1, " has ", what, " ", v, " (must be finite and > 0)");
    };
    positive(r.mass, "mass");
    positive(r.scale, "scale radius");
    positive(r.cut, "cut radius");
    if (r.anchor >= masses.size())
      fail(source, ": rigid halo ", h + 1, " is centred on body ", r.anchor, " but there are only ",
           masses.size(), " bodies");
    if (masses[r.anchor] != 0)
      fail(source, ": rigid halo ", h + 1, " is centred on body ", r.anchor, ", which has mass ",
           masses[r.anchor], " (a halo's centre body must be massless)");
    for (std::size_t j = 0; j < h; ++j)
      if (halos[j].anchor == r.anchor)
        fail(source, ": rigid halos ", j + 1, " and ", h + 1, " are centred on the same body ",
             r.anchor);
  }
}

ExternalEnergy external_energy(const Bodies& b, double G) {
  ExternalEnergy e;
  if (b.halos.empty()) return e;
  const ExternalField f = make_external_field(b.halos, G);
  double cx[kMaxRigidHalos], cy[kMaxRigidHalos], cz[kMaxRigidHalos];
  for (int h = 0; h < f.count; ++h) {
    const std::size_t a = b.halos[h].anchor;
    cx[h] = b.x[a];
    cy[h] = b.y[a];
    cz[h] = b.z[a];
    const double v2 = b.vx[a] * b.vx[a] + b.vy[a] * b.vy[a] + b.vz[a] * b.vz[a];
    e.kinetic += 0.5 * f.mass[h] * v2;
    // pairs of halos: the mean of the two shapes' potentials
    for (int j = 0; j < h; ++j) {
      const double r =
          std::sqrt((cx[h] - cx[j]) * (cx[h] - cx[j]) + (cy[h] - cy[j]) * (cy[h] - cy[j]) +
                    (cz[h] - cz[j]) * (cz[h] - cz[j]));
      e.potential += G * f.mass[h] * f.mass[j] * 0.5 *
                     (halo_potential(f.shape[h], r) + halo_potential(f.shape[j], r));
      // r·F of the pair force (the mean of the two shapes' enclosed fractions)
      if (r > 0)
        e.virial -= G * f.mass[h] * f.mass[j] * 0.5 *
                    (halo_fraction(f.shape[h], r) + halo_fraction(f.shape[j], r)) / r;
    }
  }
  // the bodies in the halos' field
  const long n = static_cast<long>(b.size());
  double w = 0, vir = 0;
#pragma omp parallel for schedule(static) reduction(+ : w, vir)
  for (long i = 0; i < n; ++i) {
    if (b.m[i] == 0) continue;
    double s = 0, sv = 0;
    for (int h = 0; h < f.count; ++h) {
      const double dx = b.x[i] - cx[h], dy = b.y[i] - cy[h], dz = b.z[i] - cz[h];
      const double r = std::sqrt(dx * dx + dy * dy + dz * dz);
      s += f.gm[h] * halo_potential(f.shape[h], r);
      // (x - x_h)·a = -G M f(r) / r
      if (r > 0) sv -= f.gm[h] * halo_fraction(f.shape[h], r) / r;
    }
    w += b.m[i] * s;
    vir += b.m[i] * sv;
  }
  e.potential += w;
  e.virial += vir;
  return e;
}

double halo_circular_speed(const RigidHalo& h, double G, double r) {
  if (!(r > 0)) return 0;
  return std::sqrt(G * h.mass * halo_fraction(shape_of(h), r) / r);
}

}  // namespace nbody
