// Several GPUs under any GPU kernel: a force kernel that wraps the chosen one (MultiGpuKernel).
// Every GPU holds all N bodies in a store of its own and integrates all of them alike; the
// wrapper splits the targets of each force evaluation into one slice per GPU ("rank"), the
// chosen kernel computes its rank's slice, and the ranks exchange their slices of the
// accelerations (16 bytes a body), so every store has all of them before it kicks:
//
// - equal slices (all-pairs kernels when N is a multiple of the GPU count): one in-place
//   ncclAllGather, the collective NCCL optimises best;
// - unequal slices (Barnes-Hut, balanced by counted work; all-pairs with N not a multiple):
//   one in-place ncclBroadcast per slice, rooted at its owner, all in one ncclGroupStart/End;
// - a kernel that writes its slice into every GPU's accelerations itself (Barnes-Hut, several
//   GPUs of one process with peer access between every pair: the traversal's peer writes go
//   over NVLink while it walks): no copy; the work bins' all-gather only waits for every rank.
//
// The kernels are deterministic, so every store stays bitwise the same as the others: a tree
// kernel sorts alike on every GPU, builds the tree of its own slice and shares it with the others
// through the collectives the wrapper puts in the Slicing (all-gather, share). The store knows
// nothing of the other GPUs; the rigid halos' field and the 1PN term run on every GPU like on
// one.
//
// The ranks live in one process (--gpus N: ncclCommInitAll, one host thread per GPU, the first
// GPU drives the display) or one per process (--rank R --world W --nccl-id ID: ncclCommInitRank,
// the id shared through a file or TCP; sim/core/rendezvous.hpp). The code that computes is the
// same, so both give bitwise the same bodies. Ranks of several processes check that they hold
// the same bodies and step with the same parameters.
#include <nccl.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "sim/core/error.hpp"
#include "sim/core/rendezvous.hpp"
#include "sim/cuda/cuda_kernels.hpp"
#include "sim/cuda/device_store.cuh"
#include "sim/cuda/nccl_check.cuh"

namespace nbody {

bool multi_gpu_built() {
  return true;
}

namespace cuda {
namespace {

using ull = unsigned long long;

// makes `dev` the current device for a scope and restores the previous one
class DeviceScope {
 public:
  explicit DeviceScope(int dev) {
    NBODY_CUDA_CHECK(cudaGetDevice(&prev_));
    if (dev != prev_) NBODY_CUDA_CHECK(cudaSetDevice(dev));
  }
  ~DeviceScope() { NBODY_CUDA_LOG(cudaSetDevice(prev_)); }
  DeviceScope(const DeviceScope&) = delete;
  DeviceScope& operator=(const DeviceScope&) = delete;

 private:
  int prev_ = 0;
};

// The NCCL communicators this process holds: one per GPU of one process (ncclCommInitAll), or
// this process's one of a run of several (ncclCommInitRank).
class Comms {
 public:
  explicit Comms(const std::vector<int>& devices) : comms_(devices.size(), nullptr) {
    quiet_nvls();
    NBODY_NCCL_CHECK(
        ncclCommInitAll(comms_.data(), static_cast<int>(devices.size()), devices.data()));
  }
  Comms(const ncclUniqueId& id, int world, int rank) : comms_(1, nullptr) {
    quiet_nvls();
    NBODY_NCCL_CHECK(ncclCommInitRank(&comms_[0], world, id, rank));
  }
  ~Comms() {
    if (aborted_) return;  // ncclCommAbort freed them
    for (ncclComm_t c : comms_)
      if (c) NBODY_NCCL_LOG(ncclCommDestroy(c));
  }
  Comms(const Comms&) = delete;
  Comms& operator=(const Comms&) = delete;

  ncclComm_t operator[](int k) const { return comms_[k]; }
  bool aborted() const { return aborted_; }
  /// Aborts every communicator once, from any thread: a rank failed and the others must not
  /// wait in a collective for it (NCCL stops their kernels). The communicators are unusable after.
  void abort() noexcept {
    std::call_once(once_, [this] {
      aborted_ = true;
      for (ncclComm_t c : comms_)
        if (c) NBODY_NCCL_LOG(ncclCommAbort(c));
    });
  }

