#pragma once
// The Barnes-Hut tree design shared by `cpu-barnes-hut` (sim/tree, OpenMP) and `barnes-hut`
// (sim/cuda, one warp per group), so that both build the same tree and agree:
//
//   bounding cube -> 63-bit Morton keys (21 bits per axis) -> keys sorted with a permutation ->
//   bodies gathered in key order -> octree built level by level from the sorted keys (a node
//   with more than leaf_size bodies below level 21 splits into its non-empty octants, children
//   stored contiguously in octant order, nodes in breadth-first order) -> upward pass (mass,
//   centre of mass, traceless quadrupole, opening radius r_crit = l / theta + delta) ->
//   traversal per group of consecutive sorted bodies against the group's bounding box.
//
// Everything here is a pure function usable on the host and the device.

#include <cmath>
#include <cstdint>
#include <limits>

#include "sim/core/hd.hpp"

namespace nbody::tree {

using std::fmax;
using std::pow;
using std::sqrt;

/// Levels below the root: 21 bits per axis make a 63-bit key.
constexpr int kMaxLevel = 21;
constexpr std::uint64_t kKeyCells = std::uint64_t(1) << kMaxLevel;  ///< cells per axis at level 21

/// The cube all bodies lie in: lower corner and side (> 0).
struct Cube {
  double x0 = 0, y0 = 0, z0 = 0, side = 1;
};

/// A cube holding the box [lo, hi] with a margin, so that no body sits on the upper face
/// (coincident bodies get a unit cube).
NBODY_HD_INLINE Cube enclosing_cube(double lox, double loy, double loz, double hix, double hiy,
                                    double hiz) {
  double side = fmax(hix - lox, fmax(hiy - loy, hiz - loz));
  if (!(side > 0)) side = fmax(1.0, fmax(fabs(lox), fmax(fabs(loy), fabs(loz))) * 1e-6);
  side *= 1.0 + 1e-6;
  const double cx = 0.5 * (lox + hix), cy = 0.5 * (loy + hiy), cz = 0.5 * (loz + hiz);
  return {cx - 0.5 * side, cy - 0.5 * side, cz - 0.5 * side, side};
}

/// Spreads the low 21 bits of v so that bit k moves to bit 3k.
NBODY_HD_INLINE std::uint64_t spread_bits(std::uint64_t v) {
  v &= 0x1fffff;
  v = (v | v << 32) & 0x1f00000000ffffULL;
  v = (v | v << 16) & 0x1f0000ff0000ffULL;
  v = (v | v << 8) & 0x100f00f00f00f00fULL;
  v = (v | v << 4) & 0x10c30c30c30c30c3ULL;
  v = (v | v << 2) & 0x1249249249249249ULL;
  return v;
}

/// Cell index along one axis at level 21, clamped into [0, 2^21 - 1].
NBODY_HD_INLINE std::uint64_t axis_cell(double x, double x0, double inv_cell) {
  const double c = floor((x - x0) * inv_cell);
  if (!(c > 0)) return 0;  // also NaN
  if (c >= double(kKeyCells - 1)) return kKeyCells - 1;
  return static_cast<std::uint64_t>(c);
}

/// 63-bit Morton key of a point (x is the most significant axis of each 3-bit digit).
NBODY_HD_INLINE std::uint64_t morton_key(double x, double y, double z, const Cube& c) {
  const double inv_cell = double(kKeyCells) / c.side;
  return spread_bits(axis_cell(x, c.x0, inv_cell)) << 2 |
         spread_bits(axis_cell(y, c.y0, inv_cell)) << 1 | spread_bits(axis_cell(z, c.z0, inv_cell));
}

/// Bits of the key below the digit of `level` (level 1 is the root's children).
NBODY_HD_INLINE int digit_shift(int level) {
  return 3 * (kMaxLevel - level);
}

/// Bits that hold every index below n (0 for n <= 1).
constexpr int index_bits(std::uint64_t n) {
  int b = 0;
  while (b < 64 && (std::uint64_t(1) << b) < n)
    ++b;
  return b;
}

/// Levels whose key digits a least-significant-digit radix sort in passes of `radix_bits` bits
/// orders for a tree whose deepest level was `deepest`: `margin` levels more (room for the next
/// tree to deepen), rounded up to what its passes sort anyway (a pass costs the same however few
/// bits it takes), at most 21, and where they fit leaving `low_bits` bits below the sorted digits
/// (for an index carried in the key: index_bits(n)).
constexpr int sorted_levels(int deepest, int margin, int radix_bits, int low_bits) {
  const int want = deepest + margin < kMaxLevel ? deepest + margin : kMaxLevel;
  const int passes = (3 * want + radix_bits - 1) / radix_bits;
  const int filled = passes * radix_bits / 3 < kMaxLevel ? passes * radix_bits / 3 : kMaxLevel;
  const int room = (3 * kMaxLevel - low_bits) / 3;  // levels that leave low_bits below them
  return want <= room && room < filled ? room : filled;
}

/// The octant (0..7) of `key` at `level` (1..21).
NBODY_HD_INLINE int octant(std::uint64_t key, int level) {
  return static_cast<int>((key >> digit_shift(level)) & 7);
}

/// The smallest key of child `oct` of the node at `level` whose keys start with `prefix`.
NBODY_HD_INLINE std::uint64_t child_prefix(std::uint64_t prefix, int level, int oct) {
  return prefix | (static_cast<std::uint64_t>(oct) << digit_shift(level + 1));
}

/// Decodes every third bit (the inverse of spread_bits).
NBODY_HD_INLINE std::uint64_t compact_bits(std::uint64_t v) {
  v &= 0x1249249249249249ULL;
  v = (v ^ (v >> 2)) & 0x10c30c30c30c30c3ULL;
  v = (v ^ (v >> 4)) & 0x100f00f00f00f00fULL;
  v = (v ^ (v >> 8)) & 0x1f0000ff0000ffULL;
  v = (v ^ (v >> 16)) & 0x1f00000000ffffULL;
  v = (v ^ (v >> 32)) & 0x1fffff;
  return v;
}

/// Grows the inclusive level-21 cell box [lo, hi] (per axis) by the cell at `level` (1..21) that
/// holds `key`.
NBODY_HD_INLINE void grow_by_cell(std::uint64_t key, int level, std::uint64_t lo[3],
                                  std::uint64_t hi[3]) {
  const int s = digit_shift(level);
  const std::uint64_t first = key >> s << s;
  const std::uint64_t ext = (std::uint64_t(1) << (kMaxLevel - level)) - 1;
  const std::uint64_t c[3] = {compact_bits(first >> 2), compact_bits(first >> 1),
                              compact_bits(first)};
  for (int d = 0; d < 3; ++d) {
    lo[d] = c[d] < lo[d] ? c[d] : lo[d];
    hi[d] = c[d] + ext > hi[d] ? c[d] + ext : hi[d];
  }
}

/// The level-21 cells (per axis, inclusive [lo, hi]) that hold every key in [a, b] (a <= b, keys
/// of 63 bits): the bounding box of the largest aligned cells that cover the range, so the
/// bodies of a slice of the key order lie in it. From the first level where a and b differ, the
/// octants between theirs whole, then down each side the octants after a's (before b's) digit,
/// until a starts (b ends) a cell.
NBODY_HD_INLINE void key_range_cells(std::uint64_t a, std::uint64_t b, std::uint64_t lo[3],
                                     std::uint64_t hi[3]) {
  for (int d = 0; d < 3; ++d) {
    lo[d] = kKeyCells - 1;
    hi[d] = 0;
  }
  if (a == b) {
    grow_by_cell(a, kMaxLevel, lo, hi);
    return;
  }
  int h = 62;
  while (!(((a ^ b) >> h) & 1))
    --h;
  const int l = kMaxLevel - h / 3;  // the first level whose digits differ (1..21)
  const std::uint64_t common = a >> digit_shift(l - 1) << digit_shift(l - 1);
  for (int o = octant(a, l) + 1; o < octant(b, l); ++o)
    grow_by_cell(child_prefix(common, l - 1, o), l, lo, hi);
  // a's cell at level m - 1 from a to its end; b's from its start to b
  for (int m = l + 1;; ++m) {
    const std::uint64_t below = (std::uint64_t(1) << digit_shift(m - 1)) - 1;
    if ((a & below) == 0) {
      grow_by_cell(a, m - 1, lo, hi);
      break;
    }
    for (int o = octant(a, m) + 1; o < 8; ++o)
      grow_by_cell(child_prefix(a & ~below, m - 1, o), m, lo, hi);
  }
  for (int m = l + 1;; ++m) {
    const std::uint64_t below = (std::uint64_t(1) << digit_shift(m - 1)) - 1;
    if ((b & below) == below) {
      grow_by_cell(b, m - 1, lo, hi);
      break;
    }
    for (int o = 0; o < octant(b, m); ++o)
      grow_by_cell(child_prefix(b & ~below, m - 1, o), m, lo, hi);
  }
}

/// Geometric centre and side of the node with key prefix `prefix` at `level`.
NBODY_HD_INLINE void cell_geometry(std::uint64_t prefix, int level, const Cube& c, double& cx,
                                   double& cy, double& cz, double& side) {
  const double cell = c.side / double(kKeyCells);
  side = c.side / double(std::uint64_t(1) << level);
  cx = c.x0 + double(compact_bits(prefix >> 2)) * cell + 0.5 * side;
  cy = c.y0 + double(compact_bits(prefix >> 1)) * cell + 0.5 * side;
  cz = c.z0 + double(compact_bits(prefix)) * cell + 0.5 * side;
}

/// Squared opening radius (l / theta + delta)^2, delta = |centre of mass - geometric centre|
/// (Bonsai's criterion). theta <= 0 gives +inf: nothing is ever accepted (the direct sum).
NBODY_HD_INLINE double opening_radius2(double side, double theta, double comx, double comy,
                                       double comz, double cx, double cy, double cz) {
  if (!(theta > 0)) return std::numeric_limits<double>::infinity();
  const double dx = comx - cx, dy = comy - cy, dz = comz - cz;
  const double r = side / theta + sqrt(dx * dx + dy * dy + dz * dz);
  return r * r;
}

/// The opening radius with the bodies' extent (the `opening=bmax` criterion): the smaller of `r2`
/// (opening_radius2) and (2 / sqrt(3) * bmax / theta)^2, where bmax bounds the distance of the
/// cell's bodies from its centre of mass. The multipole's error is bounded by bmax / d (Salmon &
/// Warren 1994, J. Comput. Phys. 111, 136); 2 / sqrt(3) makes the two radii agree for a cell whose
/// bodies reach its corners (bmax = sqrt(3) / 2 l), so only cells whose bodies fill a small part
/// of them (the sparse outskirts of clustered bodies) are accepted sooner.
NBODY_HD_INLINE double bmax_opening_radius2(double r2, double bmax, double theta) {
  if (!(theta > 0)) return r2;
  const double r = 1.1547005383792515 * bmax / theta;
  return r * r < r2 ? r * r : r2;
}

/// The relative opening (`alpha` > 0; Springel 2005, MNRAS 364, 1105, GADGET-2's criterion, here
/// for quadrupoles): besides the geometric test a cell acts on a group only where the bound of
/// its multipole's error, M b^3 / d^5 (b: the bodies' extent about the centre of mass, d: the
/// distance to the group's box), is at most alpha times the weakest pull on the group's bodies
/// (|a|min, from a first crude pass; see relative_strict_scale for the bound on what it asks).
/// Written d^2 >= s * f with s = (M b^3)^(2/5) the cell's
/// (relative_opening_size) and f = (alpha |a|min)^(-2/5) the group's (relative_group_factor).
NBODY_HD_INLINE double relative_opening_size(double m, double bmax) {
  return m > 0 && bmax > 0 ? pow(m * bmax * bmax * bmax, 0.4) : 0.0;
}

/// The group's factor f of relative_opening_size (see there), at most 1e30 (|a|min = 0: a cell
/// acts only where s = 0, a massless or one-body cell).
template <typename T>
NBODY_HD_INLINE T relative_group_factor(T alpha, T amin) {
  const T x = alpha * amin;
  const T f = x > T(0) ? T(pow(x, T(-0.4))) : T(1e30);
  return f < T(1e30) ? f : T(1e30);
}

/// The first, crude pass of the relative opening, which gives each group its |a|min: monopoles
/// only, with every node's squared opening radius times relative_pre_scale(theta), as if theta
/// were kRelativePreTheta (its error, ~10 %, moves |a|min by as much; 1.4 gave the same forces).
constexpr double kRelativePreTheta = 2.0;
NBODY_HD_INLINE double relative_pre_scale(double theta) {
  const double s = theta / kRelativePreTheta;
  return s < 1 ? s * s : 1.0;
}

/// The relative opening never asks for more than the geometric one at kRelativeStrictTheta: a
/// cell that fails the relative test still acts beyond its squared opening radius times
/// relative_strict_scale(theta). Where the pulls on a group cancel (|a|min ~ 0: the centre of a
/// uniform cube) the relative test alone would open almost every cell, and that one group's
/// near-direct sum held a 16.8M-body GPU step for 0.4 s.
constexpr double kRelativeStrictTheta = 0.4;
NBODY_HD_INLINE double relative_strict_scale(double theta) {
  const double s = theta / kRelativeStrictTheta;
  return s * s;
}

/// Squared distance from point p to the box [lo, hi] (0 inside).
template <typename T>
NBODY_HD_INLINE T box_distance2(T px, T py, T pz, T lox, T loy, T loz, T hix, T hiy, T hiz) {
  const T dx = fmax(fmax(lox - px, px - hix), T(0));
  const T dy = fmax(fmax(loy - py, py - hiy), T(0));
  const T dz = fmax(fmax(loz - pz, pz - hiz), T(0));
  return dx * dx + dy * dy + dz * dz;
}

/// Multipole of a cell: mass, centre of mass and the traceless quadrupole about it,
/// Q_ab = sum m (3 d_a d_b - |d|^2 delta_ab), d = x - com (xx, yy, zz, xy, xz, yz).
template <typename T>
struct Multipole {
  T m, x, y, z;
  T qxx, qyy, qzz, qxy, qxz, qyz;
};

/// Adds the quadrupole of a point mass m at offset (dx, dy, dz) from the centre of mass
/// (the parallel-axis term when merging children: d = child com - parent com).
template <typename T>
NBODY_HD_INLINE void add_point_quadrupole(Multipole<T>& q, T m, T dx, T dy, T dz) {
  const T r2 = dx * dx + dy * dy + dz * dz;
  q.qxx += m * (3 * dx * dx - r2);
  q.qyy += m * (3 * dy * dy - r2);
  q.qzz += m * (3 * dz * dz - r2);
  q.qxy += m * 3 * dx * dy;
  q.qxz += m * 3 * dx * dz;
  q.qyz += m * 3 * dy * dz;
}

/// Adds the pull of a cell (monopole, plus the quadrupole when Quad) on the body at (xi, yi, zi),
/// without G, softened like the direct sum (r^2 + eps^2). With d = com - x_i and r^2 = |d|^2 +
/// eps^2: a = M d / r^3 - Q d / r^5 + 5/2 (d.Q.d) d / r^7, evaluated as
/// (d (M r^2 + 5/2 (d.Q.d) / r^2) - Q d) / r^5: 31 float instructions on the GPU (the terms
/// apart: 33), the products written so that they contract to fused multiply-adds.
template <typename T, bool Quad>
NBODY_HD_INLINE void cell_interact(T xi, T yi, T zi, const Multipole<T>& c, T eps2, T& ax, T& ay,
                                   T& az) {
  const T dx = c.x - xi, dy = c.y - yi, dz = c.z - zi;
  const T r2 = dx * dx + (dy * dy + (dz * dz + eps2));
  const T inv = T(1) / sqrt(r2);
  const T inv2 = inv * inv;
  if constexpr (Quad) {
    const T qdx = c.qxx * dx + c.qxy * dy + c.qxz * dz;
    const T qdy = c.qxy * dx + c.qyy * dy + c.qyz * dz;
    const T qdz = c.qxz * dx + c.qyz * dy + c.qzz * dz;
    const T dqd = dx * qdx + dy * qdy + dz * qdz;
    const T inv5 = inv2 * inv2 * inv;
    const T u = c.m * r2 + T(2.5) * dqd * inv2;
    ax += (dx * u - qdx) * inv5;
    ay += (dy * u - qdy) * inv5;
    az += (dz * u - qdz) * inv5;
  } else {
    const T s = c.m * (inv2 * inv);
    ax += dx * s;
    ay += dy * s;
    az += dz * s;
  }
}

/// Taylor coefficients of a field about a point z (without G), the local expansion of far
/// sources: a(z + d) = c0 + c1 d + 1/2 c2 : d d, c1 symmetric (xx yy zz xy xz yz), c2 symmetric
/// (xxx xxy xxz xyy xyz xzz yyy yyz yzz zzz). Used by cpu-falcon (cell-cell) and the GPU
/// Barnes-Hut's far cells (barnes-hut's local_theta).
template <typename T>
struct Taylor {
  T c0[3];
  T c1[6];
  T c2[10];
};

/// The second and third derivatives of the softened Green's function at R (components as
/// Taylor's c1 and c2), from g1 = -q^(-3/2), g2 = 3 q^(-5/2), g3 = -15 q^(-7/2) (q = |R|^2 +
/// eps^2), each times the same factor: D2 = g2 R R + g1 I, D3 = g3 R R R + g2 (I R + ...).
template <typename T>
NBODY_HD_INLINE void green_derivatives(T x, T y, T z, T g1, T g2, T g3, T d2[6], T d3[10]) {
  const T gx = g3 * x, gy = g3 * y, gz = g3 * z;
  d2[0] = g2 * x * x + g1, d2[1] = g2 * y * y + g1, d2[2] = g2 * z * z + g1;
  d2[3] = g2 * x * y, d2[4] = g2 * x * z, d2[5] = g2 * y * z;
  d3[0] = gx * x * x + 3 * g2 * x, d3[1] = gx * x * y + g2 * y, d3[2] = gx * x * z + g2 * z;
  d3[3] = gx * y * y + g2 * x, d3[4] = gx * y * z, d3[5] = gx * z * z + g2 * x;
  d3[6] = gy * y * y + 3 * g2 * y, d3[7] = gy * y * z + g2 * z, d3[8] = gy * z * z + g2 * y;
  d3[9] = gz * z * z + 3 * g2 * z;
}

/// c1 d (c1 symmetric: xx yy zz xy xz yz)
template <typename T>
NBODY_HD_INLINE void mat_vec(const T* c, T dx, T dy, T dz, T out[3]) {
  out[0] = c[0] * dx + c[3] * dy + c[4] * dz;
  out[1] = c[3] * dx + c[1] * dy + c[5] * dz;
  out[2] = c[4] * dx + c[5] * dy + c[2] * dz;
}

/// c2 : d d (c2 symmetric: xxx xxy xxz xyy xyz xzz yyy yyz yzz zzz)
template <typename T>
NBODY_HD_INLINE void tensor_dd(const T* c, T dx, T dy, T dz, T out[3]) {
  const T xx = dx * dx, yy = dy * dy, zz = dz * dz, xy = 2 * dx * dy, xz = 2 * dx * dz,
          yz = 2 * dy * dz;
  out[0] = c[0] * xx + c[3] * yy + c[5] * zz + c[1] * xy + c[2] * xz + c[4] * yz;
  out[1] = c[1] * xx + c[6] * yy + c[8] * zz + c[3] * xy + c[4] * xz + c[7] * yz;
  out[2] = c[2] * xx + c[7] * yy + c[9] * zz + c[4] * xy + c[5] * xz + c[8] * yz;
}

/// The expansion's field at z + d: c0 + c1 d + 1/2 c2 : d d
template <typename T>
NBODY_HD_INLINE void taylor_at(const Taylor<T>& t, T dx, T dy, T dz, T out[3]) {
  T l[3], q[3];
  mat_vec(t.c1, dx, dy, dz, l);
  tensor_dd(t.c2, dx, dy, dz, q);
  for (int i = 0; i < 3; ++i)
    out[i] = t.c0[i] + l[i] + T(0.5) * q[i];
}

/// Adds the field of a far cell about the point (zx, zy, zz) to t: c0 its pull there
/// (cell_interact: monopole, plus the quadrupole when Quad), c1 and c2 the monopole's gradients.
/// The quadrupole's gradients are left out: with b the cell's extent, r the offset from z at
/// which the expansion is used and d the distance, they are O(M b^2 r / d^5), the order of the
/// expansion's own truncation O(M r^3 / d^5) when r ~ b (and of the octupole left out of c0).
template <typename T, bool Quad>
NBODY_HD_INLINE void far_field_add(T zx, T zy, T zz, const Multipole<T>& c, T eps2, Taylor<T>& t) {
  cell_interact<T, Quad>(zx, zy, zz, c, eps2, t.c0[0], t.c0[1], t.c0[2]);
  const T x = zx - c.x, y = zy - c.y, z = zz - c.z;
  const T iq = T(1) / (x * x + y * y + z * z + eps2);
  const T g1 = -c.m * sqrt(iq) * iq, g2 = T(-3) * g1 * iq, g3 = T(-5) * g2 * iq;
  T d2[6], d3[10];
  green_derivatives(x, y, z, g1, g2, g3, d2, d3);
  for (int i = 0; i < 6; ++i)
    t.c1[i] += d2[i];
  for (int i = 0; i < 10; ++i)
    t.c2[i] += d3[i];
}

}  // namespace nbody::tree
