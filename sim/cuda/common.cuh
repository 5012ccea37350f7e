#pragma once
// Device-side building blocks shared by the GPU kernels: the float4/double body type, the
// softened pair interaction, and the one launch helper that owns grid sizing.

#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <utility>

#include "sim/core/backend.hpp"
#include "sim/cuda/cuda_check.cuh"

namespace nbody::cuda {

/// Four doubles, 32-byte aligned (CUDA 13 deprecates the old double4).
struct alignas(32) Double4 {
  double x, y, z, w;
};

template <typename T>
struct Vec4Of;
template <>
struct Vec4Of<float> {
  using type = float4;
};
template <>
struct Vec4Of<double> {
  using type = Double4;
};
/// float4 or Double4: position + mass (w), velocity (w unused), acceleration (w unused).
template <typename T>
using Vec4 = typename Vec4Of<T>::type;

template <typename T>
__host__ __device__ __forceinline__ Vec4<T> make_vec4(T x, T y, T z, T w) {
  return {x, y, z, w};
}

__device__ __forceinline__ float fast_rsqrt(float x) {
  return rsqrtf(x);
}
__device__ __forceinline__ double fast_rsqrt(double x) {
  return rsqrt(x);
}

/// Adds the pull of body j on body i to (ax, ay, az), without G:
/// a += m_j d / (|d|² + ε²)^{3/2}, d = x_j - x_i.
/// FLOPs: 3 sub + 6 (|d|² + ε²) + 4 (rsqrt) + 4 (m·r⁻³) + 6 (3 fma) = 20 per interaction
/// (the GPU Gems 3 ch. 31 convention; 30 is used for double).
/// Guard (only when ε = 0): r² = 0 (the body itself) and massless padding contribute 0, not NaN.
/// float: 13 instructions (3 FADD, 3 FFMA, MUFU.RSQ, 3 FMUL, 3 FFMA); m·r⁻³ as (r⁻¹·r⁻¹)(m·r⁻¹)
/// so that the chain after the MUFU is two multiplies deep.
template <typename T, bool Guard>
__device__ __forceinline__ void interact(T xi, T yi, T zi, const Vec4<T>& pj, T eps2, T& ax, T& ay,
                                         T& az) {
  const T dx = pj.x - xi, dy = pj.y - yi, dz = pj.z - zi;
  const T r2 = fma(dx, dx, fma(dy, dy, fma(dz, dz, eps2)));
  const T inv = fast_rsqrt(r2);
  T s = (inv * inv) * (pj.w * inv);
  if constexpr (Guard) s = (r2 > T(0) && pj.w != T(0)) ? s : T(0);
  ax = fma(dx, s, ax);
  ay = fma(dy, s, ay);
  az = fma(dz, s, az);
}

/// rsqrt.approx.ftz.f64: MUFU.RSQ64H alone (the high word of r⁻¹/², about 2⁻²² relative).
__device__ __forceinline__ double rsqrt_seed(double x) {
  double y;
  asm("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(y) : "d"(x));
  return y;
}

#ifndef NBODY_DOUBLE_FULL_RSQRT
/// double: CUDA's rsqrt(double) is MUFU.RSQ64H + 5 FP64 refinement steps and a slow-path branch.
/// Here m·r⁻³ comes straight from the seed y ≈ r⁻¹ (1 + δ): with e = 1 - r² y² (exact to an
/// ulp thanks to the fma), r⁻³ = y³ (1 - e)^{-3/2} = y³ (1 + 3/2 e + 15/8 e² + O(e³)), so
/// s = m y³ + (m y³ e)(3/2 + 15/8 e). |e| ≈ 2|δ| < 1e-6 leaves a truncation of ~2e-18: full
/// double accuracy. FP64 instructions per interaction: 3 sub + 3 fma (r²) + 7 (t, e, m·y, m·y³,
/// the polynomial, its product, the fma) + 3 fma = 16 (17 with rsqrt() + 3 multiplies, which
/// also add a branch); out-of-range r² (0, inf) behaves like rsqrt() under the guard.
template <bool Guard>
__device__ __forceinline__ void interact_d(double xi, double yi, double zi, const Double4& pj,
                                           double eps2, double& ax, double& ay, double& az) {
  const double dx = pj.x - xi, dy = pj.y - yi, dz = pj.z - zi;
  const double r2 = fma(dx, dx, fma(dy, dy, fma(dz, dz, eps2)));
  const double y = rsqrt_seed(r2);
  const double t = y * y;
  const double e = fma(-r2, t, 1.0);
  const double my3 = (pj.w * y) * t;
  const double p = fma(e, 1.875, 1.5);
  double s = fma(my3 * e, p, my3);
  if constexpr (Guard) s = (r2 > 0.0 && pj.w != 0.0) ? s : 0.0;
  ax = fma(dx, s, ax);
  ay = fma(dy, s, ay);
  az = fma(dz, s, az);
}
template <>
__device__ __forceinline__ void interact<double, false>(double xi, double yi, double zi,
                                                        const Double4& pj, double eps2, double& ax,
                                                        double& ay, double& az) {
  interact_d<false>(xi, yi, zi, pj, eps2, ax, ay, az);
}
template <>
__device__ __forceinline__ void interact<double, true>(double xi, double yi, double zi,
                                                       const Double4& pj, double eps2, double& ax,
                                                       double& ay, double& az) {
  interact_d<true>(xi, yi, zi, pj, eps2, ax, ay, az);
}
#endif

/// Whether the kernels need interact's guard: with ε² this small, r⁻³ of a coincident pair can
/// overflow (NaN against a massless padding body), so the guarded variant runs.
inline bool needs_guard(double eps2) {
  return !(eps2 >= 1e-12);
}

/// Throws nbody::Error unless `block` is a multiple of 32 in 32..1024.
void check_block_size(int block, const char* what = "block_size");

/// The shape of one launch: `n` items, `block` threads per block, `per_thread` items per thread,
/// `splits` blocks along y (the j-split of tiled2d).
struct LaunchShape {
  std::size_t n = 0;
  int block = 256;
  int per_thread = 1;
  int splits = 1;
  std::size_t shared_bytes = 0;
};

/// Grid size of `s` along x.
inline unsigned grid_x(const LaunchShape& s) {
  const std::size_t per_block = static_cast<std::size_t>(s.block) * s.per_thread;
  return static_cast<unsigned>((s.n + per_block - 1) / per_block);
}

/// Where a backend's work runs: the device and the stream every launch, copy and event of a
/// step goes to (a multi-kernel step stays ordered on it; a multi-GPU backend holds one per GPU).
struct Context {
  int device = 0;
  cudaStream_t stream = nullptr;
};

/// The one launch helper: returns at once for n == 0, checks the block size, sizes the grid,
/// launches on ctx.stream and checks the launch.
template <typename... KArgs, typename... Args>
void launch(const Context& ctx, const char* name, void (*kernel)(KArgs...), const LaunchShape& s,
            Args&&... args) {
  if (s.n == 0) return;
  check_block_size(s.block);
  const dim3 grid(grid_x(s), static_cast<unsigned>(s.splits));
  kernel<<<grid, static_cast<unsigned>(s.block), s.shared_bytes, ctx.stream>>>(
      std::forward<Args>(args)...);
  check(cudaGetLastError(), name, __FILE__, __LINE__);
}

/// Cached device properties of the current device.
const cudaDeviceProp& device_properties();

}  // namespace nbody::cuda