 private:
  // NVLink multicast (NVLS) stays off unless the user set it (shared machines need it off)
  static void quiet_nvls() { setenv("NCCL_NVLS_ENABLE", "0", 0); }
  std::vector<ncclComm_t> comms_;
  std::atomic<bool> aborted_{false};
  std::once_flag once_;
};

__global__ void store_value_kernel(ull* where, ull value) {
  *where = value;
}

// FNV-1a, fed byte range by byte range
struct Fnv1a {
  ull h = 1469598103934665603ull;
  void operator()(const void* data, std::size_t n) {
    const auto* b = static_cast<const unsigned char*>(data);
    for (std::size_t i = 0; i < n; ++i)
      h = (h ^ b[i]) * 1099511628211ull;
  }
};

// what a step computes with: ranks of several processes must agree on all of it
ull params_hash(const SimParams& p) {
  Fnv1a mix;
  const double values[] = {p.dt, p.G, p.softening, p.speed_of_light};
  mix(values, sizeof values);
  const int choices[] = {static_cast<int>(p.integrator), static_cast<int>(p.precision),
                         p.post_newtonian ? 1 : 0};
  mix(choices, sizeof choices);
  mix(p.kernel.data(), p.kernel.size());
  for (const auto& [key, value] : p.tunables) {
    mix(key.data(), key.size());
    mix(&value, sizeof value);
  }
  return mix.h;
}

// the bodies as given (positions, velocities, masses)
ull bodies_hash(const Bodies& b) {
  Fnv1a mix;
  for (const std::vector<double>* v : {&b.x, &b.y, &b.z, &b.vx, &b.vy, &b.vz, &b.m})
    mix(v->data(), v->size() * sizeof(double));
  return mix.h;
}

}  // namespace

/// The chosen kernel on one rank of several GPUs: its slice of the targets, then the exchange
/// of the accelerations (see the top of this file).
template <typename T>
class MultiGpuKernel final : public DeviceForceKernel<T> {
 public:
  /// Rank `rank` of `world`, on communicator comms[index]; `check` (ranks of several
  /// processes): verify that every rank holds the same bodies and parameters.
  MultiGpuKernel(std::unique_ptr<DeviceForceKernel<T>> inner, std::shared_ptr<Comms> comms,
                 int index, int rank, int world, bool check)
      : DeviceForceKernel<T>(inner->row()),
        inner_(std::move(inner)),
        comms_(std::move(comms)),
        comm_((*comms_)[index]),
        check_(check) {
    slicing_.rank = rank;
    slicing_.parts = world;
    slicing_.cuts.assign(world + 1, 0);
    const std::size_t bins = static_cast<std::size_t>(world) * Slicing::kCostBins;
    cost_.resize(bins);
    NBODY_CUDA_CHECK(cudaMemset(cost_.get(), 0, bins * sizeof(ull)));
    cost_host_.resize(bins);
    side_ = Stream::create();
    slicing_.cost_bins = cost_.get();
    slicing_.all_gather = [this](const void* send, void* recv, std::size_t bytes) {
      all_gather(send, recv, bytes);
    };
    slicing_.share = [this](const std::vector<Slicing::Shared>& arrays,
                            const std::vector<std::size_t>& first,
                            const std::vector<std::size_t>& count) { share(arrays, first, count); };
    hashes_.resize(world);
  }

  ~MultiGpuKernel() override {
    if (side_.get()) NBODY_CUDA_LOG(cudaStreamSynchronize(side_.get()));  // the bins' copy
  }
  MultiGpuKernel(const MultiGpuKernel&) = delete;
  MultiGpuKernel& operator=(const MultiGpuKernel&) = delete;

  Slicing& slicing() { return slicing_; }
  /// The other ranks' acceleration arrays for a kernel that writes into them (see Slicing).
  void set_mirrors(std::vector<void*> mirrors) { slicing_.mirrors = std::move(mirrors); }
  const DeviceForceKernel<T>& inner() const { return *inner_; }

  void check_size(std::size_t n) const override { inner_->check_size(n); }
  bool tree_cells(int max_level, std::vector<TreeCell>& out) override {
    return inner_->tree_cells(max_level, out);
  }
  bool balance_by_work() const override { return inner_->balance_by_work(); }
  bool wants_box() const override { return inner_->wants_box(); }

