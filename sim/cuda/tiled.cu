// tiled: one thread per body, bodies staged through shared memory one tile (= one block) at a
// time, unrolled inner loop, rsqrt (GPU Gems 3 ch. 31; seeds 000 GPU1, 001, 002, 003).
#include <memory>

#include "sim/cuda/gpu_backend.cuh"
#include "sim/cuda/kernel_rows.hpp"

namespace nbody::cuda {
namespace {

// each block walks the tiles of the sources (the ns massive bodies, stored first); a tile past ns
// is padded with massless bodies, which contribute
// exactly 0 (interact's guard covers eps = 0); 20 flops per interaction. With Blocked each tile
// sums on its own and then joins the total, so a float sum of N terms loses ~sqrt(N / B) +
// sqrt(B) ulps rather than ~sqrt(N): used at large N, where the single running sum would pass
// 1e-5 (it costs 2-3% there, and 18% at N = 16k, so small N keeps the plain sum)
template <typename T, bool Guard, int Unroll, bool Blocked>
__global__ void __launch_bounds__(1024)
    tiled_kernel(const Vec4<T>* __restrict__ pos, Vec4<T>* __restrict__ acc, int n, int ns,
                 int first, int count, T eps2, T G) {
  extern __shared__ __align__(32) unsigned char smem[];
  Vec4<T>* tile = reinterpret_cast<Vec4<T>*>(smem);
  // target bodies [first, first + count), sources all n
  const int t = blockIdx.x * blockDim.x + threadIdx.x;
  const int i = first + t;
  const Vec4<T> pi = t < count ? pos[i] : make_vec4<T>(0, 0, 0, 0);
  T ax = 0, ay = 0, az = 0;
  for (int base = 0; base < ns; base += blockDim.x) {
    // every thread of the block reaches both barriers
    const int j = base + threadIdx.x;
    tile[threadIdx.x] = j < ns ? pos[j] : make_vec4<T>(0, 0, 0, 0);
    __syncthreads();
    if constexpr (Blocked) {
      T tx = 0, ty = 0, tz = 0;
#pragma unroll Unroll
      for (int k = 0; k < blockDim.x; ++k)
        interact<T, Guard>(pi.x, pi.y, pi.z, tile[k], eps2, tx, ty, tz);
      ax += tx;
      ay += ty;
      az += tz;
    } else {
#pragma unroll Unroll
      for (int k = 0; k < blockDim.x; ++k)
        interact<T, Guard>(pi.x, pi.y, pi.z, tile[k], eps2, ax, ay, az);
    }
    __syncthreads();
  }
  if (t < count) acc[i] = make_vec4<T>(G * ax, G * ay, G * az, T(0));
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

template <typename T>
class TiledBackend final : public GpuBackend<T> {
 public:
  using GpuBackend<T>::GpuBackend;

 protected:
  void forces(const SimParams& p, T G, T eps2) override {
    LaunchShape shape{this->count(), this->info_.int_value(p, "block_size")};
    shape.shared_bytes = sizeof(Vec4<T>) * this->info_.int_value(p, "block_size");
    const int n = static_cast<int>(this->n_), ns = static_cast<int>(this->n_sources_),
              first = static_cast<int>(this->first()), count = static_cast<int>(this->count());
    if (!needs_guard(eps2))
      launch(this->ctx_, "tiled", pick<T, false>(this->info_.int_value(p, "unroll"), this->n_),
             shape, this->pos_.get(), this->acc_.get(), n, ns, first, count, eps2, G);
    else
      launch(this->ctx_, "tiled", pick<T, true>(this->info_.int_value(p, "unroll"), this->n_),
             shape, this->pos_.get(), this->acc_.get(), n, ns, first, count, eps2, G);
  }
};

}  // namespace

KernelInfo tiled_row() {
  KernelInfo k;
  k.name = "tiled";
  k.label = "GPU tiled (shared memory)";
  k.description = "one thread per body, bodies staged through shared-memory tiles (GPU Gems 3)";
  k.gpu = true;
  k.supports_float = true;
  k.supports_double = true;
  k.flops_per_interaction = 20;
  k.tunables = {block_size_tunable(256),
                int_tunable("unroll", "unroll", 1, 8, 1, 8,
                            "unroll factor of the loop over a shared-memory tile")};
  k.create = [](const KernelInfo& info, const SimParams& p) -> std::unique_ptr<ForceBackend> {
    if (p.precision == Precision::Double) return std::make_unique<TiledBackend<double>>(info);
    return std::make_unique<TiledBackend<float>>(info);
  };
  return k;
}

}  // namespace nbody::cuda
