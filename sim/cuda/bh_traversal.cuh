#pragma once
// The Barnes-Hut GPU kernel's traversal: per warp, a queue of cells and bodies; monopole and
// quadrupole interactions in float or double.
// Included once, by sim/cuda/barnes_hut.cu, inside its anonymous namespace: the types and
// constants it uses (u32, kBlock, Nodes, ...) are that file's.

// ---------------------------------------------------------------- traversal

// the per-warp shared memory: pending cells, bodies and far cells, and the staged sources
template <typename T>
struct WarpLists {
  u32 cells[64];
  u32 bodies[64];
  u32 far[64];
  Vec4<T> stage[3][32];
};

// the tree as the traversal reads it: `trees` trees (a forest on several GPUs, at most 32), the
// root of tree k at node k * root_stride
template <typename T>
struct TreeView {
  const u32 *begin, *count, *first, *nchild;
  const Vec4<T>*A, *M, *Q;
  u32 trees, root_stride;
};

// The relative opening (alpha > 0, tree::relative_opening_size): a first pass (pre > 0:
// monopoles, every node's opening radius^2 times pre) writes each group's |a|min (without G) to
// amin; the second accepts a cell only where it also lies beyond s[node] * the group's factor or
// beyond its opening radius^2 times strict (tree::relative_strict_scale). s null: the geometric
// test alone (pre 0).
template <typename T>
struct Relative {
  const T* s;
  T* amin;  // per group of the launch's list
  T pre;
  T alpha;
  T strict;
  T far_alpha;  // far cells (local_theta > 0): expand only where M r^3 / D^5 < far_alpha |a|min
};

// Several GPUs of one process: the other GPUs' acceleration arrays (Slicing::mirrors), into
// which each group's accelerations go as well (peer writes over NVLink while the walk goes on,
// instead of an exchange after it)
constexpr int kMaxMirrors = 7;
template <typename T>
struct Mirrors {
  Vec4<T>* acc[kMaxMirrors];
  int n;
};

// Several GPUs: this GPU's row of the work bins (DeviceStore::cost_bins()), which the final pass
// fills as it goes: each group's work into the bin of its first body (bins of equal body count
// over the slice [first, first + count)), one global add a group spread over the walk. Null row:
// none (one GPU, the relative opening's first pass).
struct CostBins {
  ull* row;
  u32 first, count;
  int bins;
  // the work of the group whose first body is i0 (one lane)
  __device__ __forceinline__ void add(u32 i0, ull wk) const {
    if (!row) return;
    const u64 b = static_cast<u64>(i0 - first) * bins / max(count, 1u);
    atomicAdd(&row[min(b, static_cast<u64>(bins - 1))], wk);
  }
};

__device__ __forceinline__ u32 lanemask_lt() {
  u32 m;
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(m));
  return m;
}

__device__ __forceinline__ u32 warp_inclusive_scan(u32 v, int lane) {
#pragma unroll
  for (int o = 1; o < 32; o <<= 1) {
    const u32 t = __shfl_up_sync(kFull, v, o);
    if (lane >= o) v += t;
  }
  return v;
}

// the warp's PER bodies per lane and their accumulators
template <typename T, int PER>
struct Targets {
  T x[PER], y[PER], z[PER], ax[PER], ay[PER], az[PER];
};

// the pull of the k staged cells on the first NP bodies of each lane; with SPLIT lanes per body
// a lane takes the staged entries j0, j0 + SPLIT, ...
template <typename T, int PER, int NP, int SPLIT, bool Quad>
__device__ __forceinline__ void cell_loop(const WarpLists<T>& w, int k, int j0, Targets<T, PER>& g,
                                          T eps2) {
#pragma unroll 8
  for (int j = j0; j < k; j += SPLIT) {
    const Vec4<T> s0 = w.stage[0][j];
    tree::Multipole<T> mp{s0.w, s0.x, s0.y, s0.z, T(0), T(0), T(0), T(0), T(0), T(0)};
    if constexpr (Quad) {
      const Vec4<T> s1 = w.stage[1][j], s2 = w.stage[2][j];
      mp.qxx = s1.x, mp.qyy = s1.y, mp.qzz = s1.z, mp.qxy = s1.w, mp.qxz = s2.x, mp.qyz = s2.y;
    }
#pragma unroll
    for (int p = 0; p < NP; ++p)
      tree::cell_interact<T, Quad>(g.x[p], g.y[p], g.z[p], mp, eps2, g.ax[p], g.ay[p], g.az[p]);
  }
}

