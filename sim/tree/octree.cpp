#include "sim/tree/octree.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "sim/forces/pair.hpp"

namespace nbody::tree {

namespace {

// below these sizes a loop runs on one thread: waking the others costs more than the loop
// (much more on busy cores, where every barrier may wait for a time slice)
constexpr std::size_t kParallelBodiesMin = 65536;  // per-body loops of sort()
constexpr std::size_t kParallelNodesMin = 2048;    // nodes of one level in build() and moments()

int threads_for(std::size_t items, std::size_t min_items, int threads) {
  return items >= min_items ? threads : 1;
}

// a non-negative double in T: beyond T's range +inf (never passes a test d^2 > v)
template <typename T>
T to_t(double v) {
  return v > double(std::numeric_limits<T>::max()) ? std::numeric_limits<T>::infinity()
                                                   : static_cast<T>(v);
}

}  // namespace

template <typename T>
void Octree<T>::sort(const T* x, const T* y, const T* z, std::size_t n, int threads) {
  threads = std::max(1, threads);
  keys_.resize(n);
  perm_.resize(n);
  pairs_.resize(n);
  identity_ = true;
  if (n == 0) return;
  const long nl = static_cast<long>(n);
  const int nt = threads_for(n, kParallelBodiesMin, threads);

  // bounding box (min and max are exact, so any split of the work gives the same box)
  double lox = x[0], loy = y[0], loz = z[0], hix = x[0], hiy = y[0], hiz = z[0];
#pragma omp parallel for num_threads(nt) schedule(static) reduction(min              \
                                                                    : lox, loy, loz) \
    reduction(max                                                                    \
              : hix, hiy, hiz)
  for (long i = 0; i < nl; ++i) {
    lox = std::min<double>(lox, x[i]);
    loy = std::min<double>(loy, y[i]);
    loz = std::min<double>(loz, z[i]);
    hix = std::max<double>(hix, x[i]);
    hiy = std::max<double>(hiy, y[i]);
    hiz = std::max<double>(hiz, z[i]);
  }
  cube_ = enclosing_cube(lox, loy, loz, hix, hiy, hiz);

  // keys in double, and whether they are already in order
  KeyIndex* pairs = pairs_.data();
  const Cube cube = cube_;
#pragma omp parallel for num_threads(nt) schedule(static)
  for (long i = 0; i < nl; ++i) {
    pairs[i] = {morton_key(double(x[i]), double(y[i]), double(z[i]), cube),
                static_cast<std::uint32_t>(i)};
  }
  bool sorted = true;
#pragma omp parallel for num_threads(nt) schedule(static) reduction(&& : sorted)
  for (long i = 1; i < nl; ++i)
    sorted = sorted && pairs[i - 1].key <= pairs[i].key;

  // sort (key, index) pairs: the order is total, so chunked sorts and merges are deterministic
  if (!sorted) {
    identity_ = false;
    const auto less = [](const KeyIndex& a, const KeyIndex& b) {
      return a.key < b.key || (a.key == b.key && a.index < b.index);
    };
    const int chunks = nt;
    if (chunks == 1) {
      std::sort(pairs_.begin(), pairs_.end(), less);
    } else {
      auto bound = [&](int c) { return static_cast<std::size_t>(c) * n / chunks; };
#pragma omp parallel for num_threads(nt) schedule(static, 1)
      for (int c = 0; c < chunks; ++c)
        std::sort(pairs + bound(c), pairs + bound(c + 1), less);
      // merge neighbouring runs, doubling their width each round
      merge_buf_.resize(n);
      KeyIndex* src = pairs_.data();
      KeyIndex* dst = merge_buf_.data();
      for (int width = 1; width < chunks; width *= 2) {
#pragma omp parallel for num_threads(nt) schedule(static, 1)
        for (int c = 0; c < chunks; c += 2 * width) {
          const std::size_t b = bound(c), m = bound(std::min(c + width, chunks)),
                            e = bound(std::min(c + 2 * width, chunks));
          std::merge(src + b, src + m, src + m, src + e, dst + b, less);
        }
        std::swap(src, dst);
      }
      if (src != pairs_.data()) std::copy(src, src + n, pairs_.data());
    }
  }