  void bodies_changed(const Bodies& b) override {
    costs_ready_ = false;
    plan_cuts();
    inner_->bodies_changed(b);
    if (check_) agree(bodies_hash(b), "bodies (run every rank with the same scene and options)");
  }

  void forces(const SimParams& p, T G, T eps2, StepWork& work) override {
    if (comms_->aborted()) fail("multi-GPU step stopped: another GPU failed");
    DeviceStore<T>& st = this->store();
    // the slices of this evaluation (every rank alike; a refitted tree keeps the last ones),
    // then this rank's
    if (!inner_->keeps_cuts(p)) plan_cuts();
    costs_ready_ = false;
    // this rank's row of the bins zeroed after the last exchange's copy (side stream)
    cost_copied_.enqueue_wait(st.context().stream);
    work.interactions = static_cast<double>(st.count()) * static_cast<double>(st.n_sources());
    inner_->forces(p, G, eps2, work);
    exchange(p);
  }

  bool collect(StepWork& work) override {
    const bool again = inner_->collect(work);
    for (std::size_t e = 0; e < pending_; ++e) {
      StepWork one;
      one.phases.push_back({"exchange", ex_[e][1].elapsed_since(ex_[e][0])});
      work.add(one);
    }
    pending_ = 0;
    if (check_ && hashes_sent_) {
      std::vector<ull> h(hashes_.size());
      hashes_.download(h.data(), h.size(), this->store().context().stream);
      for (std::size_t r = 1; r < h.size(); ++r)
        if (h[r] != h[0])
          fail("rank ", r,
               " steps with other parameters than rank 0 (dt, G, softening, "
               "integrator, kernel or tunables): run every rank with the same options");
    }
    return again;
  }

 private:
  // every rank computes the same cuts from the same data: equal body counts, or where the
  // running work of the last evaluation (every rank's row of the bins) passes k / parts of it
  void plan_cuts() {
    const std::size_t n = this->store().size();
    const int parts = slicing_.parts, bins = Slicing::kCostBins;
    std::vector<std::size_t>& cuts = slicing_.cuts;
    std::vector<std::size_t> next(parts + 1, n);
    next[0] = 0;
    const ull* w = cost_host_.get();
    double total = 0;
    if (inner_->balance_by_work() && costs_ready_ && cuts.back() == n) {
      // copied to the host after the last exchange: waits for that, not for the integration
      // queued since (the host goes on queueing the next evaluation while it runs)
      cost_copied_.wait();
      for (std::size_t i = 0; i < static_cast<std::size_t>(parts) * bins; ++i)
        total += static_cast<double>(w[i]);
    }
    if (total <= 0) {
      for (int r = 1; r < parts; ++r)
        next[r] = n * static_cast<std::size_t>(r) / static_cast<std::size_t>(parts);
    } else {
      double sum = 0;
      int k = 1;
      for (int r = 0; r < parts && k < parts; ++r) {
        const std::size_t b0 = cuts[r], len = cuts[r + 1] - cuts[r];
        for (int b = 0; b < bins && k < parts; ++b) {
          const std::size_t lo = b0 + len * b / bins, hi = b0 + len * (b + 1) / bins;
          const double x = static_cast<double>(w[static_cast<std::size_t>(r) * bins + b]);
          while (k < parts && sum + x >= total * k / parts) {
            const double f = x > 0 ? (total * k / parts - sum) / x : 0.0;
            next[k] = lo + static_cast<std::size_t>(std::llround(f * static_cast<double>(hi - lo)));
            ++k;
          }
          sum += x;
        }
      }
      for (int r = 1; r <= parts; ++r)
        next[r] = std::min(n, std::max(next[r], next[r - 1]));
      next[parts] = n;
    }
    cuts = std::move(next);
  }