// evaluates the first k (<= 32) pending cells on the warp's bodies (only the first body of
// each lane when the group has at most 32: `both` is false, the same on every lane); j0: the
// lane's first entry (its sub-lane when SPLIT lanes share a body)
template <typename T, int PER, int SPLIT, bool Quad>
__device__ __forceinline__ void eval_cells(WarpLists<T>& w, int k, int lane, int j0,
                                           const TreeView<T>& tv, Targets<T, PER>& g, T eps2,
                                           bool both) {
  if (lane < k) {
    const u32 c = w.cells[lane];
    const Vec4<T> a = tv.A[c], mm = tv.M[c];
    w.stage[0][lane] = make_vec4<T>(a.x, a.y, a.z, mm.x);
    if constexpr (Quad) {
      const Vec4<T> qq = tv.Q[c];
      w.stage[1][lane] = make_vec4<T>(mm.y, mm.z, mm.w, qq.x);
      w.stage[2][lane] = make_vec4<T>(qq.y, qq.z, T(0), T(0));
    }
  }
  __syncwarp();
  if (PER == 1 || both)
    cell_loop<T, PER, PER, SPLIT, Quad>(w, k, j0, g, eps2);
  else
    cell_loop<T, PER, 1, SPLIT, Quad>(w, k, j0, g, eps2);
  __syncwarp();
}

// the pull of the k staged bodies on the first NP bodies of each lane (entries as cell_loop's)
template <typename T, int PER, int NP, int SPLIT, bool Guard>
__device__ __forceinline__ void body_loop(const WarpLists<T>& w, int k, int j0, Targets<T, PER>& g,
                                          T eps2) {
#pragma unroll 8
  for (int j = j0; j < k; j += SPLIT) {
    const Vec4<T> s = w.stage[0][j];
#pragma unroll
    for (int p = 0; p < NP; ++p)
      interact<T, Guard>(g.x[p], g.y[p], g.z[p], s, eps2, g.ax[p], g.ay[p], g.az[p]);
  }
}

// evaluates the first k (<= 32) pending bodies on the warp's bodies (see eval_cells)
template <typename T, int PER, int SPLIT, bool Guard>
__device__ __forceinline__ void eval_bodies(WarpLists<T>& w, int k, int lane, int j0,
                                            const Vec4<T>* __restrict__ pos, Targets<T, PER>& g,
                                            T eps2, bool both) {
  if (lane < k) w.stage[0][lane] = pos[w.bodies[lane]];
  __syncwarp();
  if (PER == 1 || both)
    body_loop<T, PER, PER, SPLIT, Guard>(w, k, j0, g, eps2);
  else
    body_loop<T, PER, 1, SPLIT, Guard>(w, k, j0, g, eps2);
  __syncwarp();
}

