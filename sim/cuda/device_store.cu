// The device body store: kicks, drifts, 1PN, rigid halos, device output and activity map
// around a GPU force kernel (see device_store.cuh).
#include "sim/cuda/device_store.cuh"

#include <algorithm>
#include <cmath>

#include "sim/core/error.hpp"
#include "sim/cuda/map_binning.hpp"
#include "sim/forces/external_field.hpp"
#include "sim/forces/post_newtonian.hpp"
#include "sim/integrators/integrator.hpp"
#include "sim/tree/tree_math.hpp"

namespace nbody::cuda {

void check_block_size(int block, const char* what) {
  if (block < 32 || block > 1024 || block % 32 != 0)
    fail(what, ": ", block, " is not a valid CUDA block size (allowed: 32, 64, ..., 1024)");
}

const cudaDeviceProp& device_properties() {
  static const cudaDeviceProp prop = [] {
    cudaDeviceProp p{};
    int dev = 0;
    NBODY_CUDA_CHECK(cudaGetDevice(&dev));
    NBODY_CUDA_CHECK(cudaGetDeviceProperties(&p, dev));
    return p;
  }();
  return prop;
}

void check_tunables(const KernelInfo& info, const SimParams& p) {
  for (const Tunable& t : info.tunables) {
    const double v = info.value(p, t.key);
    if (!t.valid(v))
      fail(t.key, ": ", t.format(v), " is not valid for kernel '", info.name,
           "' (allowed: ", t.allowed(), ")");
  }
}

int current_device() {
  int dev = 0;
  NBODY_CUDA_CHECK(cudaGetDevice(&dev));
  return dev;
}

namespace {

constexpr int kBlock = 256;

// adds to `a` the 1PN acceleration of body (p, v) relative to the dominant body (dom[0]
// position and mass, dom[1] velocity, dom[2] acceleration), both velocities taken half-way
// through the kick; the dominant body itself (r = 0) gets none
template <typename T>
__device__ __forceinline__ void add_post_newtonian(const Vec4<T>& p, const Vec4<T>& v, Vec4<T>& a,
                                                   const Vec4<T>* __restrict__ dom, T kick, T G,
                                                   T inv_c2) {
  const T h = T(0.5) * kick;
  const Vec4<T> sp = dom[0], sv = dom[1], sa = dom[2];
  T px, py, pz;
  post_newtonian_accel<T>(p.x - sp.x, p.y - sp.y, p.z - sp.z, v.x + h * a.x - (sv.x + h * sa.x),
                          v.y + h * a.y - (sv.y + h * sa.y), v.z + h * a.z - (sv.z + h * sa.z),
                          G * sp.w, inv_c2, px, py, pz);
  a.x += px;
  a.y += py;
  a.z += pz;
}

// one body's kick and drift: v += kick a, then p += drift v (each an fma, in this order)
template <typename T>
__device__ __forceinline__ void kick_drift_body(Vec4<T>& p, Vec4<T>& v, const Vec4<T>& a, T kick,
                                                T drift) {
  v.x = fma(a.x, kick, v.x);
  v.y = fma(a.y, kick, v.y);
  v.z = fma(a.z, kick, v.z);
  p.x = fma(v.x, drift, p.x);
  p.y = fma(v.y, drift, p.y);
  p.z = fma(v.z, drift, p.z);
}

// kick velocities by `kick` and drift positions by `drift` (one body per thread); with `dom`
// the kick includes the 1PN term
// (grid-stride; with `box`, each block also writes the bounding box of the positions it drifted
// into box[blockIdx.x]: sim/cuda/box.cuh, for a force kernel that wants it)
template <typename T>
__global__ void __launch_bounds__(kBlock)
    kick_drift_kernel(Vec4<T>* __restrict__ pos, Vec4<T>* __restrict__ vel,
                      const Vec4<T>* __restrict__ acc, int n, T kick, T drift,
                      const Vec4<T>* __restrict__ dom, T G, T inv_c2, Box* __restrict__ box) {
  double lo[3], hi[3];
  empty_box(lo, hi);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    Vec4<T> p = pos[i], v = vel[i];
    Vec4<T> a = acc[i];
    if (dom) add_post_newtonian(p, v, a, dom, kick, G, inv_c2);
    kick_drift_body(p, v, a, kick, drift);
    pos[i] = p;
    vel[i] = v;
    if (box) grow_box(lo, hi, p);
  }
  if (box) write_block_box<kBlock>(lo, hi, box);
}

// kick_drift_kernel twice (without the 1PN term) in one pass over the bodies: the same
// operations in the same order, so the same bits (drift1 is a parameter, usually 0, so that
// its fma is kept as the separate pass has it), for 80 bytes a body instead of 160
template <typename T>
__global__ void __launch_bounds__(kBlock)
    kick_drift_twice_kernel(Vec4<T>* __restrict__ pos, Vec4<T>* __restrict__ vel,
                            const Vec4<T>* __restrict__ acc, int n, T kick1, T drift1, T kick2,
                            T drift2, Box* __restrict__ box) {
  double lo[3], hi[3];
  empty_box(lo, hi);
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    Vec4<T> p = pos[i], v = vel[i];
    const Vec4<T> a = acc[i];
    kick_drift_body(p, v, a, kick1, drift1);
    kick_drift_body(p, v, a, kick2, drift2);
    pos[i] = p;
    vel[i] = v;
    if (box) grow_box(lo, hi, p);
  }
  if (box) write_block_box<kBlock>(lo, hi, box);
}

