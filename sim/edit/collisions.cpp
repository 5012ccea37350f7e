#include "sim/edit/collisions.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numbers>
#include <numeric>
#include <sstream>

#include "sim/core/error.hpp"
#include "sim/edit/edit.hpp"

namespace nbody {

namespace {

// a body's name for the events
std::string name_of(const Bodies& b, std::size_t i) {
  if (i < b.name.size() && !b.name[i].empty()) return b.name[i];
  std::ostringstream os;
  os << "body " << i;
  return os.str();
}

// union-find over body indices
struct Groups {
  std::vector<std::uint32_t> parent;
  explicit Groups(std::size_t n) : parent(n) {
    std::iota(parent.begin(), parent.end(), std::uint32_t{0});
  }
  std::uint32_t find(std::uint32_t i) {
    while (parent[i] != i) {
      parent[i] = parent[parent[i]];
      i = parent[i];
    }
    return i;
  }
  void join(std::uint32_t a, std::uint32_t b) {
    a = find(a);
    b = find(b);
    if (a != b) parent[std::max(a, b)] = std::min(a, b);
  }
};

// the touching pairs of bodies with radius `rad` (candidates: not anchors), joined in `g`
void find_touching(const Bodies& b, const std::vector<double>& rad, const std::vector<char>& skip,
                   Groups& g) {
  const std::size_t n = b.size();
  // cells at least as wide as the largest sum of two radii
  double rmax_massive = 0, rmax = 0;
  double lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
  for (std::size_t i = 0; i < n; ++i) {
    if (skip[i]) continue;
    rmax = std::max(rmax, rad[i]);
    if (b.m[i] > 0) rmax_massive = std::max(rmax_massive, rad[i]);
    const double p[3] = {b.x[i], b.y[i], b.z[i]};
    for (int k = 0; k < 3; ++k) {
      lo[k] = std::min(lo[k], p[k]);
      hi[k] = std::max(hi[k], p[k]);
    }
  }
  if (!(rmax_massive > 0)) return;
  double cell = rmax_massive + rmax;
  // at most 2^20 cells a side, so that the packed keys fit in 64 bits
  for (int k = 0; k < 3; ++k)
    cell = std::max(cell, (hi[k] - lo[k]) / double(1 << 20));
  const std::uint64_t side = (1u << 21) + 4;
  auto key_of = [&](std::size_t i) {
    // cells offset by 1 so that the neighbours below stay >= 0
    const auto c = [&](double v, int k) {
      return static_cast<std::uint64_t>((v - lo[k]) / cell) + 1;
    };
    return (c(b.x[i], 0) * side + c(b.y[i], 1)) * side + c(b.z[i], 2);
  };
  std::vector<std::pair<std::uint64_t, std::uint32_t>> keys;
  keys.reserve(n);
  for (std::size_t i = 0; i < n; ++i)
    if (!skip[i]) keys.push_back({key_of(i), static_cast<std::uint32_t>(i)});
  std::sort(keys.begin(), keys.end());
  auto touch = [&](std::uint32_t i, std::uint32_t j) {
    if (!(b.m[i] > 0) && !(b.m[j] > 0)) return;  // massless bodies pass through each other
    const double dx = b.x[i] - b.x[j], dy = b.y[i] - b.y[j], dz = b.z[i] - b.z[j];
    const double s = rad[i] + rad[j];
    if (dx * dx + dy * dy + dz * dz < s * s) g.join(i, j);
  };
  // the forward half of the 27 neighbours, as ranges of packed keys: (0,0,+1), (0,+1,-1..+1),
  // (+1,-1..+1,-1..+1); each range start only grows with the cell, so one cursor per range
  const std::uint64_t s2 = side * side;
  struct Range {
    std::uint64_t first, last;  // key offsets
    std::size_t cursor = 0;
  };
  std::vector<Range> ranges = {{1, 1},
                               {side - 1, side + 1},
                               {s2 - side - 1, s2 - side + 1},
                               {s2 - 1, s2 + 1},
                               {s2 + side - 1, s2 + side + 1}};
  const std::size_t m = keys.size();
  for (std::size_t a = 0; a < m;) {
    // the bodies of this cell: [a, e)
    std::size_t e = a + 1;
    while (e < m && keys[e].first == keys[a].first)
      ++e;
    for (std::size_t i = a; i < e; ++i)
      for (std::size_t j = i + 1; j < e; ++j)
        touch(keys[i].second, keys[j].second);
    for (Range& r : ranges) {
      const std::uint64_t k0 = keys[a].first + r.first, k1 = keys[a].first + r.last;
      while (r.cursor < m && keys[r.cursor].first < k0)
        ++r.cursor;
      for (std::size_t j = r.cursor; j < m && keys[j].first <= k1; ++j)
        for (std::size_t i = a; i < e; ++i)
          touch(keys[i].second, keys[j].second);
    }
    a = e;
  }
}

}  // namespace

double body_radius(const Scene& s, const MergeRule& r, double softening, double m) {
  if (r.use_softening || !s.units.physical()) return 0.5 * softening;
  if (!(m > 0)) return 0;
  const double kg = m * s.units.mass_kg;
  return std::cbrt(3 * kg / (4 * std::numbers::pi * r.density_kg_m3)) / s.units.length_m;
}

std::vector<MergeEvent> merge_touching(Scene& s, const MergeRule& r, double softening) {
  if (!(std::isfinite(r.density_kg_m3) && r.density_kg_m3 > 0))
    fail("merge rule: density must be finite and > 0 (got ", r.density_kg_m3, " kg/m³)");
  if (!(std::isfinite(softening) && softening >= 0))
    fail("merge rule: softening must be finite and >= 0 (got ", softening, ")");
  const Bodies& b = s.bodies;
  const std::size_t n = b.size();
  std::vector<double> rad(n);
  std::vector<char> skip(n, 0);
  for (std::size_t i = 0; i < n; ++i)
    rad[i] = body_radius(s, r, softening, b.m[i]);
  for (const RigidHalo& h : b.halos)
    if (h.anchor < n) skip[h.anchor] = 1;
  Groups g(n);
  find_touching(b, rad, skip, g);
  // the groups of more than one body
  std::vector<std::vector<std::size_t>> members;
  std::vector<std::uint32_t> slot(n, UINT32_MAX);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint32_t root = g.find(static_cast<std::uint32_t>(i));
    if (root == i) continue;  // a root: its group starts when a second member shows up
    if (slot[root] == UINT32_MAX) {
      slot[root] = static_cast<std::uint32_t>(members.size());
      members.push_back({root});
    }
    members[slot[root]].push_back(i);
  }
  if (members.empty()) return {};
  // each group becomes its heaviest body (one Set), the others go (one Remove)
  Edit set, remove;
  set.kind = Edit::Kind::Set;
  set.label = "merge touching bodies";
  remove.kind = Edit::Kind::Remove;
  remove.label = "merge touching bodies";
  std::vector<MergeEvent> events;
  for (const std::vector<std::size_t>& idx : members) {
    std::size_t keep = 0;
    set.bodies.push_back(merged_body(s, idx, keep));
    set.indices.push_back(keep);
    MergeEvent ev;
    ev.survivor = name_of(b, keep);
    ev.x = set.bodies.back().x;
    ev.y = set.bodies.back().y;
    ev.z = set.bodies.back().z;
    for (std::size_t i : idx)
      if (i != keep) {
        ev.absorbed.push_back(name_of(b, i));
        remove.indices.push_back(i);
      }
    events.push_back(std::move(ev));
  }
  apply_edit(s, set);
  apply_edit(s, remove);
  return events;
}

}  // namespace nbody
