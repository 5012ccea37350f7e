// tiled: one thread per body, bodies staged through shared memory one tile (= one block) at a
// time, unrolled inner loop, rsqrt (GPU Gems 3 ch. 31; seeds 000 GPU1, 001, 002, 003). Its
// variants (sim/cuda/variants.cuh: rsqrt flavour, tile layout, masses, flush-to-zero) are
// template parameters of the same kernel.
#include <memory>
#include <type_traits>

#include "sim/core/error.hpp"
#include "sim/cuda/device_store.cuh"
#include "sim/cuda/kernel_rows.hpp"
#include "sim/cuda/variants.cuh"

namespace nbody::cuda {

/// The masses of masses=const, zero-padded to whole tiles (one bank per device: variant
/// backends of one device run one at a time, as the bench and the window do).
__constant__ float c_tiled_masses[kConstMasses];

namespace {

// what a variant reads: the float4/Double4 bodies themselves (aos4 with inline masses), or one
// float array staged from them holding the positions (aos4: float4 per body; aos3: x, y, z per
// body; soa: x[n], y[n], z[n]) followed by the masses, zero-padded to whole tiles
template <typename T, class V>
using TiledIn =
    std::conditional_t<V::layout == Layout::Aos4 && V::masses == Masses::Inline, Vec4<T>, T>;

// where the masses start in a staged array, in units of n
template <class V>
constexpr int mass_offset() {
  return V::layout == Layout::Aos4 ? 4 : 3;
}

// position (and mass) of body i < n in layout V
template <typename T, class V>
__device__ __forceinline__ Vec4<T> load_body(const TiledIn<T, V>* __restrict__ pos, int i, int n) {
  if constexpr (std::is_same_v<TiledIn<T, V>, Vec4<T>>) {
    return pos[i];
  } else {
    const T* m = pos + mass_offset<V>() * n;
    if constexpr (V::layout == Layout::Aos4)
      return reinterpret_cast<const Vec4<T>*>(pos)[i];
    else if constexpr (V::layout == Layout::Aos3)
      return make_vec4<T>(pos[3 * i], pos[3 * i + 1], pos[3 * i + 2], m[i]);
    else
      return make_vec4<T>(pos[i], pos[n + i], pos[2 * n + i], m[i]);
  }
}

// shared bytes per body of a tile
template <typename T, class V>
constexpr std::size_t tile_bytes() {
  if constexpr (V::layout == Layout::Aos4) return sizeof(Vec4<T>);
  return sizeof(T) * (V::masses == Masses::Inline ? 4 : 3);
}

// thread t stages source j of the tile (massless zeros from ns on; n: the layout's stride): aos4
// as one float4, aos3 as a float3 then the mass after the block's float3s, soa as x[B], y[B],
// z[B], m[B]
template <typename T, class V>
__device__ __forceinline__ void stage_body(unsigned char* smem,
                                           const TiledIn<T, V>* __restrict__ pos, int j, int n,
                                           int ns) {
  const int t = threadIdx.x, B = blockDim.x;
  if constexpr (std::is_same_v<TiledIn<T, V>, Vec4<T>>) {
    reinterpret_cast<Vec4<T>*>(smem)[t] = j < ns ? pos[j] : make_vec4<T>(0, 0, 0, 0);
  } else if constexpr (V::layout == Layout::Aos4) {
    reinterpret_cast<Vec4<T>*>(smem)[t] =
        j < ns ? load_body<T, V>(pos, j, n) : make_vec4<T>(0, 0, 0, 0);
  } else {
    const Vec4<T> b = j < ns ? load_body<T, V>(pos, j, n) : make_vec4<T>(0, 0, 0, 0);
    T* f = reinterpret_cast<T*>(smem);
    if constexpr (V::layout == Layout::Aos3) {
      reinterpret_cast<float3*>(smem)[t] = make_float3(b.x, b.y, b.z);
      if constexpr (V::masses == Masses::Inline) f[3 * B + t] = b.w;
    } else {
      f[t] = b.x;
      f[B + t] = b.y;
      f[2 * B + t] = b.z;
      if constexpr (V::masses == Masses::Inline) f[3 * B + t] = b.w;
    }
  }
}

// the pull of tile body k (global index j) on (xi, yi, zi)
template <typename T, class V, bool Guard>
__device__ __forceinline__ void interact_tile(T xi, T yi, T zi, const unsigned char* smem,
                                              const TiledIn<T, V>* __restrict__ pos, int n, int k,
                                              int j, T eps2, T& ax, T& ay, T& az) {
  if constexpr (V::layout == Layout::Aos4 && V::is_default) {
    interact<T, Guard>(xi, yi, zi, reinterpret_cast<const Vec4<T>*>(smem)[k], eps2, ax, ay, az);
  } else {
    static_assert(std::is_same_v<T, float>, "the variants are single precision");
    const int B = blockDim.x;
    const float* f = reinterpret_cast<const float*>(smem);
    float xj, yj, zj, mj = 0;
    if constexpr (V::layout == Layout::Aos4) {
      const float4 b = reinterpret_cast<const float4*>(smem)[k];
      xj = b.x, yj = b.y, zj = b.z;
      if constexpr (V::masses == Masses::Inline) mj = b.w;
    } else if constexpr (V::layout == Layout::Aos3) {
      const float3 b = reinterpret_cast<const float3*>(smem)[k];
      xj = b.x, yj = b.y, zj = b.z;
    } else {
      xj = f[k], yj = f[B + k], zj = f[2 * B + k];
    }
    if constexpr (V::masses == Masses::Const)
      mj = c_tiled_masses[j];
    else if constexpr (V::masses == Masses::Ldg)
      mj = __ldg(pos + mass_offset<V>() * n + j);
    else if constexpr (V::layout != Layout::Aos4)
      mj = f[3 * B + k];
    interact_variant<V, Guard>(xi, yi, zi, xj, yj, zj, mj, eps2, ax, ay, az);
  }
}

// each block walks the tiles of the sources (the ns massive bodies, stored first); a tile past ns
// is padded with massless bodies, which contribute exactly 0 (interact's guard covers eps = 0);
// 20 flops per interaction. With Blocked each tile
// sums on its own and then joins the total, so a float sum of N terms loses ~sqrt(N / B) +
// sqrt(B) ulps rather than ~sqrt(N): used at large N, where the single running sum would pass
// 1e-5 (it costs 2-3% there, and 18% at N = 16k, so small N keeps the plain sum)
// G a, flushing subnormals or not as the variant says
template <typename T, class V>
__device__ __forceinline__ T scale(T G, T a) {
  if constexpr (std::is_same_v<T, float> && !V::ftz)
    return fp::mul<false>(G, a);
  else
    return G * a;
}

// (V: the variant; the default is today's float4 + rsqrtf kernel, unchanged)
template <typename T, bool Guard, int Unroll, bool Blocked, class V = DefaultVariant>
__global__ void __launch_bounds__(1024)
    tiled_kernel(const TiledIn<T, V>* __restrict__ pos, Vec4<T>* __restrict__ acc, int n, int ns,
                 int first, int count, T eps2, T G) {
  extern __shared__ __align__(32) unsigned char smem[];
  // target bodies [first, first + count), sources the ns massive bodies (stored first)
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = first + t;
  const Vec4<T> pi = t < count ? load_body<T, V>(pos, i, n) : make_vec4<T>(0, 0, 0, 0);
  T ax = 0, ay = 0, az = 0;
  for (int base = 0; base < ns; base += blockDim.x) {
    // every thread of the block reaches both barriers
    const int j = base + threadIdx.x;
    stage_body<T, V>(smem, pos, j, n, ns);
    __syncthreads();
    if constexpr (Blocked) {
      T tx = 0, ty = 0, tz = 0;
#pragma unroll Unroll
      for (int k = 0; k < blockDim.x; ++k)
        interact_tile<T, V, Guard>(pi.x, pi.y, pi.z, smem, pos, n, k, base + k, eps2, tx, ty, tz);
      ax += tx;
      ay += ty;
      az += tz;
    } else {
#pragma unroll Unroll
      for (int k = 0; k < blockDim.x; ++k)
        interact_tile<T, V, Guard>(pi.x, pi.y, pi.z, smem, pos, n, k, base + k, eps2, ax, ay, az);
    }
    __syncthreads();
  }
  if (t < count)
    acc[i] = make_vec4<T>(scale<T, V>(G, ax), scale<T, V>(G, ay), scale<T, V>(G, az), T(0));
}

template <typename T, bool Guard>
using TiledFn = void (*)(const Vec4<T>*, Vec4<T>*, int, int, int, int, T, T);

template <typename T, bool Guard, bool Blocked, int... U>
TiledFn<T, Guard> pick_unroll(int unroll, std::integer_sequence<int, U...>) {
  TiledFn<T, Guard> fn = nullptr;
  ((unroll == U + 1 ? (fn = tiled_kernel<T, Guard, U + 1, Blocked>, 0) : 0), ...);
  return fn;
}

// above this N the plain float sum's error nears 1e-5 (7.5e-6 measured at 262,144)
constexpr std::size_t kBlockedSumFrom = 262145;

template <typename T, bool Guard>
TiledFn<T, Guard> pick(int unroll, std::size_t n) {
  using seq = std::make_integer_sequence<int, 8>;
  return n >= kBlockedSumFrom ? pick_unroll<T, Guard, true>(unroll, seq{})
                              : pick_unroll<T, Guard, false>(unroll, seq{});
}

// variants ----------------------------------------------------------------------------------

// the unroll every non-default variant is built with (seed 001's best factor): one build per
// variant keeps the number of kernels sane; the default variant has all of 1..8
constexpr int kVariantUnroll = 8;

// the variant tunables of p, by index in their choice lists (see tiled_row)
struct VariantChoice {
  int rsqrt = 0, layout = 0, masses = 0, ftz = 0;
  bool is_default() const { return rsqrt == 0 && layout == 0 && masses == 0 && ftz == 0; }
};

// reads the variant of p and refuses the combinations that are not built, naming why
VariantChoice variant_of(const KernelInfo& info, const SimParams& p, Precision precision) {
  VariantChoice v{info.int_value(p, "rsqrt"), info.int_value(p, "layout"),
                  info.int_value(p, "masses"), info.int_value(p, "ftz")};
  if (v.is_default()) return v;
  auto text = [&] {
    std::string s;
    for (const char* key : {"rsqrt", "layout", "masses", "ftz"})
      s += std::string(s.empty() ? "" : " ") + key + "=" +
           info.find_tunable(key)->format(info.value(p, key));
    return s;
  };
  if (precision == Precision::Double)
    fail("tiled: ", text(),
         " is a single-precision variant; in double tiled runs rsqrt=fast layout=aos4 "
         "masses=inline ftz=on only");
  if (info.int_value(p, "unroll") != kVariantUnroll)
    fail("tiled: the variants (", text(), ") are built with unroll ", kVariantUnroll,
         " only; unroll ", info.int_value(p, "unroll"), " exists for the default variant");
  return v;
}

// copies the float4 bodies into layout L: aos4 as they are, aos3 as x, y, z per body, soa as
// x[n], y[n], z[n]; then the masses, zero-padded to n_pad (whole tiles)
template <Layout L>
__global__ void __launch_bounds__(1024)
    stage_layout_kernel(const float4* __restrict__ pos, float* __restrict__ out, int n, int n_pad) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n_pad) return;
  float* m = out + (L == Layout::Aos4 ? 4 : 3) * n;
  if (i >= n) {
    m[i] = 0;
    return;
  }
  const float4 p = pos[i];
  if constexpr (L == Layout::Aos4) {
    reinterpret_cast<float4*>(out)[i] = p;
  } else if constexpr (L == Layout::Aos3) {
    out[3 * i] = p.x;
    out[3 * i + 1] = p.y;
    out[3 * i + 2] = p.z;
  } else {
    out[i] = p.x;
    out[n + i] = p.y;
    out[2 * n + i] = p.z;
  }
  m[i] = p.w;
}