// last half kick of a step() call (none when acc is null); also writes the interop output when
// given, in the user's order (through `order` when the bodies are kept sorted)
template <typename T>
__global__ void __launch_bounds__(1024)
    kick_output_kernel(const Vec4<T>* __restrict__ pos, Vec4<T>* __restrict__ vel,
                       const Vec4<T>* __restrict__ acc, int n, T kick, float4* out_pos,
                       float* out_speed, const std::uint32_t* __restrict__ order,
                       const Vec4<T>* __restrict__ dom, T G, T inv_c2) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  const int i = k;
  const int o = order ? static_cast<int>(order[k]) : k;
  Vec4<T> v = vel[i];
  // no acc: the output alone (the accelerations may not be computed for every body)
  if (acc) {
    Vec4<T> a = acc[i];
    if (dom) add_post_newtonian(pos[i], v, a, dom, kick, G, inv_c2);
    v.x = fma(a.x, kick, v.x);
    v.y = fma(a.y, kick, v.y);
    v.z = fma(a.z, kick, v.z);
    vel[i] = v;
  }
  if (out_pos) {
    const Vec4<T> p = pos[i];
    out_pos[o] = make_float4(float(p.x), float(p.y), float(p.z), float(p.w));
  }
  if (out_speed) out_speed[o] = float(sqrt(v.x * v.x + v.y * v.y + v.z * v.z));
}

// 1PN: the dominant body's position, velocity and acceleration into dom[0..2] (the thread of
// the stored body whose user index is `user`)
template <typename T>
__global__ void __launch_bounds__(1024)
    snapshot_kernel(const Vec4<T>* __restrict__ pos, const Vec4<T>* __restrict__ vel,
                    const Vec4<T>* __restrict__ acc, const std::uint32_t* __restrict__ order, int n,
                    std::uint32_t user, Vec4<T>* __restrict__ dom) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  if ((order ? order[k] : static_cast<std::uint32_t>(k)) != user) return;
  dom[0] = pos[k];
  dom[1] = vel[k];
  dom[2] = acc[k];
}

