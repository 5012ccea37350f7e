#pragma once
// The Barnes-Hut GPU kernel's tree build, groups and moments in one cooperative kernel: the level
// loop runs on the device (grid-wide barriers between its phases), so a force evaluation has no
// host round trip. Included once, by sim/cuda/barnes_hut.cu, inside its anonymous namespace: the
// types and functions it uses (u32, kBlock, Nodes, for_each_octant, ...) are that file's.
//
// Per level: every node counts its children (stored in nchild) and the grid scans the counts
// (each block scans its contiguous chunk, then reads the other blocks' totals); a barrier; every
// node writes its children after the level. The node arrays hold `cap` nodes: a level that would
// not fit stays a level of leaves (exact, only slower: the traversal takes a big leaf's bodies,
// the groups cut it into runs) and the host, told at the end of the step, gives the next build
// more room. Then the groups (counted and written the same way) and the moments, deepest level
// first, a barrier between levels.
//
// The tree may cover a part of the sorted bodies only, [body0, body0 + n), and sit at node
// node0 of the arrays (several GPUs: each builds the tree of its own slice into its own range of
// nodes, and the GPUs then share their trees: a forest, walked from every tree's root; with the
// geometric opening each GPU receives only the nodes its walks can reach, push_essential).
//
// A refit (refit_kernel, the `rebuild` tunable) keeps the last build's structure and computes
// the moments again from the bodies where they are now, deepest level first: no sort, no levels,
// no groups. A body may have drifted out of its node's cube since the build; each node's growth
// (how far its bodies reach beyond the cube, its children's at most) widens the cube in the
// opening radius, so the criterion still bounds the multipole's error as after a build.

// what the build tells the host, in one small device array
struct BuildMeta {
  u32 nodes;                             // nodes of the tree
  u32 levels;                            // levels (level_start has levels + 1 entries)
  u32 overflow;                          // 1: a level did not fit in cap nodes
  u32 ngroups;                           // groups of the traversal
  u32 level_start[tree::kMaxLevel + 2];  // counted from node0
};

// Several GPUs of one process whose every pair has peer access: one GPU's node arrays, as
// another GPU's build writes its own tree's nodes into them (the same slots as its own: every
// GPU's arrays hold trees x cap nodes alike), instead of a broadcast after the build.
template <typename T>
struct PeerTree {
  u32 *begin, *count, *first, *nchild;
  Vec4<T>*A, *M, *Q;
  T* S;  // null without the relative opening
};
constexpr u32 kMaxPushed = 8;  // GPUs whose builds write into each other's arrays

template <typename T>
struct BuildArgs {
  const u64* keys;
  Nodes t;
  u32 n, leaf, gs;
  u32 body0, node0;  // the tree's first body and its root's node
  u32 cap;           // nodes the tree may use from node0
  int max_level;  // deepest level: the keys are sorted down to its digit (fatter leaves stop there)
  u32* scan;      // cap: block-local inclusive sums of the chunked scans
  u32* bnd;       // 8 per node of a level: the first body of each octant
  u32* group_n;   // cap: groups of each node
  u32* block_sum;  // gridDim.x: each block's total of a scan
  BuildMeta* meta;
  uint2* groups;  // n
  const Vec4<T>* pos;
  const tree::Cube* cube;
  double theta;
  bool bmax;  // the opening radius also bounded by the bodies' extent (bmax_opening_radius2)
  Vec4<T>*A, *M, *Q;
  T* S;  // the relative opening (alpha > 0): each node's relative_opening_size, else null
  // every GPU's node arrays (parts entries, all-gathered), each node written into the others'
  // once its moments are known; null: this GPU's arrays only
  const PeerTree<T>* peers;
  u32 parts, rank;
  bool refit;  // refit_kernel: the structure kept, each node's growth in scan (float bits)
  // with peers, a build with the geometric opening alone (theta > 0): each GPU gets only the
  // nodes its walks can reach (reaches()); GPU r's slice of the sorted bodies is [cut[r],
  // cut[r + 1]), slice_box (6 a GPU: low x, y, z, high x, y, z) a box that holds it
  bool essential;
  u32 cut[kMaxPushed + 1];
  double* slice_box;
};