  // split the pairs into sorted keys and the permutation
  std::uint64_t* keys = keys_.data();
  std::uint32_t* perm = perm_.data();
#pragma omp parallel for num_threads(nt) schedule(static)
  for (long i = 0; i < nl; ++i) {
    keys[i] = pairs[i].key;
    perm[i] = pairs[i].index;
  }
}

template <typename T>
void Octree<T>::build(int leaf_size, int threads) {
  threads = std::max(1, threads);
  leaf_size = std::max(1, leaf_size);
  const std::size_t n = keys_.size();
  Nodes& nd = nodes_;
  auto resize = [&nd](std::size_t size) {
    nd.begin.resize(size);
    nd.count.resize(size);
    nd.first_child.resize(size);
    nd.child_count.resize(size);
    nd.level.resize(size);
    nd.prefix.resize(size);
  };
  level_begin_.clear();
  level_begin_.push_back(0);
  if (n == 0) {
    resize(0);
    level_begin_.push_back(0);
    return;
  }

  // the root holds every body
  resize(1);
  nd.begin[0] = 0;
  nd.count[0] = static_cast<std::uint32_t>(n);
  nd.first_child[0] = 0;
  nd.child_count[0] = 0;
  nd.level[0] = 0;
  nd.prefix[0] = 0;
  level_begin_.push_back(1);

  const std::uint64_t* keys = keys_.data();
  for (int level = 0; level < kMaxLevel; ++level) {
    const std::size_t lb = level_begin_[level], le = level_begin_[level + 1];
    if (lb == le) break;
    const long m = static_cast<long>(le - lb);
    const int nt = threads_for(le - lb, kParallelNodesMin, threads);
    split_.resize(static_cast<std::size_t>(m) * 9);
    std::uint32_t* split = split_.data();

    // octant bounds of every node to split (binary search on the digit of level + 1)
#pragma omp parallel for num_threads(nt) schedule(static)
    for (long i = 0; i < m; ++i) {
      const std::size_t node = lb + static_cast<std::size_t>(i);
      const std::uint32_t b = nd.begin[node], e = b + nd.count[node];
      std::uint32_t* s = split + 9 * i;
      nd.child_count[node] = 0;
      if (nd.count[node] <= static_cast<std::uint32_t>(leaf_size)) continue;
      s[0] = b;
      s[8] = e;
      std::uint32_t lo = b;
      int children = 0;
      for (int oct = 1; oct < 8; ++oct) {
        const std::uint64_t start = child_prefix(nd.prefix[node], level, oct);
        lo = static_cast<std::uint32_t>(std::lower_bound(keys + lo, keys + e, start) - keys);
        s[oct] = lo;
      }
      for (int oct = 0; oct < 8; ++oct)
        children += s[oct + 1] > s[oct];
      nd.child_count[node] = static_cast<std::uint8_t>(children);
    }

    // children are numbered in the order of their parents (breadth-first)
    std::size_t next = le;
    for (std::size_t node = lb; node < le; ++node) {
      nd.first_child[node] = nd.child_count[node] ? static_cast<std::uint32_t>(next) : 0;
      next += nd.child_count[node];
    }
    if (next == le) break;
    resize(next);

    // write the children
#pragma omp parallel for num_threads(nt) schedule(static)
    for (long i = 0; i < m; ++i) {
      const std::size_t node = lb + static_cast<std::size_t>(i);
      if (!nd.child_count[node]) continue;
      const std::uint32_t* s = split + 9 * i;
      std::size_t c = nd.first_child[node];
      for (int oct = 0; oct < 8; ++oct) {
        if (s[oct + 1] == s[oct]) continue;
        nd.begin[c] = s[oct];
        nd.count[c] = s[oct + 1] - s[oct];
        nd.first_child[c] = 0;
        nd.child_count[c] = 0;
        nd.level[c] = static_cast<std::uint8_t>(level + 1);
        nd.prefix[c] = child_prefix(nd.prefix[node], level, oct);
        ++c;
      }
    }
    level_begin_.push_back(next);
  }
}