// Stored position k of the sorted words `keys` holds old body perm[k], or keys[k] & low where
// perm is null (the indices ride in the keys). Where a run of them shares the bits above `low` (a
// cell of the sorted depth; the stable sort left them in their old order): the position that
// body k takes in the run, in the order of the bodies' whole Morton keys (keys[] with perm, else
// from their positions in `cube`), then of their user indices, as a sort of every digit would put
// them: the count of the run's bodies before it. A run longer than max_run (bodies piled on one
// point) keeps its order. Each body of a run reads the run; runs are short.
template <typename T>
__device__ __noinline__ std::uint32_t tie_place(
    std::uint32_t k, std::uint64_t digits, const std::uint64_t* __restrict__ keys,
    const std::uint32_t* __restrict__ perm, std::uint64_t low, std::uint32_t n,
    std::uint32_t max_run, const Vec4<T>* __restrict__ pos, const std::uint32_t* __restrict__ order,
    bool ordered, const tree::Cube& cube) {
  // a word max_run away with the same digits: the run is longer (keys are sorted; a pile of
  // bodies on one point costs each of them two reads, not a walk)
  if ((k >= max_run && (keys[k - max_run] & ~low) == digits) ||
      (k + max_run < n && (keys[k + max_run] & ~low) == digits))
    return k;
  std::uint32_t s = k, e = k + 1;
  while (s > 0 && (keys[s - 1] & ~low) == digits) {
    --s;
    if (e - s > max_run) return k;
  }
  while (e < n && (keys[e] & ~low) == digits) {
    ++e;
    if (e - s > max_run) return k;
  }
  const auto body = [&](std::uint32_t m) {
    return perm ? perm[m] : static_cast<std::uint32_t>(keys[m] & low);
  };
  const auto whole = [&](std::uint32_t m) {
    if (perm) return keys[m];
    const Vec4<T> p = pos[body(m)];
    return tree::morton_key(double(p.x), double(p.y), double(p.z), cube);
  };
  const auto user = [&](std::uint32_t i) { return ordered ? order[i] : i; };
  const std::uint64_t w = whole(k);
  const std::uint32_t u = user(body(k));
  std::uint32_t before = 0;
  for (std::uint32_t m = s; m < e; ++m) {
    if (m == k) continue;
    const std::uint64_t wm = whole(m);
    before += wm < w || (wm == w && user(body(m)) < u);
  }
  return s + before;
}

// the bodies gathered in the order of the sorted words (see tie_place): positions, velocities
// and the user's order
template <typename T>
__global__ void __launch_bounds__(1024)
    permute_kernel(const Vec4<T>* __restrict__ pos, const Vec4<T>* __restrict__ vel,
                   const std::uint32_t* __restrict__ order, const std::uint64_t* __restrict__ keys,
                   const std::uint32_t* __restrict__ perm, std::uint64_t low,
                   const tree::Cube* __restrict__ cube, std::uint32_t max_run, int n, bool ordered,
                   Vec4<T>* __restrict__ pos_out, Vec4<T>* __restrict__ vel_out,
                   std::uint32_t* __restrict__ order_out) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  const std::uint64_t word = keys[k], digits = word & ~low;
  const auto j = perm ? perm[k] : static_cast<std::uint32_t>(word & low);
  std::uint32_t at = static_cast<std::uint32_t>(k);
  if ((k > 0 && (keys[k - 1] & ~low) == digits) || (k + 1 < n && (keys[k + 1] & ~low) == digits))
    at = tie_place<T>(at, digits, keys, perm, low, static_cast<std::uint32_t>(n), max_run, pos,
                      order, ordered, *cube);
  pos_out[at] = pos[j];
  vel_out[at] = vel[j];
  order_out[at] = ordered ? order[j] : j;
}

// bin every body into the D x D grid with global atomics
template <typename T>
__global__ void __launch_bounds__(1024)
    map_bin_kernel(const Vec4<T>* __restrict__ pos, int n, MapBinning b, unsigned* counts,
                   unsigned* stats) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const Vec4<T> p = pos[i];
  const int c = map_cell(b, double(p.x), double(p.y), double(p.z));
  if (c >= 0) atomicAdd(&counts[c], 1u);
}

// largest count of the grid
__global__ void __launch_bounds__(1024)
    map_max_kernel(const unsigned* counts, int cells, unsigned* stats) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= cells) return;
  const unsigned c = counts[i];
  if (c) atomicMax(&stats[0], c);
}

// normalise counts into the image
__global__ void __launch_bounds__(1024)
    map_normalise_kernel(const unsigned* counts, int cells, const unsigned* stats, int scale,
                         float* image) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= cells) return;
  image[i] = map_value(counts[i], stats[0], scale);
}

// ---- rigid halos (sim/forces/external_field.hpp): the same halo_field() and anchor_accel() as the
// CPU

// the user's indices of the halos' anchors (by value)
struct Anchors {
  std::uint32_t user[kMaxRigidHalos];
  int count;
};