// the bodies of a group (lane `slot` holds bodies slot, 32 + slot, ...; past the group's end
// copies of the first) and the group's bounding box, on every lane
template <typename T, int PER>
__device__ __forceinline__ void load_group(const Vec4<T>* __restrict__ pos, int i0, int gn,
                                           int slot, Targets<T, PER>& g, T lo[3], T hi[3]) {
  const Vec4<T> p0 = pos[i0];
  lo[0] = hi[0] = p0.x, lo[1] = hi[1] = p0.y, lo[2] = hi[2] = p0.z;
#pragma unroll
  for (int p = 0; p < PER; ++p) {
    const int i = p * 32 + slot;
    const Vec4<T> b = i < gn ? pos[i0 + i] : p0;
    g.x[p] = b.x, g.y[p] = b.y, g.z[p] = b.z;
    g.ax[p] = g.ay[p] = g.az[p] = T(0);
    lo[0] = fmin(lo[0], b.x), lo[1] = fmin(lo[1], b.y), lo[2] = fmin(lo[2], b.z);
    hi[0] = fmax(hi[0], b.x), hi[1] = fmax(hi[1], b.y), hi[2] = fmax(hi[2], b.z);
  }
#pragma unroll
  for (int a = 0; a < 3; ++a)
    for (int o = 16; o > 0; o >>= 1) {
      lo[a] = fmin(lo[a], __shfl_xor_sync(kFull, lo[a], o));
      hi[a] = fmax(hi[a], __shfl_xor_sync(kFull, hi[a], o));
    }
}

// a group as far cells see it: its box's centre, radius^2 and radius^3, and (the relative
// opening) far_alpha times its weakest pull (< 0: no relative test)
template <typename T>
struct FarGroup {
  T cx = T(0), cy = T(0), cz = T(0), rg2 = T(0), rg3 = T(0), frel = T(-1);
};

template <typename T>
__device__ __forceinline__ FarGroup<T> far_group(const T lo[3], const T hi[3], T frel) {
  FarGroup<T> f;
  f.cx = T(0.5) * (lo[0] + hi[0]), f.cy = T(0.5) * (lo[1] + hi[1]), f.cz = T(0.5) * (lo[2] + hi[2]);
  const T hx = T(0.5) * (hi[0] - lo[0]), hy = T(0.5) * (hi[1] - lo[1]),
          hz = T(0.5) * (hi[2] - lo[2]);
  f.rg2 = hx * hx + hy * hy + hz * hz;
  f.rg3 = f.rg2 * sqrt(f.rg2);
  f.frel = frel;
  return f;
}

// whether an accepted cell (a: its centre of mass) acts through the group's expansion: farther
// from the centre than the radius / local_theta (far2 = local_theta^2) and, with the relative
// opening, where the expansion's error bound M r^3 / D^5 is below far_alpha |a|min
template <typename T>
__device__ __forceinline__ bool is_far(const FarGroup<T>& f, const Vec4<T>& a, u32 node,
                                       const TreeView<T>& tv, T far2) {
  const T dx = a.x - f.cx, dy = a.y - f.cy, dz = a.z - f.cz;
  const T dd = dx * dx + dy * dy + dz * dz;
  if (!(dd * far2 > f.rg2)) return false;
  return f.frel < T(0) || dd * dd * sqrt(dd) * f.frel > tv.M[node].x * f.rg3;
}

// the sum over the warp's lanes of v[0..n), on every lane (xor butterfly: each pair adds the
// same two values, so every lane gets the same bits, and so does every run)
template <typename T, int N>
__device__ __forceinline__ void warp_sum(T (&v)[N]) {
#pragma unroll
  for (int i = 0; i < N; ++i)
#pragma unroll
    for (int o = 16; o > 0; o >>= 1)
      v[i] += __shfl_xor_sync(kFull, v[i], o);
}

