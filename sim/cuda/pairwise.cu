// pairwise-atomic: one thread per pair (i, j) on a 2D grid, the N×N-thread kernel of seed 004
// §6. Seed 004 adds every pair's force with its own atomicAdd (§6(a), 0.11× the speed of its
// per-body kernel) or stores the N×N matrix and sums its rows in a second pass (§6(b), O(N²)
// memory: 64 GiB of float4 at N = 65,536). This kernel keeps §6(a)'s atomics, which need no
// extra memory, and first reduces inside the block: the 32 lanes of a warp share a target body
// and add with shuffles (reduce=warp, the default: one atomicAdd per component per 32 pairs);
// reduce=block also adds the warps of a row through shared memory (one per row of a block; at
// the default 32 × 8 shape a row is one warp, so this only adds a barrier: 1.35× slower on the
// H200), and reduce=none is §6(a) itself (one per pair: 10× slower than warp).
#include <memory>
#include <string>

#include "sim/core/error.hpp"
#include "sim/cuda/device_store.cuh"
#include "sim/cuda/kernel_rows.hpp"

namespace nbody::cuda {
namespace {

/// The largest N: N² threads (4.3e9 at 65,536), and as many atomics per component with
/// reduce=none; beyond it a step takes seconds where tiled takes milliseconds.
constexpr std::size_t kPairwiseMaxN = 65536;

enum class Reduce : int { Block, Warp, None };

// block: `rows` target bodies i, each with jw = blockDim.x / rows consecutive sources j (a
// multiple of 32, so a warp never spans two rows); grid: x over the rows of the targets
// [first, first + count), y over chunks of the sources (the ns massive bodies, stored first).
// Pairs past ns and i = j contribute 0 (interact's guard when eps = 0); 20 flops per pair.
template <typename T, bool Guard, Reduce R>
__global__ void __launch_bounds__(1024)
    pairwise_kernel(const Vec4<T>* __restrict__ pos, Vec4<T>* __restrict__ acc, int ns, int first,
                    int count, T eps2, T G, int rows) {
  extern __shared__ __align__(32) unsigned char smem[];
  const int jw = blockDim.x / rows;
  const int r = threadIdx.x / jw, c = threadIdx.x % jw;
  const int t = blockIdx.x * rows + r;
  const int i = first + t;
  const int j = blockIdx.y * jw + c;
  const bool target = t < count;
  T ax = 0, ay = 0, az = 0;
  if (target && j < ns) {
    const Vec4<T> pi = pos[i];
    interact<T, Guard>(pi.x, pi.y, pi.z, pos[j], eps2, ax, ay, az);
  }
  if constexpr (R == Reduce::None) {
    // one atomic per pair and component (seed 004 §6(a))
    if (target && j < ns) {
      atomicAdd(&acc[i].x, G * ax);
      atomicAdd(&acc[i].y, G * ay);
      atomicAdd(&acc[i].z, G * az);
    }
  } else {
    // the 32 lanes of a warp share i: add with shuffles
    for (int o = 16; o > 0; o >>= 1) {
      ax += __shfl_down_sync(0xffffffffu, ax, o);
      ay += __shfl_down_sync(0xffffffffu, ay, o);
      az += __shfl_down_sync(0xffffffffu, az, o);
    }
    const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
    if constexpr (R == Reduce::Warp) {
      if (lane == 0 && target) {
        atomicAdd(&acc[i].x, G * ax);
        atomicAdd(&acc[i].y, G * ay);
        atomicAdd(&acc[i].z, G * az);
      }
    } else {
      // the warps of a row through shared memory; every thread reaches the barrier
      T* s = reinterpret_cast<T*>(smem);
      if (lane == 0) {
        s[3 * warp] = ax;
        s[3 * warp + 1] = ay;
        s[3 * warp + 2] = az;
      }
      __syncthreads();
      if (c == 0 && target) {
        const int w0 = r * (jw / 32), w1 = w0 + jw / 32;
        T sx = 0, sy = 0, sz = 0;
        for (int w = w0; w < w1; ++w) {
          sx += s[3 * w];
          sy += s[3 * w + 1];
          sz += s[3 * w + 2];
        }
        atomicAdd(&acc[i].x, G * sx);
        atomicAdd(&acc[i].y, G * sy);
        atomicAdd(&acc[i].z, G * sz);
      }
    }
  }
}

template <typename T>
using PairwiseFn = void (*)(const Vec4<T>*, Vec4<T>*, int, int, int, T, T, int);

template <typename T, bool Guard>
PairwiseFn<T> pick(Reduce r) {
  switch (r) {
    case Reduce::Block:
      return pairwise_kernel<T, Guard, Reduce::Block>;
    case Reduce::Warp:
      return pairwise_kernel<T, Guard, Reduce::Warp>;
    default:
      return pairwise_kernel<T, Guard, Reduce::None>;
  }
}

void check_n(std::size_t n) {
  if (n > kPairwiseMaxN)
    fail("pairwise-atomic: N = ", n, " is above its limit of ", kPairwiseMaxN,
         " bodies (one thread per pair: N² threads, 4.3e9 at the limit); use tiled or tiled2d");
}

template <typename T>
class PairwiseBackend final : public DeviceForceKernel<T> {
 public:
  using DeviceForceKernel<T>::DeviceForceKernel;