using VariantLaunch = void (*)(const Context&, const void*, float4*, int, int, int, int, int, float,
                               float);

// launches variant V (in: the bodies in V's layout)
template <Rsqrt R, Layout L, Masses M, bool F>
void launch_variant(const Context& ctx, const void* in, float4* acc, int n, int ns, int first,
                    int count, int block, float eps2, float G) {
  using V = Variant<R, L, M, F>;
  LaunchShape shape{static_cast<std::size_t>(count), block};
  shape.shared_bytes = tile_bytes<float, V>() * static_cast<std::size_t>(block);
  const auto* pos = static_cast<const TiledIn<float, V>*>(in);
  const bool blocked = static_cast<std::size_t>(n) >= kBlockedSumFrom;
  constexpr int U = kVariantUnroll;
  if (needs_guard(eps2))
    launch(ctx, "tiled",
           blocked ? tiled_kernel<float, true, U, true, V> : tiled_kernel<float, true, U, false, V>,
           shape, pos, acc, n, ns, first, count, eps2, G);
  else
    launch(
        ctx, "tiled",
        blocked ? tiled_kernel<float, false, U, true, V> : tiled_kernel<float, false, U, false, V>,
        shape, pos, acc, n, ns, first, count, eps2, G);
}

// from the choice indices to the compiled variant
template <Rsqrt R, Layout L, Masses M>
VariantLaunch pick_ftz(int ftz) {
  return ftz == 0 ? launch_variant<R, L, M, true> : launch_variant<R, L, M, false>;
}
template <Rsqrt R, Layout L>
VariantLaunch pick_masses(int masses, int ftz) {
  switch (masses) {
    case 0:
      return pick_ftz<R, L, Masses::Inline>(ftz);
    case 1:
      return pick_ftz<R, L, Masses::Const>(ftz);
    default:
      return pick_ftz<R, L, Masses::Ldg>(ftz);
  }
}
template <Rsqrt R>
VariantLaunch pick_layout(int layout, int masses, int ftz) {
  switch (layout) {
    case 0:
      return pick_masses<R, Layout::Aos4>(masses, ftz);
    case 1:
      return pick_masses<R, Layout::Aos3>(masses, ftz);
    default:
      return pick_masses<R, Layout::Soa>(masses, ftz);
  }
}
VariantLaunch pick_variant(const VariantChoice& v) {
  switch (v.rsqrt) {
    case 0:
      return pick_layout<Rsqrt::Fast>(v.layout, v.masses, v.ftz);
    case 1:
      return pick_layout<Rsqrt::Exact>(v.layout, v.masses, v.ftz);
    case 2:
      return pick_layout<Rsqrt::Powf>(v.layout, v.masses, v.ftz);
    case 3:
      return pick_layout<Rsqrt::Quake1>(v.layout, v.masses, v.ftz);
    default:
      return pick_layout<Rsqrt::Quake2>(v.layout, v.masses, v.ftz);
  }
}