using BlockScanU = cub::BlockScan<u32, kBlock>;
using BlockReduceU = cub::BlockReduce<u32, kBlock>;

// this block's contiguous chunk [c0, c1) of the items [0, m) (gridDim.x chunks)
__device__ __forceinline__ void chunk_range(u32 m, u32& c0, u32& c1) {
  const u32 chunk = (m + gridDim.x - 1) / gridDim.x;
  c0 = min(m, blockIdx.x * chunk);
  c1 = min(m, c0 + chunk);
}

// items [0, m) in gridDim.x contiguous chunks: this block's value of each (v(i)) scanned into
// scan[i] (inclusive, within the chunk) and the chunk's total into block_sum[blockIdx.x]
template <typename F>
__device__ void chunk_scan(u32 m, u32* __restrict__ scan, u32* __restrict__ block_sum, F&& v) {
  __shared__ typename BlockScanU::TempStorage tmp;
  u32 b0, b1;
  chunk_range(m, b0, b1);
  u32 running = 0;
  for (u32 base = b0; base < b1; base += blockDim.x) {
    const u32 i = base + threadIdx.x;
    const u32 x = i < b1 ? v(i) : 0u;
    u32 incl = 0, all = 0;
    BlockScanU(tmp).InclusiveSum(x, incl, all);
    __syncthreads();
    if (i < b1) scan[i] = running + incl;
    running += all;
  }
  if (threadIdx.x == 0) block_sum[blockIdx.x] = running;
}

// after a barrier: the sum of the chunks before this block's and the sum of all (every thread)
__device__ void chunk_offsets(const u32* __restrict__ block_sum, u32& before, u32& total) {
  __shared__ typename BlockReduceU::TempStorage tmp;
  __shared__ u32 shared[2];
  u32 b = 0, a = 0;
  for (u32 k = threadIdx.x; k < gridDim.x; k += blockDim.x) {
    const u32 s = block_sum[k];
    a += s;
    if (k < blockIdx.x) b += s;
  }
  const u32 rb = BlockReduceU(tmp).Sum(b);
  __syncthreads();
  const u32 ra = BlockReduceU(tmp).Sum(a);
  if (threadIdx.x == 0) shared[0] = rb, shared[1] = ra;
  __syncthreads();
  before = shared[0];
  total = shared[1];
  __syncthreads();
}

// Block 0, thread r < parts (r not this GPU), before the build's first barrier: GPU r's slice as
// a box that holds its bodies, the level-21 cells of its keys' range (tree::key_range_cells; the
// keys are sorted down to max_level's digit) and a margin for bodies that rounding put a hair
// outside their cell
template <typename T>
__device__ void slice_boxes(const BuildArgs<T>& a) {
  const u32 r = threadIdx.x;
  if (blockIdx.x != 0 || r >= a.parts || r == a.rank) return;
  double* box = a.slice_box + 6 * r;
  const u32 b0 = a.cut[r], b1 = a.cut[r + 1];
  if (b1 <= b0) {  // no bodies: a box that holds none
    for (int d = 0; d < 3; ++d)
      box[d] = INFINITY, box[3 + d] = -INFINITY;
    return;
  }
  const int shift = tree::digit_shift(a.max_level);
  const u64 below = shift > 0 ? (u64(1) << shift) - 1 : 0;
  u64 lo[3], hi[3];
  tree::key_range_cells(a.keys[b0] & ~below, a.keys[b1 - 1] | below, lo, hi);
  const tree::Cube c = *a.cube;
  const double cell = c.side / double(tree::kKeyCells), o[3] = {c.x0, c.y0, c.z0};
  const double margin = 1e-3 * cell + 1e-12 * (fabs(c.x0) + fabs(c.y0) + fabs(c.z0) + c.side);
  for (int d = 0; d < 3; ++d) {
    box[d] = o[d] + double(lo[d]) * cell - margin;
    box[3 + d] = o[d] + double(hi[d] + 1) * cell + margin;
  }
}