// where each anchor is stored now (tree kernels reorder the bodies)
__global__ void __launch_bounds__(1024)
    locate_anchors_kernel(const std::uint32_t* __restrict__ order, int n, Anchors a,
                          int* __restrict__ idx) {
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k >= n) return;
  const std::uint32_t u = order ? order[k] : static_cast<std::uint32_t>(k);
  for (int h = 0; h < a.count; ++h)
    if (u == a.user[h]) idx[h] = k;
}

constexpr int kFieldBlock = 256;
constexpr int kReact = 3 * kMaxRigidHalos;

// adds every halo's field to acc[first, first + n); each block writes its sums of mass times
// each halo's pull into partial[block * kReact + ...] (summed in a fixed order afterwards)
template <typename T>
__global__ void __launch_bounds__(kFieldBlock)
    external_field_kernel(const Vec4<T>* __restrict__ pos, Vec4<T>* __restrict__ acc, int first,
                          int n, ExternalField f, const int* __restrict__ idx,
                          double* __restrict__ partial) {
  __shared__ double centre[kReact];
  __shared__ double warp_sum[kFieldBlock / 32][kReact];
  if (threadIdx.x < f.count) {
    const Vec4<T> c = pos[idx[threadIdx.x]];
    centre[3 * threadIdx.x] = c.x;
    centre[3 * threadIdx.x + 1] = c.y;
    centre[3 * threadIdx.x + 2] = c.z;
  }
  __syncthreads();
  const int k = blockIdx.x * blockDim.x + threadIdx.x;
  double r[kReact];
  for (int j = 0; j < kReact; ++j)
    r[j] = 0;
  if (k < n) {
    const int i = first + k;
    const Vec4<T> p = pos[i];
    double sx = 0, sy = 0, sz = 0;
    for (int h = 0; h < f.count; ++h) {
      double gx = 0, gy = 0, gz = 0;
      halo_field(f.shape[h], f.gm[h], double(p.x) - centre[3 * h], double(p.y) - centre[3 * h + 1],
                 double(p.z) - centre[3 * h + 2], gx, gy, gz);
      sx += gx;
      sy += gy;
      sz += gz;
      r[3 * h] = double(p.w) * gx;
      r[3 * h + 1] = double(p.w) * gy;
      r[3 * h + 2] = double(p.w) * gz;
    }
    Vec4<T> a = acc[i];
    a.x = T(double(a.x) + sx);
    a.y = T(double(a.y) + sy);
    a.z = T(double(a.z) + sz);
    acc[i] = a;
  }
  // the block's reaction sums: warps by shuffles, then the warps in order
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  for (int j = 0; j < 3 * f.count; ++j) {
    double v = r[j];
    for (int off = 16; off > 0; off >>= 1)
      v += __shfl_down_sync(0xffffffffu, v, off);
    if (lane == 0) warp_sum[warp][j] = v;
  }
  __syncthreads();
  if (threadIdx.x < 3 * f.count) {
    double v = 0;
    for (int w = 0; w < kFieldBlock / 32; ++w)
      v += warp_sum[w][threadIdx.x];
    partial[static_cast<std::size_t>(blockIdx.x) * kReact + threadIdx.x] = v;
  }
}

// one block: sums the blocks' reaction sums in a fixed order and sets the anchors'
// accelerations (the reaction and the other halos' pull)
template <typename T>
__global__ void __launch_bounds__(kFieldBlock)
    anchor_accel_kernel(const Vec4<T>* __restrict__ pos, Vec4<T>* __restrict__ acc, ExternalField f,
                        const int* __restrict__ idx, const double* __restrict__ partial,
                        int blocks) {
  __shared__ double sum[kFieldBlock][kReact];
  __shared__ double cx[kMaxRigidHalos], cy[kMaxRigidHalos], cz[kMaxRigidHalos];
  const int t = threadIdx.x;
  for (int j = 0; j < kReact; ++j) {
    double v = 0;
    for (int b = t; b < blocks; b += kFieldBlock)
      v += partial[static_cast<std::size_t>(b) * kReact + j];
    sum[t][j] = v;
  }
  if (t < f.count) {
    const Vec4<T> c = pos[idx[t]];
    cx[t] = c.x;
    cy[t] = c.y;
    cz[t] = c.z;
  }
  __syncthreads();
  for (int s = kFieldBlock / 2; s > 0; s >>= 1) {
    if (t < s)
      for (int j = 0; j < kReact; ++j)
        sum[t][j] += sum[t + s][j];
    __syncthreads();
  }
  if (t < f.count) {
    double ax, ay, az;
    anchor_accel(f, t, cx, cy, cz, sum[0][3 * t], sum[0][3 * t + 1], sum[0][3 * t + 2], ax, ay, az);
    Vec4<T> a = acc[idx[t]];
    a.x = T(ax);
    a.y = T(ay);
    a.z = T(az);
    acc[idx[t]] = a;
  }
}

}  // namespace