template <typename T>
void Octree<T>::moments(const T* x, const T* y, const T* z, const T* m, double theta, int threads,
                        bool bmax, double alpha) {
  threads = std::max(1, threads);
  const Nodes& nd = nodes_;
  const std::size_t nn = nd.size();
  mp_.resize(nn);
  extent_.resize(nn);
  for (std::vector<T>* v : {&cx_, &cy_, &cz_, &cm_, &qxx_, &qyy_, &qzz_, &qxy_, &qxz_, &qyz_, &r2_})
    v->resize(nn);
  // the relative opening needs every node's extent, whatever the opening radius
  relative_ = alpha > 0 && theta > 0;
  alpha_ = relative_ ? alpha : 0;
  pre_scale_ = static_cast<T>(relative_pre_scale(theta));
  strict_scale_ = static_cast<T>(relative_strict_scale(theta));
  rel_.resize(relative_ ? nn : 0);
  const bool need_extent = bmax || relative_;

  // from the deepest level up: leaves from their bodies, other nodes from their children
  for (std::size_t level = level_begin_.size() - 1; level-- > 0;) {
    const long lb = static_cast<long>(level_begin_[level]);
    const long le = static_cast<long>(level_begin_[level + 1]);
    const int nt = threads_for(le - lb, kParallelNodesMin, threads);
#pragma omp parallel for num_threads(nt) schedule(static)
    for (long node = lb; node < le; ++node) {
      Multipole<double> q{};
      double sx = 0, sy = 0, sz = 0;
      const std::uint32_t b = nd.begin[node], e = b + nd.count[node];
      const std::uint32_t c0 = nd.first_child[node], c1 = c0 + nd.child_count[node];
      if (nd.is_leaf(node)) {
        // mass and centre of mass (massless bodies: their mean position)
        for (std::uint32_t i = b; i < e; ++i) {
          q.m += m[i];
          sx += double(m[i]) * x[i];
          sy += double(m[i]) * y[i];
          sz += double(m[i]) * z[i];
        }
        if (!(q.m > 0)) {
          sx = sy = sz = 0;
          for (std::uint32_t i = b; i < e; ++i) {
            sx += x[i];
            sy += y[i];
            sz += z[i];
          }
          q.x = sx / (e - b);
          q.y = sy / (e - b);
          q.z = sz / (e - b);
        } else {
          q.x = sx / q.m;
          q.y = sy / q.m;
          q.z = sz / q.m;
        }
        for (std::uint32_t i = b; i < e; ++i)
          add_point_quadrupole(q, double(m[i]), x[i] - q.x, y[i] - q.y, z[i] - q.z);
      } else {
        for (std::uint32_t c = c0; c < c1; ++c) {
          const Multipole<double>& k = mp_[c];
          q.m += k.m;
          sx += k.m * k.x;
          sy += k.m * k.y;
          sz += k.m * k.z;
        }
        if (!(q.m > 0)) {
          sx = sy = sz = 0;
          for (std::uint32_t c = c0; c < c1; ++c) {
            const double w = double(nd.count[c]) / (e - b);
            sx += w * mp_[c].x;
            sy += w * mp_[c].y;
            sz += w * mp_[c].z;
          }
          q.x = sx;
          q.y = sy;
          q.z = sz;
        } else {
          q.x = sx / q.m;
          q.y = sy / q.m;
          q.z = sz / q.m;
        }
        // children's quadrupoles plus the parallel-axis terms
        for (std::uint32_t c = c0; c < c1; ++c) {
          const Multipole<double>& k = mp_[c];
          q.qxx += k.qxx;
          q.qyy += k.qyy;
          q.qzz += k.qzz;
          q.qxy += k.qxy;
          q.qxz += k.qxz;
          q.qyz += k.qyz;
          add_point_quadrupole(q, k.m, k.x - q.x, k.y - q.y, k.z - q.z);
        }
      }
      mp_[node] = q;
      // opening=bmax and the relative opening: the bodies' extent about the centre of mass
      // (through the children's)
      double extent = 0;
      const auto dist = [&q](double px, double py, double pz) {
        return std::sqrt((px - q.x) * (px - q.x) + (py - q.y) * (py - q.y) +
                         (pz - q.z) * (pz - q.z));
      };
      if (need_extent && nd.is_leaf(node)) {
        for (std::uint32_t i = b; i < e; ++i)
          extent = std::max(extent, dist(x[i], y[i], z[i]));
      } else if (need_extent) {
        for (std::uint32_t c = c0; c < c1; ++c)
          extent = std::max(extent, dist(mp_[c].x, mp_[c].y, mp_[c].z) + extent_[c]);
      }
      extent_[node] = extent;
      if (relative_) rel_[node] = to_t<T>(relative_opening_size(q.m, extent));

      // opening radius from the geometric cell and the offset of the centre of mass
      double gx, gy, gz, side;
      cell_geometry(nd.prefix[node], nd.level[node], cube_, gx, gy, gz, side);
      double r2 = tree::opening_radius2(side, theta, q.x, q.y, q.z, gx, gy, gz);
      if (bmax) r2 = tree::bmax_opening_radius2(r2, extent, theta);
      r2_[node] = to_t<T>(r2);
      cx_[node] = static_cast<T>(q.x);
      cy_[node] = static_cast<T>(q.y);
      cz_[node] = static_cast<T>(q.z);
      cm_[node] = static_cast<T>(q.m);
      qxx_[node] = static_cast<T>(q.qxx);
      qyy_[node] = static_cast<T>(q.qyy);
      qzz_[node] = static_cast<T>(q.qzz);
      qxy_[node] = static_cast<T>(q.qxy);
      qxz_[node] = static_cast<T>(q.qxz);
      qyz_[node] = static_cast<T>(q.qyz);
    }
  }
}

