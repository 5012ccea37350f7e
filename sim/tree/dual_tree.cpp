#include "sim/tree/dual_tree.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>

#include "sim/forces/pair.hpp"

namespace nbody::tree {

namespace {

// below this many cells of a level, a level loop runs on one thread
constexpr std::size_t kParallelNodesMin = 2048;
// cells closer than the criterion allows are summed body by body when they hold at most this
// many pairs, rather than split further
constexpr std::uint64_t kDirectPairs = 64;
// the work of one cell-cell interaction in body pairs (for cutting the lists into chunks)
constexpr double kCellCellCost = 8;

int threads_for(std::size_t items, int threads) {
  return items >= kParallelNodesMin ? threads : 1;
}

// the mutual interaction of two well-separated cells: A (sink of B's field) and B (sink of A's).
// R = z_A - z_B, q = |R|^2 + eps^2 and g = q^(-1/2) the softened Green's function; its
// derivatives D1 = g1 R, D2 = g2 R R + g1 I, D3 = g3 R R R + g2 (I R + ...), with g1 = -q^(-3/2),
// g2 = 3 q^(-5/2), g3 = -15 q^(-7/2). The field of B about z_A:
//   c0 = M_B D1 + 1/2 S_B : D3,  c1 = M_B D2,  c2 = M_B D3
// and of A about z_B the same with R -> -R (odd orders change sign). About 190 flops.
template <typename T>
inline void cell_cell(const CellMoments<T>& A, const CellMoments<T>& B, T eps2, Taylor<T>& ta,
                      Taylor<T>& tb) {
  const T x = A.x - B.x, y = A.y - B.y, z = A.z - B.z;
  const T q = x * x + y * y + z * z + eps2;
  const T iq = T(1) / q;
  const T g1 = -std::sqrt(iq) * iq;
  const T g2 = T(-3) * g1 * iq;
  const T g3 = T(-5) * g2 * iq;
  T d2[6], d3[10];
  green_derivatives(x, y, z, g1, g2, g3, d2, d3);
  // 1/2 S : D3 = 1/2 [g3 R (R.S.R) + g2 (2 S R + tr(S) R)] of each cell's second moment
  const auto quad = [&](const T* s, T out[3]) {
    const T sx = s[0] * x + s[3] * y + s[4] * z;
    const T sy = s[3] * x + s[1] * y + s[5] * z;
    const T sz = s[4] * x + s[5] * y + s[2] * z;
    const T rsr = x * sx + y * sy + z * sz;
    const T tr = s[0] + s[1] + s[2];
    const T a = T(0.5) * (g3 * rsr + g2 * tr);
    out[0] = a * x + g2 * sx;
    out[1] = a * y + g2 * sy;
    out[2] = a * z + g2 * sz;
  };
  T qa[3], qb[3];
  quad(A.s, qa);
  quad(B.s, qb);
  const T ma = A.m, mb = B.m;
  const T d1[3] = {g1 * x, g1 * y, g1 * z};
  for (int i = 0; i < 3; ++i) {
    ta.c0[i] += mb * d1[i] + qb[i];
    tb.c0[i] -= ma * d1[i] + qa[i];
  }
  for (int i = 0; i < 6; ++i) {
    ta.c1[i] += mb * d2[i];
    tb.c1[i] += ma * d2[i];
  }
  for (int i = 0; i < 10; ++i) {
    ta.c2[i] += mb * d3[i];
    tb.c2[i] -= ma * d3[i];
  }
}

// child += parent re-centred at the child's centre (offset d): exact for a quadratic field
template <typename T>
inline void shift_add(const Taylor<T>& p, T dx, T dy, T dz, Taylor<T>& c) {
  T a[3];
  taylor_at(p, dx, dy, dz, a);
  const T* t = p.c2;
  const T c2d[6] = {t[0] * dx + t[1] * dy + t[2] * dz, t[3] * dx + t[6] * dy + t[7] * dz,
                    t[5] * dx + t[8] * dy + t[9] * dz, t[1] * dx + t[3] * dy + t[4] * dz,
                    t[2] * dx + t[4] * dy + t[5] * dz, t[4] * dx + t[7] * dy + t[8] * dz};
  for (int i = 0; i < 3; ++i)
    c.c0[i] += a[i];
  for (int i = 0; i < 6; ++i)
    c.c1[i] += p.c1[i] + c2d[i];
  for (int i = 0; i < 10; ++i)
    c.c2[i] += p.c2[i];
}

template <typename T>
inline void taylor_add(Taylor<T>& a, const Taylor<T>& b) {
  for (int i = 0; i < 3; ++i)
    a.c0[i] += b.c0[i];
  for (int i = 0; i < 6; ++i)
    a.c1[i] += b.c1[i];
  for (int i = 0; i < 10; ++i)
    a.c2[i] += b.c2[i];
}

// lanes of the direct sums: one 256-bit vector (two 128-bit ones without AVX)
template <typename T>
constexpr std::size_t kLanes = 32 / sizeof(T);

// sums kLanes lanes in a fixed order
template <typename T>
inline T lane_sum(const T* v) {
  T s[kLanes<T>];
  for (std::size_t l = 0; l < kLanes<T>; ++l)
    s[l] = v[l];
  for (std::size_t w = kLanes<T> / 2; w >= 1; w /= 2)
    for (std::size_t l = 0; l < w; ++l)
      s[l] += s[l + w];
  return s[0];
}

// copies bodies [b0, b1) into the scratch, padded to whole lanes with massless copies of the
// first; returns the padded count
template <typename T>
inline std::size_t gather(std::uint32_t b0, std::uint32_t b1, const T* x, const T* y, const T* z,
                          const T* m, DirectScratch<T>& s) {
  constexpr std::size_t W = kLanes<T>;
  const std::size_t nb = b1 - b0, np = (nb + W - 1) / W * W;
  if (s.x.size() < np)
    for (std::vector<T>* v : {&s.x, &s.y, &s.z, &s.m, &s.ax, &s.ay, &s.az})
      v->resize(np);
  for (std::size_t k = 0; k < np; ++k) {
    const std::uint32_t j = k < nb ? b0 + static_cast<std::uint32_t>(k) : b0;
    s.x[k] = x[j];
    s.y[k] = y[j];
    s.z[k] = z[j];
    s.m[k] = k < nb ? m[j] : T(0);
    s.ax[k] = s.ay[k] = s.az[k] = T(0);
  }
  return np;
}

// body i against the gathered bodies (b*, np of them): their pull added to out; when Mutual,
// i's pull on them taken from ba* (the pair's force equal and opposite)
template <typename T, bool Mutual>
inline __attribute__((always_inline)) void direct_row(
    T xi, T yi, T zi, T mi, const T* __restrict bx, const T* __restrict by, const T* __restrict bz,
    const T* __restrict bm, T* __restrict bax, T* __restrict bay, T* __restrict baz, std::size_t np,
    T eps2, T out[3]) {
  constexpr std::size_t W = kLanes<T>;
  T sx[W] = {}, sy[W] = {}, sz[W] = {};
  for (std::size_t j = 0; j < np; j += W) {
    for (std::size_t l = 0; l < W; ++l) {
      const T dx = bx[j + l] - xi, dy = by[j + l] - yi, dz = bz[j + l] - zi;
      const T q = pair_inv_r3(dx * dx + dy * dy + dz * dz + eps2);
      const T sj = bm[j + l] * q;
      sx[l] += dx * sj;
      sy[l] += dy * sj;
      sz[l] += dz * sj;
      if constexpr (Mutual) {
        const T si = mi * q;
        bax[j + l] -= dx * si;
        bay[j + l] -= dy * si;
        baz[j + l] -= dz * si;
      }
    }
  }
  out[0] += lane_sum(sx);
  out[1] += lane_sum(sy);
  out[2] += lane_sum(sz);
}

// bodies [a0, a1) with [b0, b1) (disjoint), each pair once, applied to both
template <typename T>
inline __attribute__((always_inline)) void direct_pairs(std::uint32_t a0, std::uint32_t a1,
                                                        std::uint32_t b0, std::uint32_t b1,
                                                        const ChunkView<T>& v,
                                                        DirectScratch<T>& s) {
  const std::size_t np = gather(b0, b1, v.x, v.y, v.z, v.m, s);
  for (std::uint32_t i = a0; i < a1; ++i) {
    T o[3] = {v.ax[i], v.ay[i], v.az[i]};
    direct_row<T, true>(v.x[i], v.y[i], v.z[i], v.m[i], s.x.data(), s.y.data(), s.z.data(),
                        s.m.data(), s.ax.data(), s.ay.data(), s.az.data(), np, v.eps2, o);
    v.ax[i] = o[0];
    v.ay[i] = o[1];
    v.az[i] = o[2];
  }
  for (std::uint32_t j = b0; j < b1; ++j) {
    v.ax[j] += s.ax[j - b0];
    v.ay[j] += s.ay[j - b0];
    v.az[j] += s.az[j - b0];
  }
}

// every pair of bodies [b0, b1): each body sums all the others (d and r^2 of a pair are the same
// both ways, up to sign, so the forces stay equal and opposite); the self pair adds nothing
template <typename T>
inline __attribute__((always_inline)) void direct_self(std::uint32_t b0, std::uint32_t b1,
                                                       const ChunkView<T>& v, DirectScratch<T>& s) {
  const std::size_t np = gather(b0, b1, v.x, v.y, v.z, v.m, s);
  for (std::uint32_t i = b0; i < b1; ++i) {
    T o[3] = {v.ax[i], v.ay[i], v.az[i]};
    direct_row<T, false>(v.x[i], v.y[i], v.z[i], v.m[i], s.x.data(), s.y.data(), s.z.data(),
                         s.m.data(), s.ax.data(), s.ay.data(), s.az.data(), np, v.eps2, o);
    v.ax[i] = o[0];
    v.ay[i] = o[1];
    v.az[i] = o[2];
  }
}

// one chunk of the lists into its buffers (cell coefficients and body accelerations)
template <typename T>
inline __attribute__((always_inline)) void evaluate_body(const ChunkView<T>& v,
                                                         DirectScratch<T>& s) {
  for (std::size_t i = 0; i < v.ncc; ++i) {
    const std::uint32_t a = v.cc[2 * i], b = v.cc[2 * i + 1];
    cell_cell(v.cells[a], v.cells[b], v.eps2, v.taylor[a], v.taylor[b]);
  }
  for (std::size_t i = 0; i < v.ndirect; ++i) {
    const std::uint32_t a = v.direct[2 * i], b = v.direct[2 * i + 1];
    const std::uint32_t a0 = v.begin[a], a1 = a0 + v.count[a];
    if (a == b) {
      direct_self(a0, a1, v, s);
    } else {
      const std::uint32_t b0 = v.begin[b], b1 = b0 + v.count[b];
      direct_pairs(a0, a1, b0, b1, v, s);
    }
  }
}

template <typename T>
void evaluate_default(const ChunkView<T>& v, DirectScratch<T>& s) {
  evaluate_body(v, s);
}

#if defined(__x86_64__) && defined(__GNUC__)
// the same code compiled for AVX2, chosen at run time where the processor has it
template <typename T>
__attribute__((target("avx2,fma"))) void evaluate_avx2(const ChunkView<T>& v, DirectScratch<T>& s) {
  evaluate_body(v, s);
}
#endif

template <typename T>
void evaluate(const ChunkView<T>& v, DirectScratch<T>& s) {
#if defined(__x86_64__) && defined(__GNUC__)
  static const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  if (avx2) return evaluate_avx2(v, s);
#endif
  evaluate_default(v, s);
}

}  // namespace

template <typename T>
void DualTree<T>::moments(const T* x, const T* y, const T* z, const T* m, int threads) {
  threads = std::max(1, threads);
  const Nodes& nd = octree_.nodes();
  const std::size_t nn = nd.size();
  mom_.resize(nn);
  cells_.resize(nn);
  parent_.assign(nn, 0);
  // levels (breadth-first order: ascending) and parents
  level_begin_.assign(1, 0);
  for (std::size_t i = 1; i < nn; ++i)
    if (nd.level[i] != nd.level[i - 1]) level_begin_.push_back(i);
  level_begin_.push_back(nn);
  for (std::size_t i = 0; i < nn; ++i)
    for (std::uint32_t c = nd.first_child[i]; c < nd.first_child[i] + nd.child_count[i]; ++c)
      parent_[c] = static_cast<std::uint32_t>(i);
  const Cube cube = octree_.cube();

  // from the deepest level up: leaves from their bodies, other cells from their children
  for (std::size_t l = level_begin_.size() - 1; l-- > 0;) {
    const long lb = static_cast<long>(level_begin_[l]), le = static_cast<long>(level_begin_[l + 1]);
#pragma omp parallel for num_threads(threads_for(le - lb, threads)) schedule(static)
    for (long node = lb; node < le; ++node) {
      CellMoments<double> c{};
      const std::uint32_t b = nd.begin[node], e = b + nd.count[node];
      const std::uint32_t c0 = nd.first_child[node], c1 = c0 + nd.child_count[node];
      double sx = 0, sy = 0, sz = 0, r = 0;
      if (nd.is_leaf(node)) {
        for (std::uint32_t i = b; i < e; ++i) {
          c.m += m[i];
          sx += double(m[i]) * x[i];
          sy += double(m[i]) * y[i];
          sz += double(m[i]) * z[i];
        }
        // massless cells: the mean position
        const bool massless = !(c.m > 0);
        if (massless) {
          sx = sy = sz = 0;
          for (std::uint32_t i = b; i < e; ++i) {
            sx += x[i];
            sy += y[i];
            sz += z[i];
          }
        }
        const double w = massless ? double(e - b) : c.m;
        c.x = sx / w;
        c.y = sy / w;
        c.z = sz / w;
        for (std::uint32_t i = b; i < e; ++i) {
          const double dx = x[i] - c.x, dy = y[i] - c.y, dz = z[i] - c.z;
          const double mi = m[i];
          c.s[0] += mi * dx * dx;
          c.s[1] += mi * dy * dy;
          c.s[2] += mi * dz * dz;
          c.s[3] += mi * dx * dy;
          c.s[4] += mi * dx * dz;
          c.s[5] += mi * dy * dz;
          r = std::max(r, dx * dx + dy * dy + dz * dz);
        }
        r = std::sqrt(r);
      } else {
        for (std::uint32_t k = c0; k < c1; ++k) {
          c.m += mom_[k].m;
          sx += mom_[k].m * mom_[k].x;
          sy += mom_[k].m * mom_[k].y;
          sz += mom_[k].m * mom_[k].z;
        }
        const bool massless = !(c.m > 0);
        if (massless) {
          sx = sy = sz = 0;
          for (std::uint32_t k = c0; k < c1; ++k) {
            const double w = double(nd.count[k]);
            sx += w * mom_[k].x;
            sy += w * mom_[k].y;
            sz += w * mom_[k].z;
          }
        }
        const double w = massless ? double(e - b) : c.m;
        c.x = sx / w;
        c.y = sy / w;
        c.z = sz / w;
        // children's second moments plus the parallel-axis terms; the radius that holds theirs
        for (std::uint32_t k = c0; k < c1; ++k) {
          const CellMoments<double>& ch = mom_[k];
          const double dx = ch.x - c.x, dy = ch.y - c.y, dz = ch.z - c.z;
          c.s[0] += ch.s[0] + ch.m * dx * dx;
          c.s[1] += ch.s[1] + ch.m * dy * dy;
          c.s[2] += ch.s[2] + ch.m * dz * dz;
          c.s[3] += ch.s[3] + ch.m * dx * dy;
          c.s[4] += ch.s[4] + ch.m * dx * dz;
          c.s[5] += ch.s[5] + ch.m * dy * dz;
          r = std::max(r, std::sqrt(dx * dx + dy * dy + dz * dz) + ch.r);
        }
        // never more than the farthest corner of the cube
        double gx, gy, gz, side;
        cell_geometry(nd.prefix[node], nd.level[node], cube, gx, gy, gz, side);
        const double h = 0.5 * side;
        const double fx = std::fabs(c.x - gx) + h, fy = std::fabs(c.y - gy) + h,
                     fz = std::fabs(c.z - gz) + h;
        r = std::min(r, std::sqrt(fx * fx + fy * fy + fz * fz));
      }
      c.r = r;
      mom_[node] = c;
      CellMoments<T>& t = cells_[node];
      t.m = static_cast<T>(c.m);
      t.x = static_cast<T>(c.x);
      t.y = static_cast<T>(c.y);
      t.z = static_cast<T>(c.z);
      for (int k = 0; k < 6; ++k)
        t.s[k] = static_cast<T>(c.s[k]);
      t.r = static_cast<T>(c.r);
    }
  }
}

template <typename T>
void DualTree<T>::self(std::uint32_t a) {
  const Nodes& nd = octree_.nodes();
  if (!(mom_[a].m > 0)) return;  // no mass inside: no force between its bodies
  if (nd.is_leaf(a)) {
    direct_.insert(direct_.end(), {a, a});
    return;
  }
  const std::uint32_t c0 = nd.first_child[a], c1 = c0 + nd.child_count[a];
  for (std::uint32_t c = c0; c < c1; ++c)
    self(c);
  for (std::uint32_t c = c0; c < c1; ++c)
    for (std::uint32_t d = c + 1; d < c1; ++d)
      pair(c, d);
}

template <typename T>
void DualTree<T>::pair(std::uint32_t a, std::uint32_t b) {
  const Nodes& nd = octree_.nodes();
  const CellMoments<double>& A = mom_[a];
  const CellMoments<double>& B = mom_[b];
  if (!(A.m > 0) && !(B.m > 0)) return;
  // well separated: |z_A - z_B| > (r_A + r_B) / theta
  const double dx = A.x - B.x, dy = A.y - B.y, dz = A.z - B.z;
  const double rr = A.r + B.r;
  if (rr * rr < theta2_ * (dx * dx + dy * dy + dz * dz)) {
    cc_.insert(cc_.end(), {a, b});
    return;
  }
  // too close: two leaves, or cells of few pairs, are summed body by body
  const bool leaf_a = nd.is_leaf(a), leaf_b = nd.is_leaf(b);
  if ((leaf_a && leaf_b) || std::uint64_t(nd.count[a]) * nd.count[b] <= kDirectPairs) {
    direct_.insert(direct_.end(), {a, b});
    return;
  }
  // split the larger cell (a leaf never)
  if (!leaf_a && (leaf_b || A.r >= B.r)) {
    for (std::uint32_t c = nd.first_child[a]; c < nd.first_child[a] + nd.child_count[a]; ++c)
      pair(c, b);
  } else {
    for (std::uint32_t c = nd.first_child[b]; c < nd.first_child[b] + nd.child_count[b]; ++c)
      pair(a, c);
  }
}

template <typename T>
void DualTree<T>::walk(double theta) {
  theta2_ = theta > 0 ? theta * theta : 0;
  cc_.clear();
  direct_.clear();
  if (octree_.nodes().size() > 0) self(0);
  split_lists();
}

template <typename T>
double DualTree<T>::direct_cost(std::size_t i) const {
  const Nodes& nd = octree_.nodes();
  const std::uint32_t a = direct_[2 * i], b = direct_[2 * i + 1];
  return a == b ? 0.5 * nd.count[a] * (nd.count[a] - 1.0) : double(nd.count[a]) * nd.count[b];
}

template <typename T>
void DualTree<T>::split_lists() {
  // cell-cell pairs: equal counts; direct pairs: about equal numbers of body pairs
  const std::size_t ncc = cc_.size() / 2, nd = direct_.size() / 2;
  for (int k = 0; k <= kChunks; ++k)
    cc_cut_[k] = ncc * static_cast<std::size_t>(k) / kChunks;
  double total = 0;
  for (std::size_t i = 0; i < nd; ++i)
    total += direct_cost(i) + 1;
  double sum = 0;
  int k = 1;
  direct_cut_[0] = 0;
  for (std::size_t i = 0; i < nd && k < kChunks; ++i) {
    sum += direct_cost(i) + 1;
    while (k < kChunks && sum >= total * k / kChunks)
      direct_cut_[k++] = i + 1;
  }
  while (k <= kChunks)
    direct_cut_[k++] = nd;
}

template <typename T>
void DualTree<T>::evaluate_chunk(int k, const T* x, const T* y, const T* z, const T* m, T eps2) {
  const Nodes& nd = octree_.nodes();
  const std::size_t n = octree_.body_count();
  std::vector<Taylor<T>>& tay = chunk_taylor_[k];
  std::vector<T>& acc = chunk_acc_[k];
  tay.assign(nd.size(), Taylor<T>{});
  acc.assign(3 * n, T(0));
  ChunkView<T> v;
  v.x = x;
  v.y = y;
  v.z = z;
  v.m = m;
  v.eps2 = eps2;
  v.begin = nd.begin.data();
  v.count = nd.count.data();
  v.cells = cells_.data();
  v.taylor = tay.data();
  v.ax = acc.data();
  v.ay = v.ax + n;
  v.az = v.ay + n;
  v.cc = cc_.data() + 2 * cc_cut_[k];
  v.ncc = cc_cut_[k + 1] - cc_cut_[k];
  v.direct = direct_.data() + 2 * direct_cut_[k];
  v.ndirect = direct_cut_[k + 1] - direct_cut_[k];
  evaluate(v, scratch_[k]);
}

template <typename T>
void DualTree<T>::downward(int threads) {
  const Nodes& nd = octree_.nodes();
  taylor_.resize(nd.size());
  // parents first: each cell's chunks in order, then its parent's expansion re-centred
  for (std::size_t l = 0; l + 1 < level_begin_.size(); ++l) {
    const long lb = static_cast<long>(level_begin_[l]), le = static_cast<long>(level_begin_[l + 1]);
#pragma omp parallel for num_threads(threads_for(le - lb, threads)) schedule(static)
    for (long node = lb; node < le; ++node) {
      Taylor<T> t = chunk_taylor_[0][node];
      for (int k = 1; k < kChunks; ++k)
        taylor_add(t, chunk_taylor_[k][node]);
      if (node > 0) {
        const CellMoments<T>& c = cells_[node];
        const std::uint32_t p = parent_[node];
        const CellMoments<T>& q = cells_[p];
        shift_add(taylor_[p], c.x - q.x, c.y - q.y, c.z - q.z, t);
      }
      taylor_[node] = t;
    }
  }
}

template <typename T>
DualWork DualTree<T>::accelerations(const T* x, const T* y, const T* z, const T* m, T G, T eps2,
                                    T* ax, T* ay, T* az, int threads) {
  threads = std::max(1, threads);
  DualWork work;
  const std::size_t n = octree_.body_count();
  if (n == 0) return work;
  const Nodes& nd = octree_.nodes();

  // the chunks, each into its own buffers
#pragma omp parallel for num_threads(std::min(threads, kChunks)) schedule(dynamic, 1)
  for (int k = 0; k < kChunks; ++k)
    evaluate_chunk(k, x, y, z, m, eps2);
  downward(threads);

  // every leaf's bodies: their direct sums (chunks in order) plus the leaf's expansion
  const long nn = static_cast<long>(nd.size());
#pragma omp parallel for num_threads(threads_for(n, threads)) schedule(static)
  for (long leaf = 0; leaf < nn; ++leaf) {
    if (!nd.is_leaf(leaf)) continue;
    const Taylor<T>& t = taylor_[leaf];
    const CellMoments<T>& c = cells_[leaf];
    const std::uint32_t b = nd.begin[leaf], e = b + nd.count[leaf];
    for (std::uint32_t i = b; i < e; ++i) {
      T a[3];
      taylor_at(t, x[i] - c.x, y[i] - c.y, z[i] - c.z, a);
      for (int d = 0; d < 3; ++d) {
        T s = chunk_acc_[0][d * n + i];
        for (int k = 1; k < kChunks; ++k)
          s += chunk_acc_[k][d * n + i];
        a[d] += s;
      }
      ax[i] = G * a[0];
      ay[i] = G * a[1];
      az[i] = G * a[2];
    }
  }

  work.cell_cell = static_cast<double>(cc_.size() / 2);
  for (std::size_t i = 0; i < direct_.size() / 2; ++i)
    work.body_pairs += direct_cost(i);
  return work;
}

template class DualTree<float>;
template class DualTree<double>;

}  // namespace nbody::tree
