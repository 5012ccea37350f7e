// tiled2d: seed 000's 2D tiling, made to fill a GPU of 132 SMs at small N. The grid is 2D:
// x walks the target bodies (R = block_y bodies per thread, kept in registers, so every body
// loaded from shared memory feeds R interactions), y splits each body's j-sum into `luf` chunks
// of whole tiles. Each (x, y) block writes partial sums; a second pass adds them per body.
#include <algorithm>
#include <memory>

#include "sim/cuda/device_store.cuh"
#include "sim/cuda/kernel_rows.hpp"

#ifndef NBODY_TILED2D_UNROLL
#define NBODY_TILED2D_UNROLL 4
#endif

namespace nbody::cuda {
namespace {

// unroll of the tile loop (k)
constexpr int kTileUnroll = NBODY_TILED2D_UNROLL;

// the largest block an R-row kernel is built for: 1024 (64 registers a thread: float up to
// R = 8 fits without spills, double up to R = 2), else 512 (up to 128 registers: double R >= 3
// spills at 64)
template <typename T, int R>
constexpr int max_block() {
  return sizeof(T) == 4 || R <= 2 ? 1024 : 512;
}

// partial sums of R bodies per thread over the tiles of split blockIdx.y; the tiles cover the
// sources, the ns massive bodies stored first; a tile past ns is padded with massless bodies
// (contribute 0); 20 flops per interaction; one broadcast LDS of a tile body feeds R interactions
template <typename T, bool Guard, int R>
__global__ void __launch_bounds__(max_block<T, R>())
    tiled2d_kernel(const Vec4<T>* __restrict__ pos, Vec4<T>* __restrict__ out, int n, int ns,
                   int first, int count, T eps2, T G, int tiles_per_split) {
  extern __shared__ __align__(32) unsigned char smem[];
  Vec4<T>* tile = reinterpret_cast<Vec4<T>*>(smem);
  const int B = blockDim.x;
  // target bodies first + [0, count) (i counts from first), sources the ns massive bodies
  const int i0 = blockIdx.x * (R * B) + threadIdx.x;
  // this thread's R bodies, B apart so that loads and stores coalesce
  T px[R], py[R], pz[R], ax[R], ay[R], az[R];
#pragma unroll
  for (int r = 0; r < R; ++r) {
    const int i = i0 + r * B;
    const Vec4<T> p = i < count ? pos[first + i] : make_vec4<T>(0, 0, 0, 0);
    px[r] = p.x;
    py[r] = p.y;
    pz[r] = p.z;
    ax[r] = ay[r] = az[r] = 0;
  }
  // the tiles of this split; the range is the same for the whole block
  const int ntiles = (ns + B - 1) / B;
  const int t0 = blockIdx.y * tiles_per_split;
  const int t1 = min(ntiles, t0 + tiles_per_split);
  for (int t = t0; t < t1; ++t) {
    const int j = t * B + threadIdx.x;
    tile[threadIdx.x] = j < ns ? pos[j] : make_vec4<T>(0, 0, 0, 0);
    __syncthreads();
#pragma unroll kTileUnroll
    for (int k = 0; k < B; ++k) {
      const Vec4<T> pj = tile[k];
#pragma unroll
      for (int r = 0; r < R; ++r)
        interact<T, Guard>(px[r], py[r], pz[r], pj, eps2, ax[r], ay[r], az[r]);
    }
    __syncthreads();
  }
  // partial sums of split y go to out[y * count + i]
  Vec4<T>* dst = out + static_cast<std::size_t>(blockIdx.y) * count;
#pragma unroll
  for (int r = 0; r < R; ++r) {
    const int i = i0 + r * B;
    if (i < count) dst[i] = make_vec4<T>(G * ax[r], G * ay[r], G * az[r], T(0));
  }
}

// second pass: acc_i = sum over the splits of partial[s * n + i]
template <typename T>
__global__ void __launch_bounds__(1024)
    tiled2d_reduce_kernel(const Vec4<T>* __restrict__ partial, Vec4<T>* __restrict__ acc, int n,
                          int splits) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  T x = 0, y = 0, z = 0;
  for (int s = 0; s < splits; ++s) {
    const Vec4<T> a = partial[static_cast<std::size_t>(s) * n + i];
    x += a.x;
    y += a.y;
    z += a.z;
  }
  acc[i] = make_vec4<T>(x, y, z, T(0));
}

template <typename T>
using Tiled2dFn = void (*)(const Vec4<T>*, Vec4<T>*, int, int, int, int, T, T, int);

// rows 1..8; a block larger than the R-row kernel is built for runs the largest R that fits
template <typename T, bool Guard>
Tiled2dFn<T> pick_rows(int& rows, int block) {
  rows = std::clamp(rows, 1, 8);
  if (sizeof(T) == 8 && block > 512) rows = std::min(rows, 2);
  switch (rows) {
    case 1:
      return tiled2d_kernel<T, Guard, 1>;
    case 2:
      return tiled2d_kernel<T, Guard, 2>;
    case 3:
      return tiled2d_kernel<T, Guard, 3>;
    case 4:
      return tiled2d_kernel<T, Guard, 4>;
    case 5:
      return tiled2d_kernel<T, Guard, 5>;
    case 6:
      return tiled2d_kernel<T, Guard, 6>;
    case 7:
      return tiled2d_kernel<T, Guard, 7>;
    default:
      return tiled2d_kernel<T, Guard, 8>;
  }
}

template <typename T>
class Tiled2dBackend final : public DeviceForceKernel<T> {
 public:
  using DeviceForceKernel<T>::DeviceForceKernel;