// Whether GPU r's walks can reach node `node` (not a root): whether a group of r's slice may open
// its parent. The parent's centre of mass lies in its cell (a build: its bodies lie in their
// keys' cells) and its opening radius is at most side (1 / theta + sqrt(3) / 2) (the criterion's
// offset is at most half the cell's diagonal; bmax only shrinks it); the traversal opens it only
// where the group's box, which lies in the slice's, comes that near. A 1e-3 relative margin and
// one of 1e-5 of the cube's extent cover the rounding of the moments and the boxes into T.
template <typename T>
__device__ __forceinline__ bool reaches(const BuildArgs<T>& a, u32 node, u32 r) {
  const Nodes& t = a.t;
  const int l = static_cast<int>(t.level[node]);
  const u64 parent = t.prefix[node] & ~(u64(7) << tree::digit_shift(l));
  const tree::Cube& c = *a.cube;
  double cx, cy, cz, side;
  tree::cell_geometry(parent, l - 1, c, cx, cy, cz, side);
  const double reach = side * (1 / a.theta + 0.8660254037844387) * (1 + 1e-3) +
                       1e-5 * (fabs(c.x0) + fabs(c.y0) + fabs(c.z0) + c.side);
  const double* box = a.slice_box + 6 * r;
  const double h = 0.5 * side, ctr[3] = {cx, cy, cz};
  double d2 = 0;
  for (int d = 0; d < 3; ++d) {
    const double gap = fmax(fmax(box[d] - (ctr[d] + h), (ctr[d] - h) - box[3 + d]), 0.0);
    d2 += gap * gap;
  }
  return d2 <= reach * reach;
}

// An essential build: node `node`, whose moments are written, into the arrays of the GPUs whose
// walks can reach it (the root into all). A loop of its own after a level's moments: its
// registers are not live beside theirs (inside node_moments the build kernel took 98 registers
// instead of 78, 2 blocks an SM instead of 3, and one GPU's build was 28 % slower).
template <typename T>
__device__ void push_essential(const BuildArgs<T>& a, u32 node) {
  const Nodes& t = a.t;
  for (u32 r = 0; r < a.parts; ++r) {
    if (r == a.rank || (node != a.node0 && !reaches(a, node, r))) continue;
    const PeerTree<T> p = a.peers[r];
    p.begin[node] = t.begin[node];
    p.count[node] = t.count[node];
    p.first[node] = t.first[node];
    p.nchild[node] = t.nchild[node];
    p.A[node] = a.A[node];
    p.M[node] = a.M[node];
    p.Q[node] = a.Q[node];
    if (p.S) p.S[node] = a.S[node];
  }
}

