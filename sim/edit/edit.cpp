#include "sim/edit/edit.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "sim/core/error.hpp"

namespace nbody {

namespace {

// the name errors give an edit: its label or its description, quoted
std::string edit_name(const Edit& e) {
  return "edit \"" + describe(e) + "\"";
}

std::string plural(std::size_t n, const char* what) {
  std::ostringstream os;
  os << n << ' ' << what << (n == 1 ? "" : "s");
  return os.str();
}

// throws unless every value of a body is finite and its mass is not negative
void check_spec(const Edit& e, const BodySpec& b, std::size_t k) {
  const double v[] = {b.x, b.y, b.z, b.vx, b.vy, b.vz, b.m};
  static const char* kField[] = {"x", "y", "z", "vx", "vy", "vz", "m"};
  for (int f = 0; f < 7; ++f)
    if (!std::isfinite(v[f]))
      fail(edit_name(e), ": body ", k, " of the edit has a non-finite ", kField[f], " (", v[f],
           ")");
  if (b.m < 0) fail(edit_name(e), ": body ", k, " of the edit has a negative mass (", b.m, ")");
}

// the edit's indices sorted; throws when one is out of range or given twice
std::vector<std::size_t> checked_indices(const Edit& e, std::size_t n, std::size_t min_count) {
  if (e.indices.size() < min_count)
    fail(edit_name(e), ": needs at least ", plural(min_count, "body"), " (got ", e.indices.size(),
         ")");
  std::vector<std::size_t> idx = e.indices;
  std::sort(idx.begin(), idx.end());
  for (std::size_t k = 0; k < idx.size(); ++k) {
    if (idx[k] >= n) fail(edit_name(e), ": body index ", idx[k], " out of range (N = ", n, ")");
    if (k > 0 && idx[k] == idx[k - 1]) fail(edit_name(e), ": body index ", idx[k], " given twice");
  }
  return idx;
}

// the halo carried by body i, or -1
int halo_of(const Bodies& b, std::size_t i) {
  for (std::size_t h = 0; h < b.halos.size(); ++h)
    if (b.halos[h].anchor == i) return static_cast<int>(h);
  return -1;
}

// bodies with positive mass, and rigid halos, left when the bodies `gone` (sorted) lose theirs
bool mass_left(const Bodies& b, const std::vector<std::size_t>& gone, double added) {
  if (added > 0 || !b.halos.empty()) return true;
  std::size_t massive = 0, lost = 0;
  for (double m : b.m)
    massive += m > 0;
  for (std::size_t i : gone)
    lost += b.m[i] > 0;
  return massive > lost;
}

// removes the elements at the sorted indices `gone` from v (v empty: nothing)
template <typename T>
void erase_sorted(std::vector<T>& v, const std::vector<std::size_t>& gone) {
  if (v.empty() || gone.empty()) return;
  std::size_t out = gone.front(), g = 0;
  for (std::size_t i = gone.front(); i < v.size(); ++i) {
    if (g < gone.size() && gone[g] == i) {
      ++g;
      continue;
    }
    v[out++] = std::move(v[i]);
  }
  v.resize(out);
}

// removes the sorted bodies `gone` and fixes the scene's per-body data
void remove_sorted(Scene& s, const std::vector<std::size_t>& gone) {
  Bodies& b = s.bodies;
  for (auto* v : {&b.x, &b.y, &b.z, &b.vx, &b.vy, &b.vz, &b.m})
    erase_sorted(*v, gone);
  erase_sorted(b.component, gone);
  erase_sorted(b.name, gone);
  erase_sorted(s.body_class, gone);
  // halos whose anchor went go with it; the others' anchors shift down
  std::vector<RigidHalo> halos;
  for (RigidHalo h : b.halos) {
    if (std::binary_search(gone.begin(), gone.end(), std::size_t{h.anchor})) continue;
    h.anchor = static_cast<std::uint32_t>(index_after_removal(gone, h.anchor));
    halos.push_back(h);
  }
  b.halos = std::move(halos);
  // group ranges shrink by the bodies removed inside them; empty groups are dropped
  std::vector<BodyGroup> groups;
  for (BodyGroup g : s.groups) {
    g.begin = index_after_removal(gone, g.begin);
    g.end = index_after_removal(gone, g.end);
    if (g.end > g.begin) groups.push_back(std::move(g));
  }
  s.groups = std::move(groups);
}

// writes spec into body i (names and classes kept only where the scene has them or spec gives
// one)
void write_body(Scene& s, std::size_t i, const BodySpec& spec) {
  Bodies& b = s.bodies;
  b.x[i] = spec.x;
  b.y[i] = spec.y;
  b.z[i] = spec.z;
  b.vx[i] = spec.vx;
  b.vy[i] = spec.vy;
  b.vz[i] = spec.vz;
  b.m[i] = spec.m;
  b.component[i] = spec.component;
  if (!spec.name.empty() && b.name.empty()) b.name.resize(b.size());
  if (!b.name.empty()) b.name[i] = spec.name;
  if (!spec.body_class.empty() && s.body_class.empty()) s.body_class.resize(b.size());
  if (!s.body_class.empty()) s.body_class[i] = spec.body_class;
}

void add_bodies(Scene& s, const Edit& e) {
  if (e.bodies.empty()) fail(edit_name(e), ": no bodies to add");
  for (std::size_t k = 0; k < e.bodies.size(); ++k)
    check_spec(e, e.bodies[k], k);
  Bodies& b = s.bodies;
  const std::size_t n0 = b.size();
  b.resize(n0 + e.bodies.size());
  if (!s.body_class.empty()) s.body_class.resize(b.size());
  for (std::size_t k = 0; k < e.bodies.size(); ++k)
    write_body(s, n0 + k, e.bodies[k]);
}

void remove_bodies(Scene& s, const Edit& e) {
  const std::vector<std::size_t> gone = checked_indices(e, s.bodies.size(), 1);
  if (gone.size() == s.bodies.size()) fail(edit_name(e), ": would remove every body");
  if (!mass_left(s.bodies, gone, 0)) fail(edit_name(e), ": would leave no body with positive mass");
  remove_sorted(s, gone);
}

void translate_bodies(Scene& s, const Edit& e) {
  const std::vector<std::size_t> idx = checked_indices(e, s.bodies.size(), 1);
  if (!std::isfinite(e.dx) || !std::isfinite(e.dy) || !std::isfinite(e.dz))
    fail(edit_name(e), ": non-finite displacement (", e.dx, ", ", e.dy, ", ", e.dz, ")");
  Bodies& b = s.bodies;
  for (std::size_t i : idx) {
    b.x[i] += e.dx;
    b.y[i] += e.dy;
    b.z[i] += e.dz;
  }
}

void set_bodies(Scene& s, const Edit& e) {
  const std::vector<std::size_t> idx = checked_indices(e, s.bodies.size(), 1);
  if (e.bodies.size() != e.indices.size())
    fail(edit_name(e), ": ", plural(e.indices.size(), "index"), " but ",
         plural(e.bodies.size(), "body"), " given");
  double added = 0;
  for (std::size_t k = 0; k < e.bodies.size(); ++k) {
    check_spec(e, e.bodies[k], k);
    if (e.bodies[k].m > 0 && halo_of(s.bodies, e.indices[k]) >= 0)
      fail(edit_name(e), ": body ", e.indices[k],
           " carries a rigid halo and must stay massless (got m = ", e.bodies[k].m, ")");
    added += e.bodies[k].m;
  }
  if (!mass_left(s.bodies, idx, added))
    fail(edit_name(e), ": would leave no body with positive mass");
  for (std::size_t k = 0; k < e.bodies.size(); ++k)
    write_body(s, e.indices[k], e.bodies[k]);
}

void merge_bodies(Scene& s, const Edit& e) {
  const std::vector<std::size_t> idx = checked_indices(e, s.bodies.size(), 2);
  Bodies& b = s.bodies;
  for (std::size_t i : idx)
    if (halo_of(b, i) >= 0) fail(edit_name(e), ": body ", i, " carries a rigid halo");
  std::size_t keep = 0;
  const BodySpec merged = merged_body(s, idx, keep);
  write_body(s, keep, merged);
  std::vector<std::size_t> gone;
  for (std::size_t i : idx)
    if (i != keep) gone.push_back(i);
  remove_sorted(s, gone);
}

}  // namespace

const char* edit_kind_name(Edit::Kind k) {
  switch (k) {
    case Edit::Kind::Add:
      return "add";
    case Edit::Kind::Remove:
      return "remove";
    case Edit::Kind::Translate:
      return "move";
    case Edit::Kind::Set:
      return "set";
    case Edit::Kind::Merge:
      return "merge";
  }
  return "edit";
}

std::string describe(const Edit& e) {
  if (!e.label.empty()) return e.label;
  std::ostringstream d;
  d << edit_kind_name(e.kind);
  const bool adds = e.kind == Edit::Kind::Add;
  const std::size_t n = adds ? e.bodies.size() : e.indices.size();
  if (n == 1 && !adds) {
    d << " body " << e.indices.front();
    if (!e.bodies.empty() && !e.bodies.front().name.empty())
      d << " (" << e.bodies.front().name << ")";
  } else if (n == 1 && !e.bodies.front().name.empty()) {
    d << " " << e.bodies.front().name;
  } else {
    d << " " << plural(n, "body");
  }
  return d.str();
}

void apply_edit(Scene& s, const Edit& e) {
  const Bodies& b = s.bodies;
  if (b.component.size() != b.size() || (!b.name.empty() && b.name.size() != b.size()) ||
      (!s.body_class.empty() && s.body_class.size() != b.size()))
    fail(edit_name(e), ": internal error: the scene's per-body arrays differ in length");
  switch (e.kind) {
    case Edit::Kind::Add:
      return add_bodies(s, e);
    case Edit::Kind::Remove:
      return remove_bodies(s, e);
    case Edit::Kind::Translate:
      return translate_bodies(s, e);
    case Edit::Kind::Set:
      return set_bodies(s, e);
    case Edit::Kind::Merge:
      return merge_bodies(s, e);
  }
  fail(edit_name(e), ": unknown kind of edit");
}

BodySpec body_spec(const Scene& s, std::size_t i) {
  const Bodies& b = s.bodies;
  if (i >= b.size()) fail("body_spec: body index ", i, " out of range (N = ", b.size(), ")");
  BodySpec r;
  r.x = b.x[i];
  r.y = b.y[i];
  r.z = b.z[i];
  r.vx = b.vx[i];
  r.vy = b.vy[i];
  r.vz = b.vz[i];
  r.m = b.m[i];
  r.component = b.component[i];
  if (i < b.name.size()) r.name = b.name[i];
  if (i < s.body_class.size()) r.body_class = s.body_class[i];
  return r;
}

BodySpec merged_body(const Scene& s, const std::vector<std::size_t>& indices,
                     std::size_t& survivor) {
  const Bodies& b = s.bodies;
  // the survivor: the heaviest, the first of equals (the lowest index)
  survivor = *std::min_element(indices.begin(), indices.end());
  for (std::size_t i : indices)
    if (b.m[i] > b.m[survivor] || (b.m[i] == b.m[survivor] && i < survivor)) survivor = i;
  // mass, centre of mass and its velocity (plain averages of massless bodies)
  double m = 0, c[6] = {0, 0, 0, 0, 0, 0};
  for (std::size_t i : indices)
    m += b.m[i];
  for (std::size_t i : indices) {
    const double w = m > 0 ? b.m[i] : 1.0;
    c[0] += w * b.x[i];
    c[1] += w * b.y[i];
    c[2] += w * b.z[i];
    c[3] += w * b.vx[i];
    c[4] += w * b.vy[i];
    c[5] += w * b.vz[i];
  }
  const double wsum = m > 0 ? m : static_cast<double>(indices.size());
  BodySpec r = body_spec(s, survivor);
  r.x = c[0] / wsum;
  r.y = c[1] / wsum;
  r.z = c[2] / wsum;
  r.vx = c[3] / wsum;
  r.vy = c[4] / wsum;
  r.vz = c[5] / wsum;
  r.m = m;
  return r;
}

std::size_t index_after_removal(const std::vector<std::size_t>& removed, std::size_t i) {
  return i - static_cast<std::size_t>(std::lower_bound(removed.begin(), removed.end(), i) -
                                      removed.begin());
}

std::size_t merged_index(const Bodies& b, const std::vector<std::size_t>& indices) {
  if (indices.empty()) return 0;
  std::vector<std::size_t> idx = indices;
  std::sort(idx.begin(), idx.end());
  std::size_t keep = idx.front();
  for (std::size_t i : idx)
    if (i < b.size() && keep < b.size() && b.m[i] > b.m[keep]) keep = i;
  std::size_t below = 0;
  for (std::size_t i : idx)
    below += i < keep;
  return keep - below;
}

}  // namespace nbody