// runs a non-default variant on float4 bodies: stages the layout and the masses apart unless
// both are the defaults (O(N) per force evaluation, part of the step's time), fills constant
// memory for masses=const, then launches
class TiledVariants {
 public:
  // (all n = total bodies staged; targets [first, first + count), sources [0, ns))
  void run(const Context& ctx, const VariantChoice& v, const float4* pos, float4* acc,
           std::size_t total, std::size_t ns, std::size_t first, std::size_t count, int block,
           float eps2, float G) {
    check_block_size(block);
    const int n = static_cast<int>(total);
    const void* in = pos;
    if (v.layout != 0 || v.masses != 0) {
      // every source body is staged
      const std::size_t n_pad = (total + block - 1) / block * block;
      const std::size_t off = (v.layout == 0 ? 4 : 3) * total;
      if (v.masses == 1 && n_pad > static_cast<std::size_t>(kConstMasses))
        fail("tiled: masses=const holds at most ", kConstMasses,
             " masses (64 KiB of constant memory); N = ", total, " in tiles of ", block, " needs ",
             n_pad, ": use masses=inline or ldg");
      staged_.reserve(off + n_pad);
      const LaunchShape shape{n_pad, 256};
      launch(ctx, "stage_layout",
             v.layout == 0   ? stage_layout_kernel<Layout::Aos4>
             : v.layout == 1 ? stage_layout_kernel<Layout::Aos3>
                             : stage_layout_kernel<Layout::Soa>,
             shape, pos, staged_.get(), n, static_cast<int>(n_pad));
      if (v.masses == 1)
        NBODY_CUDA_CHECK(cudaMemcpyToSymbolAsync(c_tiled_masses, staged_.get() + off,
                                                 n_pad * sizeof(float), 0, cudaMemcpyDeviceToDevice,
                                                 ctx.stream));
      in = staged_.get();
    }
    pick_variant(v)(ctx, in, acc, n, static_cast<int>(ns), static_cast<int>(first),
                    static_cast<int>(count), block, eps2, G);
  }

