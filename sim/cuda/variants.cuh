#pragma once
// The source reports' variants of the all-pairs interaction, as template parameters of the tiled
// kernel: how r^-3 is computed (rsqrtf, 1/sqrtf, __powf, the fast inverse square root with one
// or two Newton steps), how a tile of bodies is staged (float4, float3, structure of arrays),
// where the masses come from (the tile, constant memory, the read-only cache) and whether
// float arithmetic flushes subnormals to zero. Float only: these are single-precision tricks.

#include <cuda_runtime.h>

#include "sim/cuda/common.cuh"

namespace nbody::cuda {

/// How r^-3 is computed from r² (the rsqrt tunable, in its order).
enum class Rsqrt : int {
  Fast,    ///< rsqrtf: one MUFU.RSQ, cubed (GPU Gems 3 ch. 31)
  Exact,   ///< 1.0f / sqrtf: correctly rounded square root and division
  Powf,    ///< __powf(r², -1.5f): one base-2 logarithm and one exponential
  Quake1,  ///< fast inverse square root (0x5f3759df) and one Newton step
  Quake2   ///< the same with two Newton steps
};
/// How a tile is staged in shared memory (the layout tunable).
enum class Layout : int {
  Aos4,  ///< float4 x, y, z, m per body: one 16-byte load
  Aos3,  ///< float3 x, y, z per body (12 bytes) and the masses beside
  Soa    ///< one array per coordinate
};
/// Where the inner loop reads the masses (the masses tunable).
enum class Masses : int {
  Inline,  ///< staged in shared memory with the positions
  Const,   ///< __constant__ memory: every lane reads the same j, a broadcast
  Ldg      ///< global memory through the read-only data cache (__ldg)
};

/// One variant. Ftz = true flushes subnormal inputs and results of the float arithmetic to zero
/// (the .ftz instruction forms); false keeps IEEE subnormals.
template <Rsqrt R = Rsqrt::Fast, Layout L = Layout::Aos4, Masses M = Masses::Inline,
          bool Ftz = true>
struct Variant {
  static constexpr Rsqrt rsqrt = R;
  static constexpr Layout layout = L;
  static constexpr Masses masses = M;
  static constexpr bool ftz = Ftz;
  /// Today's fastest path: every choice at its default.
  static constexpr bool is_default =
      R == Rsqrt::Fast && L == Layout::Aos4 && M == Masses::Inline && Ftz;
};
using DefaultVariant = Variant<>;

/// The largest number of masses constant memory holds (64 KiB of floats).
constexpr int kConstMasses = 16384;

// float arithmetic with or without flush-to-zero. The library is compiled with --use_fast_math
// (which implies -ftz=true), so Ftz = true uses the plain operators and intrinsics; Ftz = false
// spells out the PTX instructions without the .ftz modifier, so that this one kernel keeps
// subnormals whatever the file's flags are.
namespace fp {

template <bool Ftz>
__device__ __forceinline__ float sub(float a, float b) {
  if constexpr (Ftz) return a - b;
  float r;
  asm("sub.rn.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
  return r;
}
template <bool Ftz>
__device__ __forceinline__ float mul(float a, float b) {
  if constexpr (Ftz) return a * b;
  float r;
  asm("mul.rn.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
  return r;
}
template <bool Ftz>
__device__ __forceinline__ float fma(float a, float b, float c) {
  if constexpr (Ftz) return fmaf(a, b, c);
  float r;
  asm("fma.rn.f32 %0, %1, %2, %3;" : "=f"(r) : "f"(a), "f"(b), "f"(c));
  return r;
}
template <bool Ftz>
__device__ __forceinline__ float rsqrt_approx(float x) {
  if constexpr (Ftz) return rsqrtf(x);
  float r;
  asm("rsqrt.approx.f32 %0, %1;" : "=f"(r) : "f"(x));
  return r;
}
// correctly rounded sqrt and division (what 1.0f / sqrtf(x) compiles to without fast math)
template <bool Ftz>
__device__ __forceinline__ float inv_sqrt_exact(float x) {
  float s, r;
  if constexpr (Ftz) {
    asm("sqrt.rn.ftz.f32 %0, %1;" : "=f"(s) : "f"(x));
    asm("div.rn.ftz.f32 %0, %1, %2;" : "=f"(r) : "f"(1.0f), "f"(s));
  } else {
    asm("sqrt.rn.f32 %0, %1;" : "=f"(s) : "f"(x));
    asm("div.rn.f32 %0, %1, %2;" : "=f"(r) : "f"(1.0f), "f"(s));
  }
  return r;
}
// x^y as __powf computes it: 2^(y log2 x) with the approximate MUFU.LG2 and MUFU.EX2
template <bool Ftz>
__device__ __forceinline__ float pow_approx(float x, float y) {
  float l, r;
  if constexpr (Ftz) {
    asm("lg2.approx.ftz.f32 %0, %1;" : "=f"(l) : "f"(x));
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(l * y));
  } else {
    asm("lg2.approx.f32 %0, %1;" : "=f"(l) : "f"(x));
    const float ly = mul<false>(l, y);
    asm("ex2.approx.f32 %0, %1;" : "=f"(r) : "f"(ly));
  }
  return r;
}
// the fast inverse square root: a bit-level first guess refined by `Steps` Newton steps
// y <- y (1.5 - x/2 y²); relative error at most 1.75e-3 after one step, 4.7e-6 after two
template <bool Ftz, int Steps>
__device__ __forceinline__ float inv_sqrt_quake(float x) {
  const float half = mul<Ftz>(0.5f, x);
  float y = __int_as_float(0x5f3759df - (__float_as_int(x) >> 1));
#pragma unroll
  for (int s = 0; s < Steps; ++s)
    y = mul<Ftz>(y, fma<Ftz>(-half, mul<Ftz>(y, y), 1.5f));
  return y;
}

}  // namespace fp

/// Newton steps of the fast inverse square root variants.
template <Rsqrt R>
constexpr int kNewtonSteps = R == Rsqrt::Quake1 ? 1 : 2;

/// The pull of a body at (xj, yj, zj) of mass mj on body i, added to (ax, ay, az) without G,
/// computed as variant V says: a += m_j d / (|d|² + ε²)^{3/2}. The default variant is
/// interact<float, Guard> itself (13 instructions); 20 flops per interaction are counted for
/// every variant (the GPU Gems 3 convention), whatever instructions it takes.
template <class V, bool Guard>
__device__ __forceinline__ void interact_variant(float xi, float yi, float zi, float xj, float yj,
                                                 float zj, float mj, float eps2, float& ax,
                                                 float& ay, float& az) {
  if constexpr (V::rsqrt == Rsqrt::Fast && V::ftz) {
    interact<float, Guard>(xi, yi, zi, make_float4(xj, yj, zj, mj), eps2, ax, ay, az);
  } else {
    constexpr bool F = V::ftz;
    const float dx = fp::sub<F>(xj, xi), dy = fp::sub<F>(yj, yi), dz = fp::sub<F>(zj, zi);
    const float r2 = fp::fma<F>(dx, dx, fp::fma<F>(dy, dy, fp::fma<F>(dz, dz, eps2)));
    float s;
    if constexpr (V::rsqrt == Rsqrt::Powf) {
      s = fp::mul<F>(mj, fp::pow_approx<F>(r2, -1.5f));
    } else {
      float inv;
      if constexpr (V::rsqrt == Rsqrt::Fast)
        inv = fp::rsqrt_approx<F>(r2);
      else if constexpr (V::rsqrt == Rsqrt::Exact)
        inv = fp::inv_sqrt_exact<F>(r2);
      else
        inv = fp::inv_sqrt_quake<F, kNewtonSteps<V::rsqrt>>(r2);
      s = fp::mul<F>(fp::mul<F>(inv, inv), fp::mul<F>(mj, inv));
    }
    if constexpr (Guard) s = (r2 > 0.0f && mj != 0.0f) ? s : 0.0f;
    ax = fp::fma<F>(dx, s, ax);
    ay = fp::fma<F>(dy, s, ay);
    az = fp::fma<F>(dz, s, az);
  }
}

}  // namespace nbody::cuda