  // this rank's slice of the accelerations to every rank, theirs from them (and the work bins
  // for the next balance; the parameters' hash when checking)
  void exchange(const SimParams& p) {
    DeviceStore<T>& st = this->store();
    const std::vector<std::size_t>& cuts = slicing_.cuts;
    const int g = slicing_.parts, rank = slicing_.rank;
    const std::size_t len0 = cuts[1] - cuts[0];
    bool equal = true;
    for (int r = 0; r < g; ++r)
      equal = equal && cuts[r + 1] - cuts[r] == len0;
    const ncclDataType_t type = sizeof(T) == 8 ? ncclDouble : ncclFloat;
    const cudaStream_t stream = st.context().stream;
    if (pending_ == ex_.size()) ex_.emplace_back();
    ex_[pending_][0].record(stream);
    if (check_) {
      store_value_kernel<<<1, 1, 0, stream>>>(hashes_.get() + rank, params_hash(p));
      NBODY_CUDA_CHECK(cudaGetLastError());
      hashes_sent_ = true;
    }
    T* acc = reinterpret_cast<T*>(st.accelerations());
    // the kernel wrote its slice into every rank's accelerations (peer writes): the collectives
    // below only wait for every rank to have done so
    const bool mirrored = inner_->writes_mirrors();
    NBODY_NCCL_CHECK(ncclGroupStart());
    try {
      if (mirrored) {
        if (!inner_->balance_by_work() && !check_)
          NBODY_NCCL_CHECK(
              ncclAllGather(hashes_.get() + rank, hashes_.get(), 1, ncclUint64, comm_, stream));
      } else if (equal) {
        NBODY_NCCL_CHECK(ncclAllGather(acc + 4 * cuts[rank], acc, 4 * len0, type, comm_, stream));
      } else {
        for (int r = 0; r < g; ++r) {
          const std::size_t len = cuts[r + 1] - cuts[r];
          if (len == 0) continue;
          T* slice = acc + 4 * cuts[r];
          NBODY_NCCL_CHECK(ncclBroadcast(slice, slice, 4 * len, type, r, comm_, stream));
        }
      }
      if (inner_->balance_by_work()) {
        constexpr std::size_t bins = Slicing::kCostBins;
        NBODY_NCCL_CHECK(
            ncclAllGather(cost_.get() + bins * rank, cost_.get(), bins, ncclUint64, comm_, stream));
      }
      if (check_)
        NBODY_NCCL_CHECK(
            ncclAllGather(hashes_.get() + rank, hashes_.get(), 1, ncclUint64, comm_, stream));
    } catch (...) {
      NBODY_NCCL_LOG(ncclGroupEnd());
      throw;
    }
    NBODY_NCCL_CHECK(ncclGroupEnd());
    Event& exchanged = ex_[pending_++][1];
    exchanged.record(stream);
    costs_ready_ = inner_->balance_by_work();
    if (costs_ready_) {
      // off the step's stream (its next kernels need not wait for the copies): the bins to the
      // host, then this rank's row zeroed for the next evaluation, which waits for that
      const cudaStream_t side = side_.get();
      exchanged.enqueue_wait(side);
      NBODY_CUDA_CHECK(cudaMemcpyAsync(cost_host_.get(), cost_.get(),
                                       cost_host_.size() * sizeof(ull), cudaMemcpyDeviceToHost,
                                       side));
      NBODY_CUDA_CHECK(cudaMemsetAsync(cost_.get() + slicing_.rank * Slicing::kCostBins, 0,
                                       Slicing::kCostBins * sizeof(ull), side));
      cost_copied_.record(side);
    }
  }

  // the collectives of Slicing (see there), on the store's stream
  void all_gather(const void* send, void* recv, std::size_t bytes) {
    NBODY_NCCL_CHECK(
        ncclAllGather(send, recv, bytes, ncclChar, comm_, this->store().context().stream));
  }
  void share(const std::vector<Slicing::Shared>& arrays, const std::vector<std::size_t>& first,
             const std::vector<std::size_t>& count) {
    const cudaStream_t stream = this->store().context().stream;
    NBODY_NCCL_CHECK(ncclGroupStart());
    try {
      for (const Slicing::Shared& a : arrays)
        for (int r = 0; r < slicing_.parts; ++r) {
          if (count[r] == 0) continue;
          char* part = static_cast<char*>(a.data) + a.size * first[r];
          NBODY_NCCL_CHECK(
              ncclBroadcast(part, part, a.size * count[r], ncclChar, r, comm_, stream));
        }
    } catch (...) {
      NBODY_NCCL_LOG(ncclGroupEnd());
      throw;
    }
    NBODY_NCCL_CHECK(ncclGroupEnd());
  }

