#pragma once
// The Barnes-Hut GPU kernel's cell moments (mass, centre, quadrupole, opening radius) and its
// target groups (cuts, slices, costs).
// Included once, by sim/cuda/barnes_hut.cu, inside its anonymous namespace: the types and
// constants it uses (u32, kBlock, Nodes, ...) are that file's.

// ---------------------------------------------------------------- moments

// multipoles of the level [lb, lb + m), accumulated in double:
// A = (com, r_crit^2), M = (mass, Qxx, Qyy, Qzz), Q = (Qxy, Qxz, Qyz, 0)
template <typename T>
__global__ void __launch_bounds__(kBlock)
    moments_kernel(const Vec4<T>* __restrict__ pos, Nodes t, u32 lb, u32 m,
                   const tree::Cube* __restrict__ cube, double theta, Vec4<T>* __restrict__ A,
                   Vec4<T>* __restrict__ M, Vec4<T>* __restrict__ Q) {
  const u32 i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= m) return;
  const u32 node = lb + i, k = t.nchild[node];
  const u32 b = k ? t.first[node] : t.begin[node], e = b + (k ? k : t.count[node]);
  // mass and centre of mass
  double mass = 0, sx = 0, sy = 0, sz = 0;
  for (u32 j = b; j < e; ++j) {
    double mj, xj, yj, zj;
    if (k) {
      mj = M[j].x, xj = A[j].x, yj = A[j].y, zj = A[j].z;
    } else {
      const Vec4<T> p = pos[j];
      mj = p.w, xj = p.x, yj = p.y, zj = p.z;
    }
    mass += mj;
    sx += mj * xj;
    sy += mj * yj;
    sz += mj * zj;
  }
  double cx, cy, cz, side;
  tree::cell_geometry(t.prefix[node], static_cast<int>(t.level[node]), *cube, cx, cy, cz, side);
  tree::Multipole<double> q{mass, cx, cy, cz, 0, 0, 0, 0, 0, 0};
  if (mass > 0) {
    q.x = sx / mass;
    q.y = sy / mass;
    q.z = sz / mass;
  }
  // quadrupole about the centre of mass (children: their own plus the parallel-axis term)
  for (u32 j = b; j < e; ++j) {
    if (k) {
      const Vec4<T> a = A[j], mm = M[j], qq = Q[j];
      q.qxx += mm.y;
      q.qyy += mm.z;
      q.qzz += mm.w;
      q.qxy += qq.x;
      q.qxz += qq.y;
      q.qyz += qq.z;
      tree::add_point_quadrupole(q, double(mm.x), a.x - q.x, a.y - q.y, a.z - q.z);
    } else {
      const Vec4<T> p = pos[j];
      tree::add_point_quadrupole(q, double(p.w), p.x - q.x, p.y - q.y, p.z - q.z);
    }
  }
  double r2 = tree::opening_radius2(side, theta, q.x, q.y, q.z, cx, cy, cz);
  if (!(mass > 0)) {
    // massless bodies pull on nothing: a cell without mass is accepted by every group (its
    // subtree is never opened) and sits far away, so its pull is exactly 0
    q.x = q.y = q.z = 1e30;
    r2 = -1;
  }
  A[node] = make_vec4<T>(T(q.x), T(q.y), T(q.z), T(r2));
  M[node] = make_vec4<T>(T(q.m), T(q.qxx), T(q.qyy), T(q.qzz));
  Q[node] = make_vec4<T>(T(q.qxy), T(q.qxz), T(q.qyz), T(0));
}

// ---------------------------------------------------------------- groups

// Groups: runs of consecutive sorted bodies, at most gs long, that lie in one cell or in
// siblings of one cell, so that their boxes stay compact (plain runs of gs bodies straddle the
// Z-curve's jumps). A node with more than gs bodies packs its children of at most gs bodies,
// in octant order, greedily into groups (a child with more than gs breaks the run; it packs its
// own children); a leaf with more than gs bodies (level 21) is cut into runs of gs; a root of
// at most gs bodies is one group. f(begin, count) for each group of the node, in order.
template <typename F>
__device__ u32 for_each_group(const Nodes& t, u32 node, u32 gs, F&& f) {
  const u32 c = t.count[node], k = t.nchild[node];
  u32 g = 0;
  if (c <= gs) {
    if (node == 0) {
      f(t.begin[0], c);
      g = 1;
    }
    return g;
  }
  if (k == 0) {
    for (u32 b = 0; b < c; b += gs, ++g)
      f(t.begin[node] + b, min(gs, c - b));
    return g;
  }
  u32 run_begin = 0, run = 0;
  for (u32 ch = t.first[node]; ch < t.first[node] + k; ++ch) {
    const u32 cc = t.count[ch];
    if (cc > gs || run + cc > gs) {
      if (run) f(run_begin, run), ++g;
      run = 0;
    }
    if (cc > gs) continue;
    if (run == 0) run_begin = t.begin[ch];
    run += cc;
  }
  if (run) f(run_begin, run), ++g;
  return g;
}

__global__ void __launch_bounds__(kBlock)
    count_groups_kernel(Nodes t, u32 nodes, u32 gs, u32* __restrict__ ngroups) {
  const u32 i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nodes) return;
  ngroups[i] = for_each_group(t, i, gs, [](u32, u32) {});
}

__global__ void __launch_bounds__(kBlock)
    write_groups_kernel(Nodes t, u32 nodes, u32 gs, const u32* __restrict__ ngroups,
                        const u32* __restrict__ incl, uint2* __restrict__ groups) {
  const u32 i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= nodes || ngroups[i] == 0) return;
  u32 g = incl[i] - ngroups[i];
  for_each_group(t, i, gs, [&](u32 b, u32 c) { groups[g++] = make_uint2(b, c); });
}

// several GPUs: the groups in body order (key = begin << 32 | count), so that a slice of
// sorted bodies is a range of groups
__global__ void __launch_bounds__(kBlock)
    pack_groups_kernel(const uint2* __restrict__ groups, u32 n, u64* __restrict__ keys) {
  const u32 i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  keys[i] = (static_cast<u64>(groups[i].x) << 32) | groups[i].y;
}

__global__ void __launch_bounds__(kBlock)
    unpack_groups_kernel(const u64* __restrict__ keys, u32 n, uint2* __restrict__ groups) {
  const u32 i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  groups[i] = make_uint2(static_cast<u32>(keys[i] >> 32), static_cast<u32>(keys[i]));
}

// each requested cut (a body index) moves to the first group starting at or after it: gidx gets
// the group, cut the group's first body (n past the last group)
__global__ void snap_cuts_kernel(const uint2* __restrict__ groups, u32 ngroups, u32 n,
                                 u32* __restrict__ cut, u32* __restrict__ gidx, int m) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= m) return;
  u32 lo = 0, hi = ngroups;
  while (lo < hi) {
    const u32 mid = lo + (hi - lo) / 2;
    if (groups[mid].x < cut[k])
      lo = mid + 1;
    else
      hi = mid;
  }
  gidx[k] = lo;
  cut[k] = lo < ngroups ? groups[lo].x : n;
}

// the work of this part's groups into kBins bins of equal body count over its slice
__global__ void __launch_bounds__(kBlock)
    cost_bins_kernel(const uint2* __restrict__ groups, const ull* __restrict__ work, u32 ngroups,
                     u32 first, u32 count, int bins, ull* __restrict__ out) {
  const u32 g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= ngroups) return;
  const u64 b = (static_cast<u64>(groups[g].x - first) * bins) / max(count, 1u);
  atomicAdd(&out[min(b, static_cast<u64>(bins - 1))], work[g]);
}
