// Several GPUs of one host under any GPU kernel. One process, one NCCL communicator per GPU
// (ncclCommInitAll), one stream and one host thread per GPU. Every GPU holds all N bodies and
// a backend of the chosen kernel (a "part"); part d computes the accelerations and kick/drift of
// its slice of the stored bodies, then the parts exchange their updated slices:
//
// - equal slices (all-pairs kernels when N is a multiple of the GPU count): one in-place
//   ncclAllGather per array, the collective NCCL optimises best;
// - unequal slices (Barnes-Hut, balanced by counted work; all-pairs with N not a multiple):
//   one in-place ncclBroadcast per slice, rooted at its owner, all of them in one
//   ncclGroupStart/End. No padding and no copy into a staging buffer, and the same bytes cross
//   the links as in an all-gather (each GPU receives N - its slice).
//
// Positions and velocities are exchanged after each drift (the tree kernel re-sorts all bodies
// every step, so a body may change owner), velocities alone after the last half kick, so that
// after each step() call every GPU holds the whole state: get_bodies(), the activity map and the
// interop output read the first GPU (the one that drives the display) with no host round trip.
#include <nccl.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <exception>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "sim/core/error.hpp"
#include "sim/cuda/cuda_kernels.hpp"
#include "sim/cuda/device_store.cuh"
#include "sim/cuda/nccl_check.cuh"

namespace nbody {

bool multi_gpu_built() {
  return true;
}

namespace cuda {
namespace {

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

// the NCCL communicators of this process, one per GPU of `devices` (rank d on devices[d])
class Comms {
 public:
  explicit Comms(const std::vector<int>& devices) : comms_(devices.size(), nullptr) {
    // NVLink multicast (NVLS) stays off unless the user set it (shared machines need it off)
    setenv("NCCL_NVLS_ENABLE", "0", 0);
    NBODY_NCCL_CHECK(
        ncclCommInitAll(comms_.data(), static_cast<int>(devices.size()), devices.data()));
  }
  ~Comms() {
    if (aborted_) return;  // ncclCommAbort freed them
    for (ncclComm_t c : comms_)
      if (c) NBODY_NCCL_LOG(ncclCommDestroy(c));
  }
  Comms(const Comms&) = delete;
  Comms& operator=(const Comms&) = delete;

  ncclComm_t operator[](int d) const { return comms_[d]; }
  bool aborted() const { return aborted_; }
  /// Aborts every communicator once, from any thread: a part failed and the others must not wait
  /// in a collective for it (NCCL stops their kernels). The communicators are unusable after.
  void abort() noexcept {
    std::call_once(once_, [this] {
      aborted_ = true;
      for (ncclComm_t c : comms_)
        if (c) NBODY_NCCL_LOG(ncclCommAbort(c));
    });
  }

 private:
  std::vector<ncclComm_t> comms_;
  std::atomic<bool> aborted_{false};
  std::once_flag once_;
};

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
    comms_ = std::make_unique<Comms>(devices_);
    // one backend of the kernel per GPU, made on that GPU
    for (int d = 0; d < gpus; ++d) {
      DeviceScope scope(devices_[d]);
      std::unique_ptr<ForceBackend> b = row.create(row, p);
      auto* part = dynamic_cast<DeviceStore<T>*>(b.get());
      if (!part) fail("kernel '", row.name, "' cannot run on several GPUs");
      b.release();
      parts_.emplace_back(part);
      part->set_part(d, gpus, [this, d](bool positions) { exchange(d, positions); });
    }
  }

  ~MultiDeviceStore() override {
    // each part's buffers, streams and events go on their own device, then the communicators
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
  }

  void get_bodies(Bodies& b) const override {
    DeviceScope scope(devices_[0]);
    parts_[0]->get_bodies(b);
  }

  void compute_accelerations(const SimParams& p, std::vector<double>& ax, std::vector<double>& ay,
                             std::vector<double>& az) override {
    check_usable();
    // every GPU its slice at once, then each slice into the user's order
    on_all([&](int d) { parts_[d]->prepare_accelerations(p); });
    const std::size_t n = size();
    ax.assign(n, 0.0);
    ay.assign(n, 0.0);
    az.assign(n, 0.0);
    for (std::size_t d = 0; d < parts_.size(); ++d) {
      DeviceScope scope(devices_[d]);
      parts_[d]->read_accelerations(ax, ay, az);
    }
    gather_work();
  }