template <typename T>
DeviceStore<T>::DeviceStore(const KernelInfo& info, std::unique_ptr<DeviceForceKernel<T>> kernel)
    : info_(info) {
  // touch the device now so that a missing one is reported at creation
  device_properties();
  stream_ = Stream::create();
  ctx_ = {current_device(), stream_.get()};
  kernel_ = std::move(kernel);
  kernel_->store_ = this;
}

template <typename T>
void DeviceStore<T>::permute(const std::uint64_t* keys, const std::uint32_t* perm,
                             std::uint64_t low, const tree::Cube* cube, std::uint32_t max_run) {
  if (n_ == 0) return;
  scratch_.reserve(n_);
  order_scratch_.reserve(n_);
  order_.reserve(n_);
  // the velocities go into acc_ (free until forces() fill it), or their own scratch when the
  // accelerations are pinned
  if (pinned_acc_) vel_scratch_.reserve(n_);
  DeviceBuffer<V4>& vel_out = pinned_acc_ ? vel_scratch_ : acc_;
  launch(ctx_, "permute", permute_kernel<T>, LaunchShape{n_, kBlock}, pos_.get(), vel_.get(),
         order_.get(), keys, perm, low, cube, max_run, static_cast<int>(n_), ordered_,
         scratch_.get(), vel_out.get(), order_scratch_.get());
  std::swap(pos_, scratch_);
  std::swap(vel_, vel_out);
  std::swap(order_, order_scratch_);
  ordered_ = true;
}

template <typename T>
void DeviceStore<T>::set_bodies(const Bodies& b) {
  kernel_->check_size(b.size());
  box_fresh_ = false;
  n_ = b.size();
  if (n_ > static_cast<std::size_t>(1) << 30) fail(info_.name, ": N = ", n_, " is too large");
  // sources first: the heaviest body, the other massive ones, then the massless
  std::size_t heaviest = 0;
  const std::vector<std::uint32_t> perm = sources_first(b, n_sources_, heaviest);
  bool identity = true;
  for (std::size_t k = 0; k < n_ && identity; ++k)
    identity = perm[k] == k;
  dominant_user_ = static_cast<std::uint32_t>(heaviest);
  std::vector<V4> pos(n_), vel(n_);
  for (std::size_t k = 0; k < n_; ++k) {
    const std::size_t i = perm[k];
    pos[k] = make_vec4<T>(T(b.x[i]), T(b.y[i]), T(b.z[i]), T(b.m[i]));
    vel[k] = make_vec4<T>(T(b.vx[i]), T(b.vy[i]), T(b.vz[i]), T(0));
  }
  pos_.resize(n_);
  vel_.resize(n_);
  acc_.resize(n_);
  pos_.upload(pos.data(), n_, ctx_.stream);
  vel_.upload(vel.data(), n_, ctx_.stream);
  ordered_ = !identity;
  if (ordered_) {
    order_.resize(n_);
    order_.upload(perm.data(), n_, ctx_.stream);
  }
  component_ = b.component;
  halos_ = b.halos;
  acc_valid_ = false;
  work_ = {};
  kernel_->bodies_changed(b);
  if (out_.positions || out_.speed) write_output();
}