  // every rank's `value` equal to rank 0's, else nbody::Error naming `what`
  void agree(ull value, const char* what) {
    const cudaStream_t stream = this->store().context().stream;
    DeviceBuffer<ull> all(hashes_.size());
    store_value_kernel<<<1, 1, 0, stream>>>(all.get() + slicing_.rank, value);
    NBODY_CUDA_CHECK(cudaGetLastError());
    NBODY_NCCL_CHECK(
        ncclAllGather(all.get() + slicing_.rank, all.get(), 1, ncclUint64, comm_, stream));
    std::vector<ull> h(hashes_.size());
    all.download(h.data(), h.size(), stream);
    for (std::size_t r = 1; r < h.size(); ++r)
      if (h[r] != h[0]) fail("rank ", r, " holds other ", what, " than rank 0");
  }

  std::unique_ptr<DeviceForceKernel<T>> inner_;
  std::shared_ptr<Comms> comms_;
  ncclComm_t comm_;
  bool check_;
  Slicing slicing_;
  DeviceBuffer<ull> cost_;
  bool costs_ready_ = false;     // every rank's cost bins of the last evaluation are in cost_
  PinnedBuffer<ull> cost_host_;  // and on their way to the host (done at cost_copied_)
  Event cost_copied_;            // and this rank's row zeroed again, on side_
  Stream side_;
  DeviceBuffer<ull> hashes_;  // each rank's parameters' hash of the last evaluation
  bool hashes_sent_ = false;
  std::vector<std::array<Event, 2>> ex_;  // the exchanges since the last collect()
  std::size_t pending_ = 0;
};

namespace {

// wraps the kernel of `store` as rank `rank` of `world` (communicator comms[index])
template <typename T>
MultiGpuKernel<T>* wrap_for_ranks(DeviceStore<T>& store, const std::shared_ptr<Comms>& comms,
                                  int index, int rank, int world, bool check) {
  MultiGpuKernel<T>* made = nullptr;
  store.wrap_kernel([&](std::unique_ptr<DeviceForceKernel<T>> inner) {
    auto k =
        std::make_unique<MultiGpuKernel<T>>(std::move(inner), comms, index, rank, world, check);
    made = k.get();
    return std::unique_ptr<DeviceForceKernel<T>>(std::move(k));
  });
  store.set_slicing(&made->slicing());
  return made;
}

// whether every pair of `devices` has peer access, turned on here (false where a pair lacks it
// or it could not be turned on, and with NBODY_PEER_WRITES=0, for comparing: the exchange then
// goes through NCCL)
bool enable_peer_access(const std::vector<int>& devices) {
  const char* env = std::getenv("NBODY_PEER_WRITES");
  if (env && std::string(env) == "0") return false;
  for (int a : devices)
    for (int b : devices) {
      int ok = 0;
      if (a != b) NBODY_CUDA_CHECK(cudaDeviceCanAccessPeer(&ok, a, b));
      if (a != b && !ok) return false;
    }
  for (int a : devices) {
    DeviceScope scope(a);
    for (int b : devices) {
      if (a == b) continue;
      const cudaError_t e = cudaDeviceEnablePeerAccess(b, 0);
      if (e == cudaSuccess) continue;
      (void)cudaGetLastError();  // clears it
      // already on (an earlier backend) is fine; anything else (e.g. too many peers): NCCL
      if (e != cudaErrorPeerAccessAlreadyEnabled) return false;
    }
  }
  return true;
}

// a store of kernel `row` on the current device, or nbody::Error when the row has none
template <typename T>
std::unique_ptr<DeviceStore<T>> make_store(const KernelInfo& row, const SimParams& p) {
  std::unique_ptr<ForceBackend> b = row.create(row, p);
  auto* store = dynamic_cast<DeviceStore<T>*>(b.get());
  if (!store) fail("kernel '", row.name, "' cannot run on several GPUs");
  b.release();
  return std::unique_ptr<DeviceStore<T>>(store);
}

}  // namespace

namespace {

// Several GPUs of this process: one store per GPU, each around the wrapped kernel, stepped at
// once by one host thread per GPU. get_bodies(), the activity map and the interop output read
// the first GPU (the one that drives the display): every store holds the same bodies.
template <typename T>
class MultiDeviceStore final : public ForceBackend {
 public:
  MultiDeviceStore(const KernelInfo& row, const SimParams& p, int gpus) : info_(row) {
    // the current device first: it drives the display and takes the interop output
    const int current = current_device(), have = cuda_devices();
    if (gpus < 2 || gpus > have)
      fail("--gpus ", gpus, ": this machine has ", have, " CUDA devices");
    devices_.push_back(current);
    for (int d = 0; d < have && static_cast<int>(devices_.size()) < gpus; ++d)
      if (d != current) devices_.push_back(d);
    comms_ = std::make_shared<Comms>(devices_);
    peer_ = enable_peer_access(devices_);
    for (int d = 0; d < gpus; ++d) {
      DeviceScope scope(devices_[d]);
      parts_.push_back(make_store<T>(row, p));
      kernels_.push_back(wrap_for_ranks(*parts_.back(), comms_, d, d, gpus, false));
      if (peer_) parts_.back()->pin_accelerations();
    }
  }