// evaluates the first k (<= 32) pending far cells through one local expansion about the
// group's centre (cx, cy, cz) (barnes-hut's local_theta, tree::far_field_add): lane l expands
// cell l, the warp sums the expansions, and each body adds their field at its offset from the
// centre (of lanes that share a body, the first: finish_group adds theirs up)
template <typename T, int PER, int SPLIT>
__device__ __forceinline__ void eval_far(const WarpLists<T>& w, int k, int lane, int j0,
                                         const TreeView<T>& tv, Targets<T, PER>& g, T eps2,
                                         const FarGroup<T>& fg, bool both) {
  const T cx = fg.cx, cy = fg.cy, cz = fg.cz;
  tree::Taylor<T> t{};  // zero: lanes past k add nothing to the sums
  if (lane < k) {
    const u32 c = w.far[lane];
    const Vec4<T> a = tv.A[c], mm = tv.M[c], qq = tv.Q[c];
    const tree::Multipole<T> mp{mm.x, a.x, a.y, a.z, mm.y, mm.z, mm.w, qq.x, qq.y, qq.z};
    tree::far_field_add<T, true>(cx, cy, cz, mp, eps2, t);
  }
  warp_sum(t.c0);
  warp_sum(t.c1);
  warp_sum(t.c2);
  __syncwarp();
  if (j0 != 0) return;
#pragma unroll
  for (int p = 0; p < PER; ++p)
    if (p == 0 || both) {
      T f[3];
      tree::taylor_at(t, g.x[p] - cx, g.y[p] - cy, g.z[p] - cz, f);
      g.ax[p] += f[0], g.ay[p] += f[1], g.az[p] += f[2];
    }
}

// moves entries [32, k) of a pending list to its front
__device__ __forceinline__ void shift_down(u32* list, int k, int lane) {
  const u32 v = lane + 32 < k ? list[lane + 32] : 0;
  __syncwarp();
  if (lane + 32 < k) list[lane] = v;
  __syncwarp();
}

// the end of a group's walk: lanes that share a body add their sums; then the accelerations
// (times G) into acc, or on the relative opening's first pass the group's weakest pull (no G)
template <typename T, int PER, int SPLIT>
__device__ __forceinline__ void finish_group(Targets<T, PER>& g, int gn, int lane, int slot, int j0,
                                             int grp, Vec4<T>* __restrict__ acc, T G, bool pre,
                                             T* __restrict__ amin, const Mirrors<T>& mir, int i0) {
  constexpr int kSpan = 32 / SPLIT;
  if constexpr (SPLIT > 1) {
#pragma unroll
    for (int o = kSpan; o < 32; o <<= 1) {
      g.ax[0] += __shfl_xor_sync(kFull, g.ax[0], o);
      g.ay[0] += __shfl_xor_sync(kFull, g.ay[0], o);
      g.az[0] += __shfl_xor_sync(kFull, g.az[0], o);
    }
  }
  if (pre) {
    T m2 = T(1e30);
#pragma unroll
    for (int p = 0; p < PER; ++p)
      if (p * 32 + slot < gn)
        m2 = fmin(m2, g.ax[p] * g.ax[p] + g.ay[p] * g.ay[p] + g.az[p] * g.az[p]);
    for (int o = 16; o > 0; o >>= 1)
      m2 = fmin(m2, __shfl_xor_sync(kFull, m2, o));
    if (lane == 0) amin[grp] = sqrt(m2);
    return;
  }
#pragma unroll
  for (int p = 0; p < PER; ++p) {
    const int i = p * 32 + slot;
    if (j0 == 0 && i < gn) {
      const Vec4<T> a = make_vec4<T>(G * g.ax[p], G * g.ay[p], G * g.az[p], T(0));
      acc[i0 + i] = a;
#pragma unroll
      for (int m = 0; m < kMaxMirrors; ++m)
        if (m < mir.n) mir.acc[m][i0 + i] = a;
    }
  }
}

// the next group of a warp's walks and its entry in the list (false: none left); with Big > 0 in
// two passes over the list: the groups of more than Big bodies, then the others
template <u32 Big>
__device__ __forceinline__ bool next_group(u32* __restrict__ counter, int groups,
                                           const uint2* __restrict__ list, int lane, int& grp,
                                           uint2& gr) {
  constexpr int passes = Big > 0 ? 2 : 1;
  for (;;) {
    int h = 0;
    if (lane == 0) h = static_cast<int>(atomicAdd(counter, 1u));
    h = __shfl_sync(kFull, h, 0);
    if (h >= passes * groups) return false;
    grp = h < groups ? h : h - groups;
    gr = list[grp];
    if (passes == 1 || (gr.y > Big) == (h < groups)) return true;
  }
}