// one node's multipoles (mass, centre, quadrupole, opening radius) from its children or bodies
template <typename T>
__device__ void node_moments(const BuildArgs<T>& a, u32 node) {
  const Nodes& t = a.t;
  const u32 k = t.nchild[node];
  const u32 b = k ? t.first[node] : t.begin[node], e = b + (k ? k : t.count[node]);
  double mass = 0, sx = 0, sy = 0, sz = 0;
  for (u32 j = b; j < e; ++j) {
    double mj, xj, yj, zj;
    if (k) {
      mj = a.M[j].x, xj = a.A[j].x, yj = a.A[j].y, zj = a.A[j].z;
    } else {
      const Vec4<T> p = a.pos[j];
      mj = p.w, xj = p.x, yj = p.y, zj = p.z;
    }
    mass += mj;
    sx += mj * xj;
    sy += mj * yj;
    sz += mj * zj;
  }
  double cx, cy, cz, side;
  tree::cell_geometry(t.prefix[node], static_cast<int>(t.level[node]), *a.cube, cx, cy, cz, side);
  // a refit: how far the node's bodies with mass reach beyond its cube (a child's cube lies in
  // its parent's, so the children's growths bound the parent's); 0 after a build
  double grow = 0;
  if (a.refit) {
    for (u32 j = b; j < e; ++j) {
      if (k) {
        grow = fmax(grow, double(__uint_as_float(a.scan[j - a.node0])));
      } else if (a.pos[j].w > T(0)) {
        const Vec4<T> p = a.pos[j];
        grow = fmax(grow, fmax(fabs(p.x - cx), fmax(fabs(p.y - cy), fabs(p.z - cz))) - 0.5 * side);
      }
    }
    a.scan[node - a.node0] = __float_as_uint(__double2float_ru(grow));
  }
  tree::Multipole<double> q{mass, cx, cy, cz, 0, 0, 0, 0, 0, 0};
  if (mass > 0) {
    q.x = sx / mass;
    q.y = sy / mass;
    q.z = sz / mass;
  }
  // quadrupole about the centre of mass (children: their own plus the parallel-axis term), and
  // with bmax or the relative opening the bodies' extent about it (through the children's;
  // massless ones pull on nothing)
  const bool ext = a.bmax || a.S;
  double extent = 0;
  const auto reach = [&q](const Vec4<T>& c, double below) {
    const double dx = c.x - q.x, dy = c.y - q.y, dz = c.z - q.z;
    return sqrt(dx * dx + dy * dy + dz * dz) + below;
  };
  for (u32 j = b; j < e; ++j) {
    if (k) {
      const Vec4<T> c = a.A[j], mm = a.M[j], qq = a.Q[j];
      q.qxx += mm.y;
      q.qyy += mm.z;
      q.qzz += mm.w;
      q.qxy += qq.x;
      q.qxz += qq.y;
      q.qyz += qq.z;
      tree::add_point_quadrupole(q, double(mm.x), c.x - q.x, c.y - q.y, c.z - q.z);
      if (ext && mm.x > 0) extent = fmax(extent, reach(c, qq.w));
    } else {
      const Vec4<T> p = a.pos[j];
      tree::add_point_quadrupole(q, double(p.w), p.x - q.x, p.y - q.y, p.z - q.z);
      if (ext) extent = fmax(extent, reach(p, 0));
    }
  }
  double r2 = tree::opening_radius2(side + 2 * grow, a.theta, q.x, q.y, q.z, cx, cy, cz);
  if (a.bmax) r2 = tree::bmax_opening_radius2(r2, extent, a.theta);
  if (!(mass > 0)) {
    // massless bodies pull on nothing: a cell without mass is accepted by every group (its
    // subtree is never opened) and sits far away, so its pull is exactly 0. Far, but with |d|^2
    // finite in float (1e30 squared overflows, and cell_interact's M r^2 is then 0 * inf = NaN)
    q.x = q.y = q.z = 1e18;
    r2 = -1;
  }
  const Vec4<T> A = make_vec4<T>(T(q.x), T(q.y), T(q.z), T(r2));
  const Vec4<T> M = make_vec4<T>(T(q.m), T(q.qxx), T(q.qyy), T(q.qzz));
  const Vec4<T> Q = make_vec4<T>(T(q.qxy), T(q.qxz), T(q.qyz), T(extent));
  const T S = T(mass > 0 ? tree::relative_opening_size(mass, extent) : 0.0);
  a.A[node] = A;
  a.M[node] = M;
  a.Q[node] = Q;
  if (a.S) a.S[node] = S;
  // the node is final now (its structure since build_levels): into the other GPUs' arrays too,
  // over NVLink while the build goes on (what the tree share broadcast after it otherwise). A
  // refit writes the structure too, which an essential build may not have sent; an essential
  // build pushes after each level instead (push_essential).
  if (a.peers && !a.essential) {
    const u32 nb = t.begin[node], nc = t.count[node], nf = t.first[node];
    for (u32 r = 0; r < a.parts; ++r) {
      if (r == a.rank) continue;
      const PeerTree<T> p = a.peers[r];
      p.begin[node] = nb;
      p.count[node] = nc;
      p.first[node] = nf;
      p.nchild[node] = k;
      p.A[node] = A;
      p.M[node] = M;
      p.Q[node] = Q;
      if (p.S) p.S[node] = S;
    }
  }
}