namespace {

// lanes of the blocked sums: one 256-bit vector (two 128-bit ones without AVX)
template <typename T>
constexpr std::size_t kLanes = 32 / sizeof(T);

// the interaction lists of one group as structures of arrays, padded to a multiple of kLanes
// with massless entries (padded cells sit on a real cell, padded bodies on a real body)
template <typename T>
struct ListView {
  std::size_t nc;
  const T *cx, *cy, *cz, *cm, *qxx, *qyy, *qzz, *qxy, *qxz, *qyz;
  std::size_t nb;
  const T *bx, *by, *bz, *bm;
};

// n rounded up to whole lanes
template <typename T>
constexpr std::size_t padded(std::size_t n) {
  return (n + kLanes<T> - 1) / kLanes<T> * kLanes<T>;
}

// the lists gathered in scratch s (Octree::gather(), which returned nb), padded to whole lanes
template <typename T, typename Scratch>
ListView<T> list_view(const Scratch& s, std::size_t nb) {
  return {padded<T>(s.cells.size()),
          s.cx.data(),
          s.cy.data(),
          s.cz.data(),
          s.cm.data(),
          s.qxx.data(),
          s.qyy.data(),
          s.qzz.data(),
          s.qxy.data(),
          s.qxz.data(),
          s.qyz.data(),
          padded<T>(nb),
          s.bx.data(),
          s.by.data(),
          s.bz.data(),
          s.bm.data()};
}

// sums kLanes lanes in a fixed order
template <typename T>
inline T lane_sum(const T* v) {
  T s[kLanes<T> / 2];
  for (std::size_t w = kLanes<T> / 2; w >= 1; w /= 2) {
    for (std::size_t l = 0; l < w; ++l)
      s[l] = (w == kLanes<T> / 2 ? v : s)[l] + (w == kLanes<T> / 2 ? v : s)[l + w];
  }
  return s[0];
}

// the accelerations of bodies [g0, g1) from their lists (times G); each sum runs in kLanes
// independent lanes (the same order on every machine and thread count), so it vectorizes
template <typename T, bool Quad>
inline __attribute__((always_inline)) void evaluate_group_body(const ListView<T>& L, const T* x,
                                                               const T* y, const T* z,
                                                               std::uint32_t g0, std::uint32_t g1,
                                                               T G, T eps2, T* ax, T* ay, T* az) {
  constexpr std::size_t W = kLanes<T>;
  for (std::uint32_t i = g0; i < g1; ++i) {
    const T xi = x[i], yi = y[i], zi = z[i];
    T sx[W] = {}, sy[W] = {}, sz[W] = {};
    // accepted cells: monopole (+ quadrupole)
    for (std::size_t c = 0; c < L.nc; c += W) {
      for (std::size_t l = 0; l < W; ++l) {
        Multipole<T> q;
        q.m = L.cm[c + l];
        q.x = L.cx[c + l];
        q.y = L.cy[c + l];
        q.z = L.cz[c + l];
        if constexpr (Quad) {
          q.qxx = L.qxx[c + l];
          q.qyy = L.qyy[c + l];
          q.qzz = L.qzz[c + l];
          q.qxy = L.qxy[c + l];
          q.qxz = L.qxz[c + l];
          q.qyz = L.qyz[c + l];
        }
        T px = 0, py = 0, pz = 0;
        cell_interact<T, Quad>(xi, yi, zi, q, eps2, px, py, pz);
        sx[l] += px;
        sy[l] += py;
        sz[l] += pz;
      }
    }
    // bodies of opened leaves: the direct-sum formula, r^2 = 0 skipped
    for (std::size_t j = 0; j < L.nb; j += W) {
      for (std::size_t l = 0; l < W; ++l) {
        const T dx = L.bx[j + l] - xi, dy = L.by[j + l] - yi, dz = L.bz[j + l] - zi;
        // the pair interaction of every CPU kernel (branch-free, so the loop vectorizes)
        const T s = L.bm[j + l] * pair_inv_r3(dx * dx + dy * dy + dz * dz + eps2);
        sx[l] += dx * s;
        sy[l] += dy * s;
        sz[l] += dz * s;
      }
    }
    ax[i] = G * lane_sum(sx);
    ay[i] = G * lane_sum(sy);
    az[i] = G * lane_sum(sz);
  }
}

template <typename T, bool Quad>
void evaluate_group_default(const ListView<T>& L, const T* x, const T* y, const T* z,
                            std::uint32_t g0, std::uint32_t g1, T G, T eps2, T* ax, T* ay, T* az) {
  evaluate_group_body<T, Quad>(L, x, y, z, g0, g1, G, eps2, ax, ay, az);
}

#if defined(__x86_64__) && defined(__GNUC__)
// the same code compiled for AVX2, chosen at run time where the processor has it
template <typename T, bool Quad>
__attribute__((target("avx2,fma"))) void evaluate_group_avx2(const ListView<T>& L, const T* x,
                                                             const T* y, const T* z,
                                                             std::uint32_t g0, std::uint32_t g1,
                                                             T G, T eps2, T* ax, T* ay, T* az) {
  evaluate_group_body<T, Quad>(L, x, y, z, g0, g1, G, eps2, ax, ay, az);
}
#endif

template <typename T, bool Quad>
using EvaluateFn = void (*)(const ListView<T>&, const T*, const T*, const T*, std::uint32_t,
                            std::uint32_t, T, T, T*, T*, T*);

template <typename T, bool Quad>
EvaluateFn<T, Quad> evaluate_group() {
#if defined(__x86_64__) && defined(__GNUC__)
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
    return &evaluate_group_avx2<T, Quad>;
#endif
  return &evaluate_group_default<T, Quad>;
}

}  // namespace