// One warp per group of at most 32 * PER / SPLIT consecutive sorted bodies (groups taken from a
// counter by resident warps; how many: *ngroups as the build wrote it). Groups of more than 32
// bodies (PER = 2: two a lane) take twice the evaluations of the others: they are handed out
// first, in a first pass over the list, so that the kernel's last walks are short (bitwise the
// same forces; whole steps 0.1-2.4 % faster on one H100, 0.3-4.3 % on two: docs/PERFORMANCE.md,
// "the big groups first").
// Far (barnes-hut's local_theta, with the quadrupole): an accepted cell whose centre of mass lies
// farther from the group's centre than the group's radius / local_theta acts through one local
// expansion for the whole group (eval_far) instead of on each body; far2 = local_theta^2. With
// SPLIT > 1 (small groups, PER = 1) SPLIT lanes hold each body and share its lists: lane l takes
// body l mod (32 / SPLIT) and every SPLIT-th entry; their sums meet by shuffles at the end (in a
// fixed order). Breadth-first
// walk: a node is accepted as a cell when its centre of mass is farther than r_crit from the
// group's box; an opened leaf gives its bodies; an opened internal node queues its children (if the
// warp's queue is full, its bodies instead: exact, only slower).
template <typename T, int PER, int SPLIT, bool Quad, bool Guard, bool Far>
__device__ __forceinline__ void traverse_groups(
    const Vec4<T>* __restrict__ pos, Vec4<T>* __restrict__ acc, TreeView<T> tv,
    const uint2* __restrict__ group_list, u32* __restrict__ queues, u32 qcap,
    u32* __restrict__ counter, ull* __restrict__ work, ull* __restrict__ work_acc,
    const u32* __restrict__ ngroups, T eps2, T G, Relative<T> rel, T far2, const Mirrors<T>& mir,
    const CostBins& bins) {
  static_assert(!Far || Quad, "far cells expand with their quadrupoles");
  const bool pre = rel.pre > T(0);
  const int groups = static_cast<int>(*ngroups);
  extern __shared__ __align__(32) unsigned char smem[];
  static_assert(SPLIT == 1 || PER == 1, "split lanes hold one body each");
  constexpr int kSpan = 32 / SPLIT;  // bodies a warp holds per PER
  const int lane = threadIdx.x & 31, wib = threadIdx.x >> 5;
  const int slot = lane % kSpan, j0 = lane / kSpan;  // the lane's body and first list entry
  WarpLists<T>& w = reinterpret_cast<WarpLists<T>*>(smem)[wib];
  u32* q = queues + (static_cast<std::size_t>(blockIdx.x) * (blockDim.x >> 5) + wib) * qcap;
  const u32 mask = qcap - 1;
  const u32 lt = lanemask_lt();
  int grp = 0;
  uint2 gr;
  constexpr u32 kBig = PER == 2 ? 32u : 0u;  // (PER 1: every group costs alike, one pass)
  while (next_group<kBig>(counter, groups, group_list, lane, grp, gr)) {
    const int i0 = static_cast<int>(gr.x), gn = static_cast<int>(gr.y);
    const bool both = gn > 32;  // a lane's second body is real

    // the group's bodies and box; for far cells its centre and radius
    Targets<T, PER> g;
    T lo[3], hi[3];
    load_group<T, PER>(pos, i0, gn, slot, g, lo, hi);
    FarGroup<T> fg;
    if constexpr (Far)
      fg = far_group<T>(lo, hi, rel.s && !pre ? rel.far_alpha * rel.amin[grp] : T(-1));

    // the relative opening's factor of this group; the first pass's looser radii
    const T f = rel.s && !pre ? tree::relative_group_factor(rel.alpha, rel.amin[grp]) : T(0);
    const T rscale = pre ? rel.pre : T(1);

    // breadth-first walk from the roots
    if (static_cast<u32>(lane) < tv.trees) q[lane] = static_cast<u32>(lane) * tv.root_stride;
    __syncwarp();
    u32 head = 0, tail = tv.trees;
    int ncell = 0, nbody = 0, nfar = 0;
    ull cells = 0, bodies = 0, fars = 0;
    while (head < tail) {
      const u32 take = min(32u, tail - head);
      const bool valid = static_cast<u32>(lane) < take;
      const u32 node = valid ? q[(head + lane) & mask] : 0;
      head += take;
      bool accept = false, open = false, leaf = false, far = false;
      u32 k = 0;
      if (valid) {
        const Vec4<T> a = tv.A[node];
        const T d2 =
            tree::box_distance2<T>(a.x, a.y, a.z, lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]);
        accept = d2 > a.w * rscale;
        if (accept && f > T(0)) accept = d2 > rel.s[node] * f || d2 > a.w * rel.strict;
        if constexpr (Far) far = accept && !pre && is_far(fg, a, node, tv, far2);
        if (!accept) {
          k = tv.nchild[node];
          open = k > 0;
          leaf = k == 0;
        }
      }
      // queue the children of opened nodes while there is room, else take their bodies
      const u32 kin = open ? k : 0;
      const u32 incl = warp_inclusive_scan(kin, lane);
      const u32 room = qcap - (tail - head);
      if (open && incl > room) {
        open = false;
        leaf = true;
      }
      __syncwarp();
      if (open) {
        const u32 c0 = tv.first[node];
        for (u32 c = 0; c < k; ++c)
          q[(tail + incl - k + c) & mask] = c0 + c;
      }
      tail += __reduce_add_sync(kFull, open ? k : 0u);
      __syncwarp();

      // far cells into the far list, the other accepted ones into the cell list
      if constexpr (Far) {
        const u32 fb = __ballot_sync(kFull, far);
        if (far) {
          w.far[nfar + __popc(fb & lt)] = node;
          accept = false;
        }
        nfar += __popc(fb);
        fars += __popc(fb);
        __syncwarp();
        if (nfar >= 32) {
          eval_far<T, PER, SPLIT>(w, 32, lane, j0, tv, g, eps2, fg, both);
          shift_down(w.far, nfar, lane);
          nfar -= 32;
        }
      }
      const u32 ballot = __ballot_sync(kFull, accept);
      if (accept) w.cells[ncell + __popc(ballot & lt)] = node;
      ncell += __popc(ballot);
      cells += __popc(ballot);
      __syncwarp();
      if (ncell >= 32) {
        eval_cells<T, PER, SPLIT, Quad>(w, 32, lane, j0, tv, g, eps2, both);
        shift_down(w.cells, ncell, lane);
        ncell -= 32;
      }

      // bodies of opened leaves into the body list, 32 at a time
      const u32 lb = leaf ? tv.begin[node] : 0, lc = leaf ? tv.count[node] : 0;
      const u32 lincl = warp_inclusive_scan(lc, lane);
      const u32 total = __shfl_sync(kFull, lincl, 31);
      bodies += total;
      for (u32 base = 0; base < total; base += 32) {
        // lane s takes entry base + s of the leaves' bodies: r = the lane whose leaf holds it
        const u32 entry = base + lane;
        int r = 0;
#pragma unroll
        for (int step = 16; step > 0; step >>= 1) {
          const u32 v = __shfl_sync(kFull, lincl, r + step - 1);
          if (v <= entry) r += step;
        }
        const u32 rb = __shfl_sync(kFull, lb, r), rc = __shfl_sync(kFull, lc, r),
                  ri = __shfl_sync(kFull, lincl, r);
        const int got = static_cast<int>(min(32u, total - base));
        if (lane < got) w.bodies[nbody + lane] = rb + entry - (ri - rc);
        nbody += got;
        __syncwarp();
        if (nbody >= 32) {
          eval_bodies<T, PER, SPLIT, Guard>(w, 32, lane, j0, pos, g, eps2, both);
          shift_down(w.bodies, nbody, lane);
          nbody -= 32;
        }
      }
    }
    if (ncell > 0) eval_cells<T, PER, SPLIT, Quad>(w, ncell, lane, j0, tv, g, eps2, both);
    if (nbody > 0) eval_bodies<T, PER, SPLIT, Guard>(w, nbody, lane, j0, pos, g, eps2, both);
    if constexpr (Far)
      if (nfar > 0) eval_far<T, PER, SPLIT>(w, nfar, lane, j0, tv, g, eps2, fg, both);
    finish_group<T, PER, SPLIT>(g, gn, lane, slot, j0, grp, acc, G, pre, rel.amin, mir, i0);
    if (lane == 0) {
      // a far cell's expansion costs a warp about what 12 of its bodies' pulls do
      const ull wk = static_cast<ull>(gn) * (cells + bodies) + kFarWork * fars;
      work[grp] = wk;
      atomicAdd(work_acc, wk);  // integers: the sums do not depend on the order
      bins.add(static_cast<u32>(i0), wk);
    }
  }
}