 private:
  DeviceBuffer<float> staged_;
};

// the backend ---------------------------------------------------------------------------------

template <typename T>
class TiledBackend final : public DeviceForceKernel<T> {
 public:
  using DeviceForceKernel<T>::DeviceForceKernel;

  void forces(const SimParams& p, T G, T eps2, StepWork& work) override {
    DeviceStore<T>& st = this->store();
    constexpr Precision kPrecision = sizeof(T) == 8 ? Precision::Double : Precision::Float;
    const VariantChoice v = variant_of(this->row(), p, kPrecision);
    if constexpr (std::is_same_v<T, float>) {
      if (!v.is_default()) {
        variants_.run(st.context(), v, st.positions(), st.accelerations(), st.size(),
                      st.n_sources(), st.first(), st.count(),
                      this->row().int_value(p, "block_size"), eps2, G);
        return;
      }
    }
    LaunchShape shape{st.count(), this->row().int_value(p, "block_size")};
    shape.shared_bytes = sizeof(Vec4<T>) * this->row().int_value(p, "block_size");
    const int n = static_cast<int>(st.size()), ns = static_cast<int>(st.n_sources()),
              first = static_cast<int>(st.first()), count = static_cast<int>(st.count());
    if (!needs_guard(eps2))
      launch(st.context(), "tiled", pick<T, false>(this->row().int_value(p, "unroll"), st.size()),
             shape, st.positions(), st.accelerations(), n, ns, first, count, eps2, G);
    else
      launch(st.context(), "tiled", pick<T, true>(this->row().int_value(p, "unroll"), st.size()),
             shape, st.positions(), st.accelerations(), n, ns, first, count, eps2, G);
  }