// one warp per node of this block's chunk [c0, c1) of the level at lb: lanes 1..7 search the
// first body of octants 1..7 at once (one binary search deep, not seven), bnd gets the 8 starts
// and nchild the non-empty octants of a node that splits (0: it stays a leaf)
template <typename T>
__device__ void count_children(const BuildArgs<T>& a, u32 lb, u32 c0, u32 c1) {
  const Nodes& t = a.t;
  const int lane = threadIdx.x & 31, warps = blockDim.x >> 5;
  for (u32 i = c0 + (threadIdx.x >> 5); i < c1; i += warps) {
    const u32 node = lb + i, b = t.begin[node], c = t.count[node], e = b + c;
    const int level = static_cast<int>(t.level[node]);
    const bool split = c > a.leaf && level < a.max_level;  // the same on every lane
    u32 start = b;
    if (split && lane >= 1 && lane < 8)
      start = lower_bound(a.keys, b, e, tree::child_prefix(t.prefix[node], level, lane));
    const u32 next = __shfl_down_sync(kFull, start, 1);
    const bool nonempty = split && lane < 8 && (lane == 7 ? e : next) > start;
    const u32 k = __popc(__ballot_sync(kFull, nonempty));
    if (lane < 8) a.bnd[8 * std::size_t(i) + lane] = start;
    if (lane == 0) t.nchild[node] = k;
  }
}

// the children of this block's chunk of the level, written after le + before (see
// count_children); a level that does not fit leaves every node a leaf
template <typename T>
__device__ void split_children(const BuildArgs<T>& a, u32 lb, u32 le, u32 before, bool fits, u32 c0,
                               u32 c1) {
  const Nodes& t = a.t;
  for (u32 i = c0 + threadIdx.x; i < c1; i += blockDim.x) {
    const u32 node = lb + i, k = fits ? t.nchild[node] : 0u;
    if (k == 0) {
      t.first[node] = 0;
      t.nchild[node] = 0;
      continue;
    }
    const u32 first = le + before + a.scan[i] - k, e = t.begin[node] + t.count[node];
    const int level = static_cast<int>(t.level[node]);
    const u64 prefix = t.prefix[node];
    t.first[node] = first;
    u32 c = first;
    for (int d = 0; d < 8; ++d) {
      const u32 lo = a.bnd[8 * std::size_t(i) + d],
                hi = d == 7 ? e : a.bnd[8 * std::size_t(i) + d + 1];
      if (hi <= lo) continue;
      t.begin[c] = lo;
      t.count[c] = hi - lo;
      t.level[c] = static_cast<u32>(level + 1);
      t.prefix[c] = tree::child_prefix(prefix, level, d);
      ++c;
    }
  }
}

// the octree level by level; returns the level starts in ls (levels + 1 entries) and the level
// count (the same on every thread of the grid)
template <typename T>
__device__ u32 build_levels(const BuildArgs<T>& a, u32* ls) {
  namespace cg = cooperative_groups;
  cg::grid_group grid = cg::this_grid();
  const Nodes& t = a.t;
  const u32 tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid == 0) {
    t.begin[a.node0] = a.body0;
    t.count[a.node0] = a.n;
    t.level[a.node0] = 0;
    t.prefix[a.node0] = 0;
  }
  grid.sync();
  // levels known so far: level l holds the nodes [ls[l], ls[l + 1])
  u32 lb = a.node0, le = a.node0 + 1, levels = 1;
  ls[0] = lb;
  ls[1] = le;
  for (;;) {
    const u32 m = le - lb;
    u32 c0, c1;
    chunk_range(m, c0, c1);
    // children of each node of this block's chunk, then scanned over the chunk
    count_children(a, lb, c0, c1);
    __syncthreads();
    chunk_scan(m, a.scan, a.block_sum, [&](u32 i) { return t.nchild[lb + i]; });
    grid.sync();
    u32 before = 0, total = 0;
    chunk_offsets(a.block_sum, before, total);
    const bool fits = static_cast<u64>(le) + total <= static_cast<u64>(a.node0) + a.cap;
    if (!fits && tid == 0) a.meta->overflow = 1;
    split_children(a, lb, le, before, fits, c0, c1);
    grid.sync();
    if (!fits || total == 0) break;
    lb = le;
    le += total;
    ls[++levels] = le;
  }
  return levels;
}