  void step(const SimParams& p, int steps) override {
    check_usable();
    exchanges_ = 0;
    on_all([&](int d) { parts_[d]->step(p, steps); });
    // the step lasts as long as the slowest GPU's (the exchange waits for it anyway)
    last_ms_ = 0;
    for (const auto& part : parts_)
      last_ms_ = std::max(last_ms_, part->last_step_ms());
    gather_work();
    // the exchanges as the first GPU's stream saw them (waiting for the others included)
    if (steps > 0) {
      double ms = 0;
      for (std::size_t k = 0; k < exchanges_; ++k)
        ms += ex_stop_[k].elapsed_since(ex_start_[k]);
      ms /= steps;
      if (work_.phases.empty()) work_.phases.push_back({"compute", std::max(0.0, last_ms_ - ms)});
      work_.phases.push_back({"exchange", ms});
      for (StepPhase& ph : work_.phases)
        if (ph.name == "integrate") ph.ms = std::max(0.0, ph.ms - ms);
    }
  }

  double last_step_ms() const override { return last_ms_; }
  StepWork last_work() const override { return work_; }

  bool tree_cells(int max_level, std::vector<TreeCell>& out) override {
    DeviceScope scope(devices_[0]);
    return parts_[0]->tree_cells(max_level, out);
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
  // runs f(d) for every GPU d at once, part 0 on the calling thread, each on its own device;
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

  // on part d's thread: its updated slice to every GPU, the others' slices from them
  void exchange(int d, bool positions) {
    if (comms_->aborted()) fail("multi-GPU step stopped: another GPU failed");
    DeviceStore<T>& part = *parts_[d];
    const std::vector<std::size_t>& cuts = part.cuts();
    const int g = static_cast<int>(parts_.size());
    const std::size_t len0 = cuts[1] - cuts[0];
    bool equal = true;
    for (int r = 0; r < g; ++r)
      equal = equal && cuts[r + 1] - cuts[r] == len0;
    const ncclDataType_t type = sizeof(T) == 8 ? ncclDouble : ncclFloat;
    const ncclComm_t comm = (*comms_)[d];
    const cudaStream_t stream = part.context().stream;
    // an array of 4 T per body: all-gather in place, or one broadcast per slice
    const auto gather = [&](Vec4<T>* v) {
      T* base = reinterpret_cast<T*>(v);
      if (equal) {
        NBODY_NCCL_CHECK(ncclAllGather(base + 4 * cuts[d], base, 4 * len0, type, comm, stream));
        return;
      }
      for (int r = 0; r < g; ++r) {
        const std::size_t len = cuts[r + 1] - cuts[r];
        if (len == 0) continue;
        T* slice = base + 4 * cuts[r];
        NBODY_NCCL_CHECK(ncclBroadcast(slice, slice, 4 * len, type, r, comm, stream));
      }
    };
    // the first GPU times its exchanges (read after the step)
    if (d == 0) {
      if (exchanges_ == ex_start_.size()) {
        ex_start_.emplace_back();
        ex_stop_.emplace_back();
      }
      ex_start_[exchanges_].record(stream);
    }
    NBODY_NCCL_CHECK(ncclGroupStart());
    try {
      if (positions) gather(part.positions());
      gather(part.velocities());
      // the work counted on each GPU, for the next balance
      if (positions && part.kernel().balance_by_work()) {
        constexpr std::size_t bins = DeviceStore<T>::kCostBins;
        unsigned long long* cost = part.cost_bins();
        NBODY_NCCL_CHECK(ncclAllGather(cost + bins * d, cost, bins, ncclUint64, comm, stream));
      }
    } catch (...) {
      NBODY_NCCL_LOG(ncclGroupEnd());
      throw;
    }
    NBODY_NCCL_CHECK(ncclGroupEnd());
    if (d == 0) ex_stop_[exchanges_++].record(stream);
  }

  // interactions summed over the GPUs; phases as the first GPU timed them
  void gather_work() {
    work_ = parts_[0]->last_work();
    work_.interactions = 0;
    for (const auto& part : parts_)
      work_.interactions += part->last_work().interactions;
  }

  void check_usable() const {
    if (comms_->aborted())
      fail("kernel '", info_.name, "' on ", parts_.size(),
           " GPUs stopped after an error on one of them; choose the kernel or the GPUs again to "
           "start afresh");
  }

  const KernelInfo& info_;
  std::vector<int> devices_;
  std::unique_ptr<Comms> comms_;
  std::vector<std::unique_ptr<DeviceStore<T>>> parts_;
  double last_ms_ = 0;
  StepWork work_;
  std::vector<Event> ex_start_, ex_stop_;  // the first GPU's exchanges of the last step() call
  std::size_t exchanges_ = 0;
};

}  // namespace
}  // namespace cuda

std::unique_ptr<ForceBackend> make_multi_gpu_backend(const KernelInfo& row, const SimParams& p,
                                                     int gpus) {
  if (p.precision == Precision::Double)
    return std::make_unique<cuda::MultiDeviceStore<double>>(row, p, gpus);
  return std::make_unique<cuda::MultiDeviceStore<float>>(row, p, gpus);
}

}  // namespace nbody