template <typename T>
void DeviceStore<T>::get_bodies(Bodies& b) const {
  std::vector<V4> pos(n_), vel(n_);
  std::vector<std::uint32_t> order(ordered_ ? n_ : 0);
  pos_.download(pos.data(), n_, ctx_.stream);
  vel_.download(vel.data(), n_, ctx_.stream);
  if (ordered_) order_.download(order.data(), n_, ctx_.stream);
  if (b.size() != n_) b.resize(n_);
  // in the user's order
  for (std::size_t k = 0; k < n_; ++k) {
    const std::size_t i = ordered_ ? order[k] : k;
    b.x[i] = pos[k].x;
    b.y[i] = pos[k].y;
    b.z[i] = pos[k].z;
    b.m[i] = pos[k].w;
    b.vx[i] = vel[k].x;
    b.vy[i] = vel[k].y;
    b.vz[i] = vel[k].z;
  }
  if (component_.size() == n_) b.component = component_;
  b.halos = halos_;
}

template <typename T>
bool DeviceStore<T>::ensure_accelerations(const SimParams& p) {
  if (acc_valid_ && acc_G_ == p.G && acc_eps_ == p.softening) return false;
  run_forces(p);
  acc_valid_ = true;
  acc_G_ = p.G;
  acc_eps_ = p.softening;
  return true;
}

template <typename T>
void DeviceStore<T>::run_forces(const SimParams& p) {
  // the forces on the targets (every body, or this GPU's slice of them: the kernel's multi-GPU
  // wrapper gathers the others') from the massive bodies (massless ones pull on nothing)
  const double sources = static_cast<double>(n_sources_);
  work_ = {static_cast<double>(count()) * sources,
           info_.flops(sizeof(T) == 8 ? Precision::Double : Precision::Float),
           {},
           {}};
  kernel_->forces(p, T(p.G), T(p.softening * p.softening), work_);
  box_fresh_ = false;  // the next forces() take the box from a drift again, or make it
  // the rigid halos' field, after every kernel's own forces (sim/forces/external_field.hpp)
  if (!halos_.empty()) external_field(p);
}

template <typename T>
void DeviceStore<T>::external_field(const SimParams& p) {
  const ExternalField f = make_external_field(halos_, p.G);
  Anchors a{};
  a.count = f.count;
  for (int h = 0; h < f.count; ++h)
    a.user[h] = halos_[h].anchor;
  anchor_idx_.reserve(kMaxRigidHalos);
  launch(ctx_, "locate_anchors", locate_anchors_kernel, LaunchShape{n_, kBlock},
         ordered_ ? order_.get() : nullptr, static_cast<int>(n_), a, anchor_idx_.get());
  const LaunchShape shape{n_, kFieldBlock};
  const int blocks = static_cast<int>(grid_x(shape));
  react_.reserve(static_cast<std::size_t>(blocks) * kReact);
  launch(ctx_, "external_field", external_field_kernel<T>, shape, pos_.get(), acc_.get(), 0,
         static_cast<int>(n_), f, anchor_idx_.get(), react_.get());
  launch(ctx_, "anchor_accel", anchor_accel_kernel<T>, LaunchShape{kFieldBlock, kFieldBlock},
         pos_.get(), acc_.get(), f, anchor_idx_.get(), react_.get(), blocks);
}

template <typename T>
void DeviceStore<T>::compute_accelerations(const SimParams& p, std::vector<double>& ax,
                                           std::vector<double>& ay, std::vector<double>& az) {
  prepare_accelerations(p);
  read_accelerations(ax, ay, az);
}

template <typename T>
void DeviceStore<T>::prepare_accelerations(const SimParams& p) {
  check_tunables(info_, p);
  acc_valid_ = false;
  if (n_ == 0) return;
  ensure_accelerations(p);
  NBODY_CUDA_CHECK(cudaStreamSynchronize(ctx_.stream));
  if (kernel_->collect(work_)) {
    // the tree outgrew its room (the forces are right, its structure cut short): once more
    acc_valid_ = false;
    ensure_accelerations(p);
    NBODY_CUDA_CHECK(cudaStreamSynchronize(ctx_.stream));
    kernel_->collect(work_);
  }
}