// tree, groups and moments of the sorted bodies (launched cooperatively: every block resident)
template <typename T>
__global__ void __launch_bounds__(kBlock) build_kernel(BuildArgs<T> a) {
  namespace cg = cooperative_groups;
  cg::grid_group grid = cg::this_grid();
  const u32 stride = gridDim.x * blockDim.x, tid = blockIdx.x * blockDim.x + threadIdx.x;
  if (tid == 0) a.meta->overflow = 0;
  if (a.essential) slice_boxes(a);  // (read by the moments, barriers later)
  // (every thread computes the same level starts)
  u32 ls[tree::kMaxLevel + 2];
  const u32 levels = build_levels(a, ls);
  const u32 end = ls[levels], nodes = end - a.node0;
  // the groups of every node, counted and scanned; the deepest level's moments meanwhile
  chunk_scan(nodes, a.scan, a.block_sum, [&](u32 i) {
    const u32 g = for_each_group(a.t, a.node0 + i, a.node0, a.gs, [](u32, u32) {});
    a.group_n[i] = g;
    return g;
  });
  for (u32 i = ls[levels - 1] + tid; i < end; i += stride)
    node_moments(a, i);
  if (a.essential)
    for (u32 i = ls[levels - 1] + tid; i < end; i += stride)
      push_essential(a, i);
  grid.sync();
  u32 before = 0, total = 0;
  chunk_offsets(a.block_sum, before, total);
  u32 c0, c1;
  chunk_range(nodes, c0, c1);
  for (u32 i = c0 + threadIdx.x; i < c1; i += blockDim.x) {
    const u32 k = a.group_n[i];
    if (k == 0) continue;
    u32 g = before + a.scan[i] - k;
    for_each_group(a.t, a.node0 + i, a.node0, a.gs,
                   [&](u32 b, u32 c) { a.groups[g++] = make_uint2(b, c); });
  }
  if (tid == 0) {
    a.meta->nodes = nodes;
    a.meta->levels = levels;
    a.meta->ngroups = total;
    for (u32 l = 0; l <= levels; ++l)
      a.meta->level_start[l] = ls[l] - a.node0;
  }
  // the moments of the other levels, deepest first
  for (u32 l = levels - 1; l-- > 0;) {
    grid.sync();
    for (u32 i = ls[l] + tid; i < ls[l + 1]; i += stride)
      node_moments(a, i);
    if (a.essential)
      for (u32 i = ls[l] + tid; i < ls[l + 1]; i += stride)
        push_essential(a, i);
  }
}

// the last build's tree refitted to the bodies where they are now: its moments (and growths,
// see node_moments) level by level, deepest first, from the level starts the build left in
// meta (launched cooperatively like build_kernel, with the same arguments and refit set)
template <typename T>
__global__ void __launch_bounds__(kBlock) refit_kernel(BuildArgs<T> a) {
  namespace cg = cooperative_groups;
  cg::grid_group grid = cg::this_grid();
  const u32 stride = gridDim.x * blockDim.x, tid = blockIdx.x * blockDim.x + threadIdx.x;
  const BuildMeta& m = *a.meta;
  for (u32 l = m.levels; l-- > 0;) {
    const u32 lo = a.node0 + m.level_start[l], hi = a.node0 + m.level_start[l + 1];
    for (u32 i = lo + tid; i < hi; i += stride)
      node_moments(a, i);
    if (l > 0) grid.sync();
  }
}