// The traversal kernels, one per precision for their register bounds. Float: at most 72
// registers a thread (7 blocks of 128 threads an SM; blocks of up to 512, the tunable's limit,
// fit). Under __launch_bounds__(512) ptxas chose 64 with spills for the quadrupole kernel of two
// bodies a lane, and 79 unbounded (6 blocks); 72 was the fastest of 48-80 on the H200
// (docs/PERFORMANCE.md, "The traversal's registers, loops and quadrupole"). Double keeps
// __launch_bounds__(512).
// The kernels with far cells (local_theta) hold a group's expansion too: at 72 they spilled
// 24-64 bytes a thread; 96 (5 blocks of 128 an SM, the most registers at that occupancy) made
// the whole step 4-8 % faster on the H100 than 72 (80: the same as 72; 112 and 128: between;
// docs/PERFORMANCE.md, "Far cells with 96 registers").
template <int PER, int SPLIT, bool Quad, bool Guard, bool Far>
__global__ void __maxnreg__(Far ? 96 : 72)
    traverse_kernel_float(const Vec4<float>* __restrict__ pos, Vec4<float>* __restrict__ acc,
                          TreeView<float> tv, const uint2* __restrict__ group_list,
                          u32* __restrict__ queues, u32 qcap, u32* __restrict__ counter,
                          ull* __restrict__ work, ull* __restrict__ work_acc,
                          const u32* __restrict__ ngroups, float eps2, float G, Relative<float> rel,
                          float far2, Mirrors<float> mir, CostBins bins) {
  traverse_groups<float, PER, SPLIT, Quad, Guard, Far>(pos, acc, tv, group_list, queues, qcap,
                                                       counter, work, work_acc, ngroups, eps2, G,
                                                       rel, far2, mir, bins);
}
template <int PER, int SPLIT, bool Quad, bool Guard, bool Far>
__global__ void __launch_bounds__(512)
    traverse_kernel_double(const Vec4<double>* __restrict__ pos, Vec4<double>* __restrict__ acc,
                           TreeView<double> tv, const uint2* __restrict__ group_list,
                           u32* __restrict__ queues, u32 qcap, u32* __restrict__ counter,
                           ull* __restrict__ work, ull* __restrict__ work_acc,
                           const u32* __restrict__ ngroups, double eps2, double G,
                           Relative<double> rel, double far2, Mirrors<double> mir, CostBins bins) {
  traverse_groups<double, PER, SPLIT, Quad, Guard, Far>(pos, acc, tv, group_list, queues, qcap,
                                                        counter, work, work_acc, ngroups, eps2, G,
                                                        rel, far2, mir, bins);
}

// the kernel for precision T
template <typename T, int PER, int SPLIT, bool Quad, bool Guard, bool Far>
constexpr auto traverse_kernel() {
  if constexpr (std::is_same_v<T, float>)
    return traverse_kernel_float<PER, SPLIT, Quad, Guard, Far>;
  else
    return traverse_kernel_double<PER, SPLIT, Quad, Guard, Far>;
}
