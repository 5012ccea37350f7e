#include "sim/core/bodies.hpp"

#include <cmath>

#include "sim/core/error.hpp"

namespace nbody {

const char* component_name(Component c) {
  switch (c) {
    case Component::Star:
      return "star";
    case Component::Disk:
      return "disk";
    case Component::Bulge:
      return "bulge";
    case Component::Dark:
      return "dark";
    case Component::Gas:
      return "gas";
    case Component::Planet:
      return "planet";
  }
  return "unknown";
}

void Bodies::clear() {
  resize(0);
  halos.clear();
}

void Bodies::reserve(std::size_t n) {
  for (auto* v : {&x, &y, &z, &vx, &vy, &vz, &m})
    v->reserve(n);
  component.reserve(n);
}

void Bodies::resize(std::size_t n) {
  for (auto* v : {&x, &y, &z, &vx, &vy, &vz, &m})
    v->resize(n, 0.0);
  component.resize(n, Component::Star);
  if (!name.empty()) name.resize(n);
}

void Bodies::add(double px, double py, double pz, double pvx, double pvy, double pvz, double mass,
                 Component c, std::string label) {
  // names are kept only once some body has one
  const bool named = !label.empty() || !name.empty();
  if (named) name.resize(size());
  x.push_back(px);
  y.push_back(py);
  z.push_back(pz);
  vx.push_back(pvx);
  vy.push_back(pvy);
  vz.push_back(pvz);
  m.push_back(mass);
  component.push_back(c);
  if (named) name.push_back(std::move(label));
}

void Bodies::append(const Bodies& o) {
  const std::size_t n0 = size();
  if (!o.name.empty() && name.empty()) name.resize(n0);
  x.insert(x.end(), o.x.begin(), o.x.end());
  y.insert(y.end(), o.y.begin(), o.y.end());
  z.insert(z.end(), o.z.begin(), o.z.end());
  vx.insert(vx.end(), o.vx.begin(), o.vx.end());
  vy.insert(vy.end(), o.vy.begin(), o.vy.end());
  vz.insert(vz.end(), o.vz.begin(), o.vz.end());
  m.insert(m.end(), o.m.begin(), o.m.end());
  component.insert(component.end(), o.component.begin(), o.component.end());
  for (RigidHalo h : o.halos) {
    h.anchor += static_cast<std::uint32_t>(n0);
    halos.push_back(h);
  }
  if (!name.empty()) {
    if (o.name.empty())
      name.resize(size());
    else
      name.insert(name.end(), o.name.begin(), o.name.end());
  }
}

void Bodies::validate(const std::string& source) const {
  const std::size_t n = m.size();
  if (n == 0) fail(source, ": no bodies (N = 0)");
  for (auto* v : {&x, &y, &z, &vx, &vy, &vz})
    if (v->size() != n) fail(source, ": internal error: body arrays differ in length");
  if (component.size() != n || (!name.empty() && name.size() != n))
    fail(source, ": internal error: body arrays differ in length");
  static const char* kField[] = {"x", "y", "z", "vx", "vy", "vz", "m"};
  const std::vector<double>* arr[] = {&x, &y, &z, &vx, &vy, &vz, &m};
  for (int f = 0; f < 7; ++f)
    for (std::size_t i = 0; i < n; ++i)
      if (!std::isfinite((*arr[f])[i]))
        fail(source, ": body ", i, " has a non-finite ", kField[f], " (", (*arr[f])[i], ")");
  for (std::size_t i = 0; i < n; ++i)
    if (m[i] < 0) fail(source, ": body ", i, " has a negative mass (", m[i], ")");
  validate_halos(halos, m, source);
  const double mt = total_mass();
  if (!(mt > 0)) fail(source, ": total mass must be positive (got ", mt, ")");
}

double Bodies::total_mass() const {
  double s = 0;
  for (double v : m)
    s += v;
  for (const RigidHalo& h : halos)
    s += h.mass;
  return s;
}

void Bodies::to_centre_of_mass_frame() {
  const double mt = total_mass();
  if (!(mt > 0)) return;
  double c[6] = {0, 0, 0, 0, 0, 0};
  for (std::size_t i = 0; i < size(); ++i) {
    c[0] += m[i] * x[i];
    c[1] += m[i] * y[i];
    c[2] += m[i] * z[i];
    c[3] += m[i] * vx[i];
    c[4] += m[i] * vy[i];
    c[5] += m[i] * vz[i];
  }
  for (const RigidHalo& h : halos) {
    const std::size_t a = h.anchor;
    if (a >= size()) continue;  // validate() reports it
    c[0] += h.mass * x[a];
    c[1] += h.mass * y[a];
    c[2] += h.mass * z[a];
    c[3] += h.mass * vx[a];
    c[4] += h.mass * vy[a];
    c[5] += h.mass * vz[a];
  }
  for (double& v : c)
    v /= mt;
  for (std::size_t i = 0; i < size(); ++i) {
    x[i] -= c[0];
    y[i] -= c[1];
    z[i] -= c[2];
    vx[i] -= c[3];
    vy[i] -= c[4];
    vz[i] -= c[5];
  }
}

}  // namespace nbody