  void forces(const SimParams& p, T G, T eps2, StepWork& work) override {
    DeviceStore<T>& st = this->store();
    const int n = static_cast<int>(st.size()), ns = static_cast<int>(st.n_sources());
    const int B = this->row().int_value(p, "block_size");
    check_block_size(B);
    if (n == 0) return;
    // bodies per thread: block_y; 0 = 3 in double (2 at block 1024), in float 4 (1 below
    // 8192 target bodies, where more threads beat register reuse; 5..8 measured slower: 64
    // registers at most under __launch_bounds__(1024)); all measured on the H200
    const std::size_t targets = st.count();
    int rows = this->row().int_value(p, "block_y") > 0 ? this->row().int_value(p, "block_y")
                                                       : (sizeof(T) == 8   ? 3
                                                          : targets < 8192 ? 1
                                                                           : 4);
    const Tiled2dFn<T> fn =
        needs_guard(eps2) ? pick_rows<T, true>(rows, B) : pick_rows<T, false>(rows, B);
    // the targets: this GPU's slice [first, first + count)
    const int first = static_cast<int>(st.first()), count = static_cast<int>(st.count());
    if (count == 0) return;
    LaunchShape shape{st.count(), B, rows};
    shape.shared_bytes = sizeof(Vec4<T>) * B;
    // j-splits: luf, 0 = enough blocks for about two full waves; rounded to whole tiles of the
    // sources
    const int ntiles = std::max(1, (ns + B - 1) / B);
    int splits = this->row().int_value(p, "luf") > 0 ? this->row().int_value(p, "luf")
                                                     : auto_splits(fn, shape, ntiles);
    splits = std::clamp(splits, 1, ntiles);
    const int tiles_per_split = (ntiles + splits - 1) / splits;
    splits = (ntiles + tiles_per_split - 1) / tiles_per_split;
    shape.splits = splits;
    last_splits_ = splits;
    if (splits == 1) {
      launch(st.context(), "tiled2d", fn, shape, st.positions(), st.accelerations() + first, n, ns,
             first, count, eps2, G, tiles_per_split);
      return;
    }
    partial_.resize(static_cast<std::size_t>(splits) * st.count());
    launch(st.context(), "tiled2d", fn, shape, st.positions(), partial_.get(), n, ns, first, count,
           eps2, G, tiles_per_split);
    launch(st.context(), "tiled2d_reduce", tiled2d_reduce_kernel<T>, LaunchShape{st.count(), 256},
           partial_.get(), st.accelerations() + first, count, splits);
  }

 private:
  // j-splits (measured on the H200, see docs/PERFORMANCE.md): at least ~6 waves of resident
  // blocks so that small N fills the GPU; then up to ~64 waves, since the last, partly filled
  // wave costs up to one block's time (+3-4% at N = 262k..1M going from 6 to 60 waves), as long
  // as the second pass stays cheap: splits <= N / 2048 keeps its read of the partial sums under
  // ~0.3% of the step, and the partial sums under 1 GiB
  int auto_splits(Tiled2dFn<T> fn, const LaunchShape& shape, long long ntiles) {
    DeviceStore<T>& st = this->store();
    if (fn != occ_fn_ || shape.block != occ_block_) {
      int per_sm = 0;
      NBODY_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, fn, shape.block,
                                                                     shape.shared_bytes));
      occ_fn_ = fn;
      occ_block_ = shape.block;
      resident_ = std::max(1, per_sm) * device_properties().multiProcessorCount;
    }
    // shape.n targets (this GPU's slice), n sources
    const long long n = static_cast<long long>(st.size()),
                    targets = static_cast<long long>(shape.n);
    const long long bx = grid_x(shape);
    const long long fill = (6LL * resident_ + bx - 1) / bx;
    const long long tail = (64LL * resident_ + bx - 1) / bx;
    const long long cheap =
        std::min(n / 2048, (1LL << 30) / (targets * static_cast<long long>(sizeof(Vec4<T>))));
    return static_cast<int>(std::min({65535LL, ntiles, std::max(fill, std::min(tail, cheap))}));
  }

  DeviceBuffer<Vec4<T>> partial_;
  Tiled2dFn<T> occ_fn_ = nullptr;
  int occ_block_ = 0;
  int resident_ = 1;
  int last_splits_ = 1;
};

}  // namespace

KernelInfo tiled2d_row() {
  KernelInfo k;
  k.name = "tiled2d";
  k.label = "GPU 2D-tiled (split j)";
  k.description =
      "2D grid: each body's sum split into chunks computed by different blocks, several bodies "
      "per thread, partial sums added in a second pass; fills the GPU even at small N";
  k.gpu = true;
  k.supports_float = true;
  k.supports_double = true;
  k.flops_per_interaction = 20;
  k.tunables = {
      block_size_tunable(256),
      int_tunable("block_y", "bodies per thread", 0, 8, 1, 0,
                  "rows of target bodies per block, i.e. bodies per thread kept in registers "
                  "(0 = auto: float 4, or 1 below N = 8192; double 3, 2 at block 1024)"),
      int_tunable(
          "luf", "j-splits", 0, 256, 1, 0,
          "partial sums per body: the j range is split into this many chunks of whole "
          "tiles, added in a second pass (0 = auto: 6 to 64 waves of blocks, N / 2048 at most "
          "beyond 6)")};
  k.create = [](const KernelInfo& info, const SimParams& p) -> std::unique_ptr<ForceBackend> {
    return make_device_backend<Tiled2dBackend>(info, p.precision);
  };
  return k;
}

}  // namespace nbody::cuda