template <typename T>
void Octree<T>::walk(const GroupBox& g, T scale, bool relative, T factor, Scratch& s) const {
  // from the root: accept far cells, list the bodies of near leaves, open the rest; a cell
  // holding one of the group's own bodies is always opened (matters for theta > 1.15)
  const Nodes& nd = nodes_;
  s.cells.clear();
  s.leaves.clear();
  s.stack.clear();
  s.stack.push_back(0);
  while (!s.stack.empty()) {
    const std::uint32_t node = s.stack.back();
    s.stack.pop_back();
    const std::uint32_t b = nd.begin[node], e = b + nd.count[node];
    const bool holds_group = b < g.g1 && g.g0 < e;
    // massless bodies pull on nothing: a cell without mass is skipped whole
    if (!(cm_[node] > T(0))) continue;
    bool accept = false;
    if (!holds_group) {
      const T d2 = box_distance2<T>(cx_[node], cy_[node], cz_[node], g.lox, g.loy, g.loz, g.hix,
                                    g.hiy, g.hiz);
      // the geometric test, and the relative one where asked
      accept = d2 > r2_[node] * scale;
      if (accept && relative) accept = d2 > rel_[node] * factor || d2 > r2_[node] * strict_scale_;
    }
    if (accept) {
      s.cells.push_back(node);
    } else if (nd.is_leaf(node)) {
      s.leaves.push_back(node);
    } else {
      // children pushed last-first so that they are visited in octant order
      const std::uint32_t c0 = nd.first_child[node];
      for (std::uint32_t c = c0 + nd.child_count[node]; c-- > c0;)
        s.stack.push_back(c);
    }
  }
}

