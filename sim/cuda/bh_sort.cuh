#pragma once
// The Barnes-Hut GPU kernel's sort: bounding cube, Morton keys, CUB's radix sort and the bodies
// gathered in key order. Included once, by sim/cuda/barnes_hut.cu, after its BarnesHutBackend
// class, inside its anonymous namespace.

// ---------------------------------------------------------------- bounding cube and keys

// stage 1: one box per block over a grid-stride slice of the bodies (sim/cuda/box.cuh; the
// integration's last drift may have done it already: DeviceStore::fresh_box)
template <typename T>
__global__ void __launch_bounds__(kBlock)
    box_partial_kernel(const Vec4<T>* __restrict__ pos, int n, Box* __restrict__ partial) {
  double lo[3], hi[3];
  empty_box(lo, hi);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    grow_box(lo, hi, pos[i]);
  write_block_box<kBlock>(lo, hi, partial);
}

// stage 2: one block joins the partial boxes into the enclosing cube
__global__ void __launch_bounds__(kBlock)
    box_final_kernel(const Box* __restrict__ partial, int parts, tree::Cube* cube) {
  double lo[3], hi[3];
  empty_box(lo, hi);
  for (int k = threadIdx.x; k < parts; k += blockDim.x)
    for (int a = 0; a < 3; ++a) {
      lo[a] = fmin(lo[a], partial[k].lo[a]);
      hi[a] = fmax(hi[a], partial[k].hi[a]);
    }
  block_box<kBlock>(lo, hi);
  if (threadIdx.x == 0) *cube = tree::enclosing_cube(lo[0], lo[1], lo[2], hi[0], hi[1], hi[2]);
}

// Morton key (in double) and the identity permutation: in index[i], or (index null) in the key's
// bits under `low` (below the digits that the sort orders)
template <typename T>
__global__ void __launch_bounds__(kBlock)
    keys_kernel(const Vec4<T>* __restrict__ pos, int n, const tree::Cube* __restrict__ cube,
                u64* __restrict__ keys, u32* __restrict__ index, u64 low) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const Vec4<T> p = pos[i];
  const u64 key = tree::morton_key(double(p.x), double(p.y), double(p.z), *cube);
  if (index) {
    keys[i] = key;
    index[i] = static_cast<u32>(i);
  } else {
    keys[i] = (key & ~low) | static_cast<u64>(i);
  }
}

// Bodies whose sorted digits are equal (a run: they share a cell below the tree's depth; the
// stable sort kept their input order, the last evaluation's) are put in the order of their whole
// keys, then of the user's indices, as a sort of every digit would put them, by
// DeviceStore::permute as it gathers them. So the order, and the tree and forces, are a function
// of the bodies alone, whatever depth the last tree let this sort stop at (a rewind that restores
// the bodies replays bitwise). A run longer than kTieRun (bodies piled on one point) keeps its
// order.
constexpr u32 kTieRun = 1024;

// bounding cube, keys, sort, and the bodies gathered in key order
template <typename T>
void BarnesHutBackend<T>::sort_bodies() {
  DeviceStore<T>& st = this->store();
  const std::size_t n = st.size();
  const Context& ctx = st.context();
  const int ni = static_cast<int>(n);
  box_parts_.reserve(kBoxParts);
  cube_.reserve(1);
  keys_in_.reserve(n);
  keys_.reserve(n);
  // kept for full sorts (no allocation inside a step: a peer may spin in a collective meanwhile)
  index_in_.reserve(n);
  perm_.reserve(n);
  int parts = 0;
  const Box* box = st.fresh_box(parts);
  if (!box) {
    parts = static_cast<int>(std::min<std::size_t>(kBoxParts, (n + kBlock - 1) / kBlock));
    launch(ctx, "bh_box", box_partial_kernel<T>, LaunchShape{std::size_t(parts) * kBlock, kBlock},
           st.positions(), ni, box_parts_.get());
    box = box_parts_.get();
  }
  launch(ctx, "bh_cube", box_final_kernel, LaunchShape{kBlock, kBlock}, box, parts, cube_.get());
  // stable radix sort of the key digits of levels 1..sort_levels_ (equal ones: kTieRun). Where the
  // indices fit below those digits they ride in the keys (a sort of keys alone moves 8 bytes a body
  // a pass instead of 12; the same order, bitwise)
  built_levels_ = sort_levels_;
  const int begin_bit = tree::digit_shift(built_levels_), end_bit = 3 * tree::kMaxLevel;
  const bool packed = tree::index_bits(n) <= begin_bit;
  const u64 low = (u64(1) << begin_bit) - 1;
  launch(ctx, "bh_keys", keys_kernel<T>, LaunchShape{n, kBlock}, st.positions(), ni, cube_.get(),
         keys_in_.get(), packed ? nullptr : index_in_.get(), low);
  const auto sort = [&](void* temp, std::size_t& bytes) {
    if (packed)
      NBODY_CUDA_CHECK(cub::DeviceRadixSort::SortKeys(temp, bytes, keys_in_.get(), keys_.get(), ni,
                                                      begin_bit, end_bit, ctx.stream));
    else
      NBODY_CUDA_CHECK(cub::DeviceRadixSort::SortPairs(temp, bytes, keys_in_.get(), keys_.get(),
                                                       index_in_.get(), perm_.get(), ni, begin_bit,
                                                       end_bit, ctx.stream));
  };
  std::size_t bytes = 0;
  sort(nullptr, bytes);
  temp_.reserve(bytes);
  bytes = temp_.size();
  sort(temp_.get(), bytes);
  st.permute(keys_.get(), packed ? nullptr : perm_.get(), low, cube_.get(), kTieRun);
}