 private:
  TiledVariants variants_;  // (float only)
};

}  // namespace

KernelInfo tiled_row() {
  KernelInfo k;
  k.name = "tiled";
  k.label = "GPU tiled (shared memory)";
  k.description =
      "one thread per body, bodies staged through shared-memory tiles (GPU Gems 3); variants: "
      "rsqrt flavour, float4/float3/SoA tiles, masses from constant or read-only memory, "
      "flush-to-zero";
  k.gpu = true;
  k.supports_float = true;
  k.supports_double = true;
  k.flops_per_interaction = 20;
  k.tunables = {
      block_size_tunable(256),
      int_tunable("unroll", "unroll", 1, 8, 1, 8,
                  "unroll factor of the loop over a shared-memory tile (the variants: 8)"),
      choice_tunable("rsqrt", "r^-3 from", {"fast", "exact", "powf", "quake1", "quake2"}, 0,
                     "how r^-3 is computed: rsqrtf cubed (one special-function instruction), "
                     "1.0f / sqrtf (correctly rounded), __powf(r2, -1.5f) (a logarithm and an "
                     "exponential), or the fast inverse square root (0x5f3759df) with one or two "
                     "Newton steps (relative error 5e-3 and 1.4e-5 on r^-3)"),
      choice_tunable("layout", "tile layout", {"aos4", "aos3", "soa"}, 0,
                     "how bodies are staged: float4 x,y,z,m (one 16-byte load), float3 x,y,z "
                     "(12 bytes) with the masses beside, or one array per coordinate; aos3 and "
                     "soa copy the bodies into that layout before every force evaluation"),
      choice_tunable("masses", "masses from", {"inline", "const", "ldg"}, 0,
                     "where the inner loop reads the masses: the shared-memory tile, constant "
                     "memory (a broadcast; N up to 16,384) or the read-only data cache (__ldg); "
                     "const and ldg copy the masses apart before every force evaluation"),
      choice_tunable("ftz", "flush to zero", {"on", "off"}, 0,
                     "float arithmetic flushes subnormals to zero (on: -ftz=true, the default) "
                     "or keeps them (off: this kernel compiled without .ftz)")};
  k.create = [](const KernelInfo& info, const SimParams& p) -> std::unique_ptr<ForceBackend> {
    // unbuilt variant combinations are refused before any device work
    variant_of(info, p, p.precision);
    return make_device_backend<TiledBackend>(info, p.precision);
  };
  return k;
}

}  // namespace nbody::cuda