  void check_size(std::size_t n) const override { check_n(n); }

  void forces(const SimParams& p, T G, T eps2, StepWork& work) override {
    DeviceStore<T>& st = this->store();
    check_n(st.size());
    const int B = this->row().int_value(p, "block_size");
    const int rows = this->row().int_value(p, "rows");
    check_block_size(B);
    if (B % (32 * rows) != 0)
      fail("pairwise-atomic: block_size ", B, " is not a multiple of 32 × rows (rows = ", rows,
           "): each row of a block needs whole warps");
    const int ns = static_cast<int>(st.n_sources()), first = static_cast<int>(st.first()),
              count = static_cast<int>(st.count());
    const int jw = B / rows;
    // grid x: ceil(count / rows) blocks of rows (launch() sizes x from n / block), y: chunks
    // of the sources
    LaunchShape shape{static_cast<std::size_t>((count + rows - 1) / rows) * B, B};
    shape.splits = (ns + jw - 1) / jw;
    shape.shared_bytes = 3 * sizeof(T) * static_cast<std::size_t>(B / 32);
    const auto reduce = static_cast<Reduce>(this->row().int_value(p, "reduce"));
    // the atomics add into this part's slice, zeroed first
    NBODY_CUDA_CHECK(cudaMemsetAsync(st.accelerations() + first, 0, sizeof(Vec4<T>) * count,
                                     st.context().stream));
    if (ns == 0) return;  // no source: zero accelerations
    launch(st.context(), "pairwise-atomic",
           needs_guard(eps2) ? pick<T, true>(reduce) : pick<T, false>(reduce), shape,
           st.positions(), st.accelerations(), ns, first, count, eps2, G, rows);
  }
};

}  // namespace

KernelInfo pairwise_row() {
  KernelInfo k;
  k.name = "pairwise-atomic";
  k.lesson = true;
  k.label = "GPU pairwise (atomics)";
  k.description =
      "one thread per pair (i, j) on a 2D grid; the terms of a target body are added across a "
      "warp with shuffles and into its acceleration with atomicAdd; N up to 65,536";
  k.gpu = true;
  k.supports_float = true;
  k.supports_double = true;
  k.flops_per_interaction = 20;
  k.tunables = {
      block_size_tunable(256),
      int_tunable("rows", "target bodies per block", 1, 32, 1, 8,
                  "target bodies i per block; each gets block_size / rows consecutive sources j "
                  "(a multiple of 32): 8 gives the 32 × 8 blocks of the N×N-thread report"),
      choice_tunable("reduce", "reduction", {"block", "warp", "none"}, 1,
                     "how the terms of a target body meet before atomicAdd: the whole row of "
                     "the block (shuffles + shared memory), each warp (shuffles), or none (one "
                     "atomicAdd per pair and component, as in the N×N-thread report)")};
  k.create = [](const KernelInfo& info, const SimParams& p) -> std::unique_ptr<ForceBackend> {
    return make_device_backend<PairwiseBackend>(info, p.precision);
  };
  return k;
}

}  // namespace nbody::cuda