template <typename T>
void DeviceStore<T>::read_accelerations(std::vector<double>& ax, std::vector<double>& ay,
                                        std::vector<double>& az) const {
  std::vector<V4> acc(n_);
  std::vector<std::uint32_t> order(ordered_ ? n_ : 0);
  ax.resize(n_);
  ay.resize(n_);
  az.resize(n_);
  acc_.download(acc.data(), n_, ctx_.stream);
  if (ordered_) order_.download(order.data(), n_, ctx_.stream);
  // in the user's order
  for (std::size_t k = 0; k < n_; ++k) {
    const std::size_t i = ordered_ ? order[k] : k;
    ax[i] = acc[k].x;
    ay[i] = acc[k].y;
    az[i] = acc[k].z;
  }
}

template <typename T>
const typename DeviceStore<T>::V4* DeviceStore<T>::snapshot_dominant(const SimParams& p) {
  if (!p.post_newtonian) return nullptr;
  dominant_.reserve(3);
  launch(ctx_, "snapshot", snapshot_kernel<T>, LaunchShape{n_, kBlock}, pos_.get(), vel_.get(),
         acc_.get(), ordered_ ? order_.get() : nullptr, static_cast<int>(n_), dominant_user_,
         dominant_.get());
  return dominant_.get();
}

template <typename T>
LaunchShape DeviceStore<T>::drift_shape() {
  box_fresh_ = kernel_->wants_box();
  if (!box_fresh_) return LaunchShape{n_, kBlock};
  box_parts_.reserve(kBoxParts);
  box_count_ = static_cast<int>(std::min<std::size_t>(kBoxParts, (n_ + kBlock - 1) / kBlock));
  return LaunchShape{static_cast<std::size_t>(box_count_) * kBlock, kBlock};
}

template <typename T>
void DeviceStore<T>::kick_drift(const SimParams& p, double kick, double drift) {
  const V4* dom = snapshot_dominant(p);
  const T inv_c2 = p.post_newtonian ? T(1.0 / (p.speed_of_light * p.speed_of_light)) : T(0);
  const LaunchShape shape = drift_shape();
  launch(ctx_, "kick_drift", kick_drift_kernel<T>, shape, pos_.get(), vel_.get(), acc_.get(),
         static_cast<int>(n_), T(kick * p.dt), T(drift * p.dt), dom, T(p.G), inv_c2,
         box_fresh_ ? box_parts_.get() : nullptr);
}

template <typename T>
void DeviceStore<T>::kick_drift_twice(const SimParams& p, double kick1, double drift1, double kick2,
                                      double drift2) {
  // the 1PN term reads the dominant body as the first pass left it: two passes
  if (p.post_newtonian) {
    kick_drift(p, kick1, drift1);
    kick_drift(p, kick2, drift2);
    return;
  }
  const LaunchShape shape = drift_shape();
  launch(ctx_, "kick_drift_twice", kick_drift_twice_kernel<T>, shape, pos_.get(), vel_.get(),
         acc_.get(), static_cast<int>(n_), T(kick1 * p.dt), T(drift1 * p.dt), T(kick2 * p.dt),
         T(drift2 * p.dt), box_fresh_ ? box_parts_.get() : nullptr);
}

template <typename T>
void DeviceStore<T>::kick_output(const SimParams& p, double kick) {
  const V4* dom = snapshot_dominant(p);
  const T inv_c2 = p.post_newtonian ? T(1.0 / (p.speed_of_light * p.speed_of_light)) : T(0);
  launch(ctx_, "kick_output", kick_output_kernel<T>, LaunchShape{n_, kBlock}, pos_.get(),
         vel_.get(), acc_.get(), static_cast<int>(n_), T(kick * p.dt),
         static_cast<float4*>(out_.positions), static_cast<float*>(out_.speed),
         ordered_ ? order_.get() : nullptr, dom, T(p.G), inv_c2);
}