  ~MultiDeviceStore() override {
    // each store's buffers, streams and events go on their own device, then the communicators
    for (std::size_t d = parts_.size(); d-- > 0;) {
      int prev = 0;
      NBODY_CUDA_LOG(cudaGetDevice(&prev));
      NBODY_CUDA_LOG(cudaSetDevice(devices_[d]));
      parts_[d].reset();
      NBODY_CUDA_LOG(cudaSetDevice(prev));
    }
    comms_.reset();
  }

  const KernelInfo& info() const override { return info_; }
  int gpus() const override { return static_cast<int>(parts_.size()); }
  std::size_t size() const override { return parts_[0]->size(); }

  void set_bodies(const Bodies& b) override {
    check_usable();
    for (std::size_t d = 0; d < parts_.size(); ++d) {
      DeviceScope scope(devices_[d]);
      parts_[d]->set_bodies(b);
    }
    // with peer access each GPU may write its slice of the accelerations into the others'
    if (!peer_) return;
    for (std::size_t d = 0; d < parts_.size(); ++d) {
      std::vector<void*> others;
      for (std::size_t e = 0; e < parts_.size(); ++e)
        if (e != d) others.push_back(parts_[e]->accelerations());
      kernels_[d]->set_mirrors(std::move(others));
    }
  }

  void get_bodies(Bodies& b) const override {
    DeviceScope scope(devices_[0]);
    parts_[0]->get_bodies(b);
  }

  void compute_accelerations(const SimParams& p, std::vector<double>& ax, std::vector<double>& ay,
                             std::vector<double>& az) override {
    check_usable();
    // every GPU at once; each then holds all accelerations
    on_all([&](int d) { parts_[d]->prepare_accelerations(p); });
    DeviceScope scope(devices_[0]);
    parts_[0]->read_accelerations(ax, ay, az);
    gather_work();
  }

  void step(const SimParams& p, int steps) override {
    check_usable();
    on_all([&](int d) { parts_[d]->step(p, steps); });
    // the step lasts as long as the slowest GPU's (the exchange waits for it anyway)
    last_ms_ = 0;
    for (const auto& part : parts_)
      last_ms_ = std::max(last_ms_, part->last_step_ms());
    gather_work();
  }

  double last_step_ms() const override { return last_ms_; }
  StepWork last_work() const override { return work_; }

  // every GPU's tree (a forest: each covers its GPU's slice of the bodies)
  bool tree_cells(int max_level, std::vector<TreeCell>& out) override {
    out.clear();
    bool any = false;
    std::vector<TreeCell> part;
    for (std::size_t d = 0; d < parts_.size(); ++d) {
      DeviceScope scope(devices_[d]);
      if (!parts_[d]->tree_cells(max_level, part)) continue;
      any = true;
      out.insert(out.end(), part.begin(), part.end());
    }
    return any;
  }
  bool supports_device_output() const override { return true; }
  void set_device_output(const DeviceOutput& out) override {
    DeviceScope scope(devices_[0]);
    parts_[0]->set_device_output(out);
  }
  bool activity_map(const ActivityMapParams& p, ActivityMap& out) override {
    DeviceScope scope(devices_[0]);
    return parts_[0]->activity_map(p, out);
  }