template <typename T>
std::size_t Octree<T>::gather(const T* x, const T* y, const T* z, const T* m, bool quadrupole,
                              Scratch& s) const {
  const Nodes& nd = nodes_;
  // the cells, padded to whole lanes with massless copies of the first
  const std::size_t nc = s.cells.size();
  const std::size_t ncp = padded<T>(nc);
  for (std::vector<T>* v :
       {&s.cx, &s.cy, &s.cz, &s.cm, &s.qxx, &s.qyy, &s.qzz, &s.qxy, &s.qxz, &s.qyz})
    if (v->size() < ncp) v->resize(ncp);
  for (std::size_t k = 0; k < ncp; ++k) {
    const std::uint32_t c = s.cells[k < nc ? k : 0];
    const bool real = k < nc;
    s.cx[k] = cx_[c];
    s.cy[k] = cy_[c];
    s.cz[k] = cz_[c];
    s.cm[k] = real ? cm_[c] : T(0);
    if (!quadrupole) continue;
    s.qxx[k] = real ? qxx_[c] : T(0);
    s.qyy[k] = real ? qyy_[c] : T(0);
    s.qzz[k] = real ? qzz_[c] : T(0);
    s.qxy[k] = real ? qxy_[c] : T(0);
    s.qxz[k] = real ? qxz_[c] : T(0);
    s.qyz[k] = real ? qyz_[c] : T(0);
  }
  // the bodies of the opened leaves that have mass (massless ones are not sources)
  std::size_t nb = 0;
  for (const std::uint32_t leaf : s.leaves)
    nb += nd.count[leaf];
  const std::size_t nbp = padded<T>(nb);
  for (std::vector<T>* v : {&s.bx, &s.by, &s.bz, &s.bm})
    if (v->size() < nbp) v->resize(nbp);
  std::size_t k = 0;
  for (const std::uint32_t leaf : s.leaves) {
    const std::uint32_t b = nd.begin[leaf], e = b + nd.count[leaf];
    for (std::uint32_t j = b; j < e; ++j) {
      if (!(m[j] > T(0))) continue;
      s.bx[k] = x[j];
      s.by[k] = y[j];
      s.bz[k] = z[j];
      s.bm[k] = m[j];
      ++k;
    }
  }
  nb = k;
  for (; k < padded<T>(nb); ++k) {
    s.bx[k] = s.bx[0];
    s.by[k] = s.by[0];
    s.bz[k] = s.bz[0];
    s.bm[k] = T(0);
  }
  return nb;
}