template <typename T>
void DeviceStore<T>::step(const SimParams& p, int steps) {
  check_tunables(info_, p);
  if (steps <= 0 || n_ == 0) {
    last_ms_ = 0;
    return;
  }
  start_.record(ctx_.stream);
  if (ensure_accelerations(p)) {
    // the first forces of a new state: not part of the steps' counted work
    NBODY_CUDA_CHECK(cudaStreamSynchronize(ctx_.stream));
    StepWork first;
    kernel_->collect(first);
  }
  // what the integrator composes a step from: kicks and drifts of every body around the
  // kernel's forces (on several GPUs every GPU integrates all bodies alike from the gathered
  // accelerations); the closing kick writes the output
  struct Ops final : StepOps {
    DeviceStore& b;
    StepWork total;
    explicit Ops(DeviceStore& backend) : b(backend) {}
    void evaluate_forces(const SimParams& q) override {
      b.run_forces(q);
      total.add(b.work_);  // the work of every force evaluation
    }
    void kick_drift(const SimParams& q, double kick, double drift) override {
      b.kick_drift(q, kick, drift);
    }
    void kick_drift_twice(const SimParams& q, double kick1, double drift1, double kick2,
                          double drift2) override {
      b.kick_drift_twice(q, kick1, drift1, kick2, drift2);
    }
    void closing_kick(const SimParams& q, double kick) override { b.kick_output(q, kick); }
  } ops(*this);
  find_integrator(p.integrator).run(ops, p, steps);
  StepWork& total = ops.total;
  stop_.record(ctx_.stream);
  last_ms_ = stop_.elapsed_since(start_) / steps;
  kernel_->collect(total);
  // per step; what the kernel's phases do not cover is the integrator's
  total.per_step(steps);
  double covered = 0;
  for (const StepPhase& ph : total.phases)
    covered += ph.ms;
  if (!total.phases.empty())
    total.phases.push_back({"integrate", std::max(0.0, last_ms_ - covered)});
  work_ = std::move(total);
}

template <typename T>
void DeviceStore<T>::set_device_output(const DeviceOutput& out) {
  out_ = out;
  if ((out_.positions || out_.speed) && n_ > 0) write_output();
}

template <typename T>
void DeviceStore<T>::write_output() {
  // no kick: the output alone, the state unchanged
  launch(ctx_, "kick_output", kick_output_kernel<T>, LaunchShape{n_, kBlock}, pos_.get(),
         vel_.get(), nullptr, static_cast<int>(n_), T(0), static_cast<float4*>(out_.positions),
         static_cast<float*>(out_.speed), ordered_ ? order_.get() : nullptr,
         static_cast<const V4*>(nullptr), T(0), T(0));
}

template <typename T>
bool DeviceStore<T>::activity_map(const ActivityMapParams& p, ActivityMap& out) {
  validate(p);
  const MapBinning b = make_binning(p);
  const int cells = p.size * p.size;
  map_counts_.resize(static_cast<std::size_t>(cells));
  map_image_.resize(static_cast<std::size_t>(cells));
  map_stats_.resize(2);
  NBODY_CUDA_CHECK(cudaMemsetAsync(map_counts_.get(), 0, sizeof(unsigned) * cells, ctx_.stream));
  NBODY_CUDA_CHECK(cudaMemsetAsync(map_stats_.get(), 0, sizeof(unsigned) * 2, ctx_.stream));
  // bin, find the largest count, normalise
  launch(ctx_, "map_bin", map_bin_kernel<T>, LaunchShape{n_, kBlock}, pos_.get(),
         static_cast<int>(n_), b, map_counts_.get(), map_stats_.get());
  const LaunchShape cell_shape{static_cast<std::size_t>(cells), kBlock};
  launch(ctx_, "map_max", map_max_kernel, cell_shape, map_counts_.get(), cells, map_stats_.get());
  launch(ctx_, "map_normalise", map_normalise_kernel, cell_shape, map_counts_.get(), cells,
         map_stats_.get(), static_cast<int>(p.scale), map_image_.get());
  // download
  out.size = p.size;
  out.counts.resize(cells);
  out.image.resize(cells);
  unsigned stats[2] = {0, 0};
  map_counts_.download(out.counts.data(), cells, ctx_.stream);
  map_image_.download(out.image.data(), cells, ctx_.stream);
  map_stats_.download(stats, 2, ctx_.stream);
  out.max_count = stats[0];
  out.inside = 0;
  for (const std::uint32_t c : out.counts)
    out.inside += c;
  return true;
}

template class DeviceStore<float>;
template class DeviceStore<double>;

}  // namespace nbody::cuda
