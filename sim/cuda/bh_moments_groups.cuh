#pragma once
// The Barnes-Hut GPU kernel's target groups (which runs of bodies walk the tree together; on
// several GPUs their costs).
// Included once, by sim/cuda/barnes_hut.cu, inside its anonymous namespace: the types and
// constants it uses (u32, kBlock, Nodes, ...) are that file's.

// ---------------------------------------------------------------- groups

// Groups: runs of consecutive sorted bodies, at most gs long, that lie in one cell or in
// siblings of one cell, so that their boxes stay compact (plain runs of gs bodies straddle the
// Z-curve's jumps). A node with more than gs bodies packs its children of at most gs bodies,
// in octant order, greedily into groups (a child with more than gs breaks the run; it packs its
// own children); a leaf with more than gs bodies (level 21) is cut into runs of gs; a root of
// 1 to gs bodies is one group. f(begin, count) for each group of the node, in order.
template <typename F>
__device__ u32 for_each_group(const Nodes& t, u32 node, u32 root, u32 gs, F&& f) {
  const u32 c = t.count[node], k = t.nchild[node];
  u32 g = 0;
  if (c <= gs) {
    if (node == root && c > 0) {
      f(t.begin[node], c);
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