template <typename T>
TraversalWork Octree<T>::accelerations(const T* x, const T* y, const T* z, const T* m, T G, T eps2,
                                       int group_size, bool quadrupole, T* ax, T* ay, T* az,
                                       int threads) {
  threads = std::max(1, threads);
  group_size = std::max(1, group_size);
  TraversalWork work;
  const std::size_t n = keys_.size();
  if (n == 0) return work;
  if (scratch_.size() < static_cast<std::size_t>(threads)) scratch_.resize(threads);
  const long groups = static_cast<long>((n + group_size - 1) / group_size);
  std::uint64_t cell_work = 0, body_work = 0, pre_work = 0;
  const EvaluateFn<T, true> eval_quad = evaluate_group<T, true>();
  const EvaluateFn<T, false> eval_mono = evaluate_group<T, false>();
  const T alpha = static_cast<T>(alpha_);

#pragma omp parallel num_threads(threads) reduction(+ : cell_work, body_work, pre_work)
  {
    Scratch& s = scratch_[omp_get_thread_num()];
#pragma omp for schedule(dynamic, 1)
    for (long gi = 0; gi < groups; ++gi) {
      GroupBox g;
      g.g0 = static_cast<std::uint32_t>(gi * group_size);
      g.g1 = static_cast<std::uint32_t>(std::min<std::size_t>(n, g.g0 + group_size));
      const std::uint32_t g0 = g.g0, g1 = g.g1;

      // the group's bounding box
      g.lox = g.hix = x[g0];
      g.loy = g.hiy = y[g0];
      g.loz = g.hiz = z[g0];
      for (std::uint32_t i = g0 + 1; i < g1; ++i) {
        g.lox = std::min(g.lox, x[i]);
        g.loy = std::min(g.loy, y[i]);
        g.loz = std::min(g.loz, z[i]);
        g.hix = std::max(g.hix, x[i]);
        g.hiy = std::max(g.hiy, y[i]);
        g.hiz = std::max(g.hiz, z[i]);
      }

      // the relative opening: a first, crude walk with monopoles (its accelerations, without G,
      // land in ax..az and are overwritten below) gives the weakest pull |a|min on the group
      T factor = T(0);
      if (relative_) {
        walk(g, pre_scale_, false, T(0), s);
        const std::size_t pb = gather(x, y, z, m, false, s);
        eval_mono(list_view<T>(s, pb), x, y, z, g0, g1, T(1), eps2, ax, ay, az);
        T amin = std::numeric_limits<T>::infinity();
        for (std::uint32_t i = g0; i < g1; ++i)
          amin = std::min(amin, std::sqrt(ax[i] * ax[i] + ay[i] * ay[i] + az[i] * az[i]));
        factor = relative_group_factor<T>(alpha, amin);
        pre_work += static_cast<std::uint64_t>(g1 - g0) * (s.cells.size() + pb);
      }

      // the walk, its lists in contiguous arrays padded to whole lanes, and the sums of every
      // body of the group over both lists
      walk(g, T(1), relative_, factor, s);
      const std::size_t nb = gather(x, y, z, m, quadrupole, s);
      const std::size_t nc = s.cells.size();
      const ListView<T> view = list_view<T>(s, nb);
      if (quadrupole)
        eval_quad(view, x, y, z, g0, g1, G, eps2, ax, ay, az);
      else
        eval_mono(view, x, y, z, g0, g1, G, eps2, ax, ay, az);
      cell_work += static_cast<std::uint64_t>(g1 - g0) * nc;
      body_work += static_cast<std::uint64_t>(g1 - g0) * nb;
    }
  }
  work.cells = static_cast<double>(cell_work);
  work.bodies = static_cast<double>(body_work);
  work.interactions = work.cells + work.bodies;
  work.pre = static_cast<double>(pre_work);
  return work;
}

template class Octree<float>;
template class Octree<double>;

}  // namespace nbody::tree
