#pragma once
// The bounding box of the stored positions, in double: partial boxes (one per block of a
// grid-stride pass over the bodies), joined by one block afterwards. The Barnes-Hut kernel
// computes them before its keys, or takes them from the integration's last drift, which
// computes them on the way (DeviceStore::fresh_box): the same positions, the same doubles.

#include <limits>

#include "sim/cuda/common.cuh"

namespace nbody::cuda {

/// Min/max corner of a set of points.
struct Box {
  double lo[3], hi[3];
};

/// Partial boxes of a grid-stride pass: the grid's blocks, at most (enough resident threads to
/// stream the bodies at full bandwidth, few enough for one block to join them)
constexpr int kBoxParts = 2048;

/// An empty box: every point grows it.
__device__ __forceinline__ void empty_box(double (&lo)[3], double (&hi)[3]) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  for (int a = 0; a < 3; ++a) {
    lo[a] = inf;
    hi[a] = -inf;
  }
}

template <typename V>
__device__ __forceinline__ void grow_box(double (&lo)[3], double (&hi)[3], const V& p) {
  const double x[3] = {double(p.x), double(p.y), double(p.z)};
  for (int a = 0; a < 3; ++a) {
    lo[a] = fmin(lo[a], x[a]);
    hi[a] = fmax(hi[a], x[a]);
  }
}

/// Min/max over the warp, then over the block of `Threads` threads; thread 0 gets the result.
template <int Threads>
__device__ void block_box(double (&lo)[3], double (&hi)[3]) {
  __shared__ double s[6][Threads / 32];
  for (int a = 0; a < 3; ++a)
    for (int o = 16; o > 0; o >>= 1) {
      lo[a] = fmin(lo[a], __shfl_xor_sync(0xffffffffu, lo[a], o));
      hi[a] = fmax(hi[a], __shfl_xor_sync(0xffffffffu, hi[a], o));
    }
  const int lane = threadIdx.x & 31, w = threadIdx.x >> 5;
  if (lane == 0)
    for (int a = 0; a < 3; ++a) {
      s[a][w] = lo[a];
      s[3 + a][w] = hi[a];
    }
  __syncthreads();
  if (threadIdx.x == 0)
    for (int k = 1; k < Threads / 32; ++k)
      for (int a = 0; a < 3; ++a) {
        lo[a] = fmin(lo[a], s[a][k]);
        hi[a] = fmax(hi[a], s[3 + a][k]);
      }
}

/// The block's box into partial[blockIdx.x] (every thread of the block calls it).
template <int Threads>
__device__ void write_block_box(double (&lo)[3], double (&hi)[3], Box* __restrict__ partial) {
  block_box<Threads>(lo, hi);
  if (threadIdx.x == 0)
    for (int a = 0; a < 3; ++a) {
      partial[blockIdx.x].lo[a] = lo[a];
      partial[blockIdx.x].hi[a] = hi[a];
    }
}

}  // namespace nbody::cuda