 private:
  // runs f(d) for every GPU d at once, the first on the calling thread, each on its own device;
  // the first failure aborts the communicators (so no GPU waits forever for a failed one) and
  // is rethrown
  template <typename F>
  void on_all(F&& f) {
    const int g = static_cast<int>(parts_.size());
    std::vector<std::exception_ptr> errors(g);
    std::atomic<int> first_error{-1};
    const auto run = [&](int d) {
      try {
        DeviceScope scope(devices_[d]);
        f(d);
      } catch (...) {
        errors[d] = std::current_exception();
        int none = -1;
        first_error.compare_exchange_strong(none, d);
        comms_->abort();
      }
    };
    std::vector<std::thread> threads;
    threads.reserve(g - 1);
    for (int d = 1; d < g; ++d)
      threads.emplace_back(run, d);
    run(0);
    for (std::thread& t : threads)
      t.join();
    if (first_error >= 0) std::rethrow_exception(errors[first_error]);
  }

  // interactions summed over the GPUs; phases as the first GPU timed them, and every GPU's
  void gather_work() {
    work_ = parts_[0]->last_work();
    work_.interactions = 0;
    work_.gpu_phases.clear();
    for (const auto& part : parts_) {
      const StepWork w = part->last_work();
      work_.interactions += w.interactions;
      work_.gpu_phases.push_back(w.phases);
    }
  }

  void check_usable() const {
    if (comms_->aborted())
      fail("kernel '", info_.name, "' on ", parts_.size(),
           " GPUs stopped after an error on one of them; choose the kernel or the GPUs again to "
           "start afresh");
  }

  const KernelInfo& info_;
  std::vector<int> devices_;
  std::shared_ptr<Comms> comms_;
  std::vector<std::unique_ptr<DeviceStore<T>>> parts_;
  std::vector<MultiGpuKernel<T>*> kernels_;  // each store's wrapper (owned by the store)
  bool peer_ = false;                        // every pair of GPUs has peer access, turned on
  double last_ms_ = 0;
  StepWork work_;
};

// One rank of a run of several processes: the store on this process's GPU (rank modulo the
// devices it sees) around the wrapped kernel, after the rendezvous with the other ranks.
template <typename T>
std::unique_ptr<ForceBackend> make_rank_store(const KernelInfo& row, const SimParams& p) {
  const ProcessGroup& g = p.process;
  Rendezvous rv(g.id, g.rank, g.world);
  const int have = cuda_devices();
  if (have < 1) fail("--rank ", g.rank, ": no CUDA device");
  NBODY_CUDA_CHECK(cudaSetDevice(g.rank % have));
  const std::string token = rv.share([] {
    ncclUniqueId id;
    NBODY_NCCL_CHECK(ncclGetUniqueId(&id));
    return std::string(id.internal, sizeof id.internal);
  });
  ncclUniqueId id{};
  if (token.size() != sizeof id.internal)
    fail("--nccl-id ", g.id, ": the id has ", token.size(), " bytes, NCCL's has ",
         sizeof id.internal);
  std::memcpy(id.internal, token.data(), sizeof id.internal);
  auto comms = std::make_shared<Comms>(id, g.world, g.rank);
  rv.finish();  // every rank joined: the id file is no longer needed
  std::unique_ptr<DeviceStore<T>> store = make_store<T>(row, p);
  wrap_for_ranks(*store, comms, 0, g.rank, g.world, true);
  return store;
}

}  // namespace
}  // namespace cuda

std::unique_ptr<ForceBackend> make_multi_gpu_backend(const KernelInfo& row, const SimParams& p,
                                                     int gpus) {
  if (p.precision == Precision::Double)
    return std::make_unique<cuda::MultiDeviceStore<double>>(row, p, gpus);
  return std::make_unique<cuda::MultiDeviceStore<float>>(row, p, gpus);
}

std::unique_ptr<ForceBackend> make_rank_backend(const KernelInfo& row, const SimParams& p) {
  if (p.precision == Precision::Double) return cuda::make_rank_store<double>(row, p);
  return cuda::make_rank_store<float>(row, p);
}

}  // namespace nbody
