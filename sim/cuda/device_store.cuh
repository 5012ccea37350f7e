#pragma once
// The device body store and the interface of a GPU force kernel, kept apart: a kernel computes
// the accelerations of the stored positions and nothing else; the store owns positions+mass,
// velocities and accelerations on the device and does what an integrator composes a step from
// (kicks, drifts, the optional 1PN term, the rigid halos' field: sim/integrators/) with no host
// round trip between steps, the CUDA-event timing, the device output for CUDA-GL interop and
// the device activity map. A row of the kernel table creates a store around its kernel:
// DeviceStore<T>(row, kernel) is the ForceBackend.
//
// Bodies are stored with the massive ones first (the heaviest at 0; order() keeps the user's
// order), so kernels take sources from [0, n_sources()) only: massless bodies feel every
// massive body and pull on nothing.

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "sim/core/backend.hpp"
#include "sim/cuda/box.cuh"
#include "sim/cuda/common.cuh"
#include "sim/cuda/device_buffer.cuh"
#include "sim/tree/tree_math.hpp"

namespace nbody::cuda {

template <typename T>
class DeviceStore;

/// A GPU force kernel: accelerations only. The store it belongs to is store() (set once, when
/// the store is made around it).
template <typename T>
class DeviceForceKernel {
 public:
  explicit DeviceForceKernel(const KernelInfo& row) : row_(row) {}
  virtual ~DeviceForceKernel() = default;
  DeviceForceKernel(const DeviceForceKernel&) = delete;
  DeviceForceKernel& operator=(const DeviceForceKernel&) = delete;

  /// Fills store().accelerations() of the target bodies [first(), first() + count()) with G
  /// times the accelerations of the stored positions (ε² given) due to the sources, stored
  /// bodies [0, n_sources()), on store().context().stream (n > 0). `work` holds count() ×
  /// n_sources() interactions and no phases; a kernel that counts its work overwrites
  /// work.interactions and appends its phases.
  virtual void forces(const SimParams& p, T G, T eps2, StepWork& work) = 0;
  /// After the store waited for its stream: adds to `work` what the force evaluations since the
  /// last call counted on the device (interactions, phase times), for a kernel that does not wait
  /// inside forces(). True when the last evaluation's forces are right but its structure was cut
  /// short (a tree that outgrew its room): evaluating again gives the full one.
  virtual bool collect(StepWork& work) { return false; }
  /// Called by the store before it takes `n` new bodies; throws nbody::Error when the kernel
  /// cannot run them.
  virtual void check_size(std::size_t n) const {}
  /// Tree kernels: the cells of the last tree down to `max_level` (see ForceBackend).
  virtual bool tree_cells(int max_level, std::vector<TreeCell>& out) { return false; }
  /// Tree kernels: several GPUs balance their slices by the work counted in the last step.
  virtual bool balance_by_work() const { return false; }
  /// Called by the store after it took new bodies (uploaded, not yet evaluated).
  virtual void bodies_changed(const Bodies& b) {}
  /// Whether forces() also writes its slice's accelerations into the Slicing's mirrors.
  virtual bool writes_mirrors() const { return false; }
  /// Several GPUs: whether the next forces(p) works on the slices of the last one (a tree
  /// refitted, not built again): the wrapper then keeps its cuts.
  virtual bool keeps_cuts(const SimParams& p) { return false; }
  /// Whether forces() uses the bounding box of the positions: the store's drifts then leave it
  /// on the way (store().fresh_box()), which saves the kernel a pass over the bodies.
  virtual bool wants_box() const { return false; }

  const KernelInfo& row() const { return row_; }
  DeviceStore<T>& store() const { return *store_; }

 protected:
  /// A kernel that wraps another (sim/cuda/multi_gpu.cu) gives it its own store.
  void share_store(DeviceForceKernel& inner) const { inner.store_ = store_; }

 private:
  friend class DeviceStore<T>;
  const KernelInfo& row_;
  DeviceStore<T>* store_ = nullptr;
};

/// How the targets of a force evaluation are split between the ranks of a group of GPUs: the
/// kernel that wraps a force kernel on several GPUs (sim/cuda/multi_gpu.cu) owns it and sets
/// it on its store; a store without one has every body as target.
struct Slicing {
  /// Work bins per rank that a work-balanced kernel reports (see balance_by_work()).
  static constexpr int kCostBins = 64;
  int rank = 0, parts = 1;
  /// The ranks' boundaries in stored-body order (parts + 1 entries). A work-balanced kernel may
  /// move them (every rank the same way) inside forces(), and fills its row of cost_bins for the
  /// bodies of its slice.
  std::vector<std::size_t> cuts;
  /// Device array of parts x kCostBins work counts: bins of equal body count over each rank's
  /// slice of the last force evaluation (each rank adds into its own row, which is zero when
  /// forces() is called; the exchange fills the rest).
  unsigned long long* cost_bins = nullptr;
  /// Collectives over the ranks for a kernel that shares data inside forces() (a tree kernel
  /// shares each GPU's tree), on the store's stream; every rank calls them in the same order
  /// with the same sizes. all_gather: `bytes` at `send` (may be recv + rank * bytes) of every
  /// rank r into recv + r * bytes of every rank. share: for each array and each rank r, the
  /// elements [first[r], first[r] + count[r]) (of `size` bytes each) from rank r to every rank.
  struct Shared {
    void* data;
    std::size_t size;
  };
  std::function<void(const void* send, void* recv, std::size_t bytes)> all_gather;
  /// The other ranks' acceleration arrays (the same stored order as this rank's), writable from
  /// this GPU through peer access (several GPUs of one process whose every pair has it; empty
  /// otherwise). A kernel that writes its slice's accelerations into each of them as well
  /// (writes_mirrors()) spares the exchange its copy: it then only waits for every rank.
  std::vector<void*> mirrors;
  std::function<void(const std::vector<Shared>& arrays, const std::vector<std::size_t>& first,
                     const std::vector<std::size_t>& count)>
      share;
};

/// Device storage of bodies in precision T around one force kernel.
template <typename T>
class DeviceStore final : public ForceBackend {
 public:
  using V4 = Vec4<T>;
  DeviceStore(const KernelInfo& info, std::unique_ptr<DeviceForceKernel<T>> kernel);

  const KernelInfo& info() const override { return info_; }
  std::size_t size() const override { return n_; }
  void set_bodies(const Bodies& b) override;
  void get_bodies(Bodies& b) const override;
  void compute_accelerations(const SimParams& p, std::vector<double>& ax, std::vector<double>& ay,
                             std::vector<double>& az) override;
  void step(const SimParams& p, int steps) override;
  double last_step_ms() const override { return last_ms_; }
  StepWork last_work() const override { return work_; }

  bool supports_device_output() const override { return true; }
  void set_device_output(const DeviceOutput& out) override;
  bool activity_map(const ActivityMapParams& p, ActivityMap& out) override;
  bool tree_cells(int max_level, std::vector<TreeCell>& out) override {
    return kernel_->tree_cells(max_level, out);
  }

  // ---- what a kernel reads and writes
  const Context& context() const { return ctx_; }
  V4* positions() const { return pos_.get(); }
  V4* accelerations() const { return acc_.get(); }
  /// The partial boxes (`parts` of them) of the positions as they are now, where the last drift
  /// computed them since the last force evaluation (the kernel wants_box()); else null.
  const Box* fresh_box(int& parts) const {
    parts = box_fresh_ ? box_count_ : 0;
    return box_fresh_ ? box_parts_.get() : nullptr;
  }
  /// Bodies with m > 0: stored first, so sources are [0, n_sources()).
  std::size_t n_sources() const { return n_sources_; }
  /// Reorders positions, velocities and the user's order on the stream into the order of the
  /// sorted 64-bit words `keys` (sorted on their bits above `low`): stored body k becomes old body
  /// perm[k], or keys[k] & low where perm is null (the indices in the keys' low bits). A run of
  /// up to max_run bodies whose words are equal above `low` takes the order of their whole Morton
  /// keys (keys[] with perm, else from their positions in *cube), then of their user indices, as
  /// a sort of every digit would put them. From then on ordered().
  void permute(const std::uint64_t* keys, const std::uint32_t* perm, std::uint64_t low,
               const tree::Cube* cube, std::uint32_t max_run);
  /// From now on the accelerations stay in one buffer while the bodies do not change (permute()
  /// otherwise lends it to the velocities): other GPUs may then write into it (Slicing::mirrors).
  /// Costs one more array of N.
  void pin_accelerations() { pinned_acc_ = true; }
  /// Whether the stored order differs from the user's; order()[k] is stored body k's user index.
  bool ordered() const { return ordered_; }
  const DeviceBuffer<std::uint32_t>& order() const { return order_; }
  /// The target bodies of forces(): stored bodies [first(), first() + count()) (all of them
  /// unless a wrapper split them over several GPUs). The sources are always all N bodies.
  std::size_t first() const { return slicing_ ? slicing_->cuts[slicing_->rank] : 0; }
  std::size_t count() const {
    return slicing_ ? slicing_->cuts[slicing_->rank + 1] - slicing_->cuts[slicing_->rank] : n_;
  }
  /// Number of ranks the targets are split over (1 on one GPU) and this one's rank.
  int parts() const { return slicing_ ? slicing_->parts : 1; }
  int rank() const { return slicing_ ? slicing_->rank : 0; }
  std::vector<std::size_t>& cuts() { return slicing_->cuts; }
  /// The ranks' collectives (parts() > 1 only).
  const Slicing& slicing() const { return *slicing_; }
  unsigned long long* cost_bins() const { return slicing_->cost_bins; }
  static constexpr int kCostBins = Slicing::kCostBins;
  /// Set by a kernel that splits the targets (null: every body); it outlives the store's use.
  void set_slicing(Slicing* s) { slicing_ = s; }
  /// Replaces the kernel by wrap(kernel) (e.g. its multi-GPU wrapper); the result uses this
  /// store.
  template <typename Wrap>
  void wrap_kernel(Wrap&& wrap) {
    kernel_ = wrap(std::move(kernel_));
    kernel_->store_ = this;
  }
  /// The kernel (for tools that read a kernel's own data, e.g. the Barnes-Hut tree).
  const DeviceForceKernel<T>& kernel() const { return *kernel_; }
  V4* velocities() const { return vel_.get(); }
  /// compute_accelerations() in two halves: the device work (on several GPUs run on every rank
  /// at once), then the download of the accelerations into ax, ay, az (resized to N).
  void prepare_accelerations(const SimParams& p);
  void read_accelerations(std::vector<double>& ax, std::vector<double>& ay,
                          std::vector<double>& az) const;

 private:
  /// The launch of a drift: one thread a body, or (the kernel wants_box()) the blocks of the
  /// partial boxes, which it then marks fresh.
  LaunchShape drift_shape();

  Slicing* slicing_ = nullptr;

  const KernelInfo& info_;
  Stream stream_;
  Context ctx_;
  std::unique_ptr<DeviceForceKernel<T>> kernel_;  // after the stream: its buffers go first
  std::size_t n_ = 0;
  std::size_t n_sources_ = 0;  ///< bodies with m > 0, stored first
  DeviceBuffer<V4> pos_, vel_, acc_;
  /// The bounding box of pos_ in box_count_ parts, left by the last drift since the last
  /// forces() when box_fresh_ (cleared by forces() and by new bodies)
  DeviceBuffer<Box> box_parts_;
  int box_count_ = 0;
  bool box_fresh_ = false;
  /// When ordered_: stored body k is the user's body order_[k]; the interop output and
  /// get_bodies() scatter through it so that users see their own order.
  DeviceBuffer<std::uint32_t> order_;
  bool ordered_ = false;
  StepWork work_;

  bool ensure_accelerations(const SimParams& p);  // true when it evaluated the forces
  void run_forces(const SimParams& p);
  void write_output();
  /// Adds the rigid halos' field to acc_ and sets their anchors' accelerations.
  void external_field(const SimParams& p);

  /// Launches v += kick (a + 1PN) and x += drift v, or the last kick with the output.
  void kick_drift(const SimParams& p, double kick, double drift);
  void kick_drift_twice(const SimParams& p, double kick1, double drift1, double kick2,
                        double drift2);
  void kick_output(const SimParams& p, double kick);
  /// 1PN: copies the dominant body's position, velocity and acceleration into dominant_ and
  /// returns its device pointer (null when p.post_newtonian is off).
  const V4* snapshot_dominant(const SimParams& p);

  std::vector<Component> component_;
  std::vector<RigidHalo> halos_;  ///< the bodies' rigid halos (anchors in the user's order)
  DeviceBuffer<int> anchor_idx_;  ///< stored index of each halo's anchor
  DeviceBuffer<double> react_;    ///< per block of the field kernel, its reaction sums
  bool acc_valid_ = false;
  double acc_G_ = 0, acc_eps_ = 0;
  double last_ms_ = 0;
  Event start_, stop_;
  DeviceOutput out_;
  DeviceBuffer<unsigned> map_counts_, map_stats_;
  DeviceBuffer<float> map_image_;
  DeviceBuffer<V4> scratch_;
  DeviceBuffer<V4> vel_scratch_;  // the velocities' when the accelerations are pinned
  bool pinned_acc_ = false;
  DeviceBuffer<std::uint32_t> order_scratch_;
  Event phase_a_, phase_b_;
  std::uint32_t dominant_user_ = 0;  ///< the user's index of the most massive body
  DeviceBuffer<V4> dominant_;        ///< its position, velocity, acceleration (1PN)
};

/// Throws nbody::Error naming the tunable when p holds a value invalid for `info`.
void check_tunables(const KernelInfo& info, const SimParams& p);
/// The current device's number.
int current_device();

/// The backend of a GPU kernel row: a store in precision p around Kernel<float or double>(row).
template <template <typename> class Kernel>
std::unique_ptr<ForceBackend> make_device_backend(const KernelInfo& row, Precision p) {
  if (p == Precision::Double)
    return std::make_unique<DeviceStore<double>>(row, std::make_unique<Kernel<double>>(row));
  return std::make_unique<DeviceStore<float>>(row, std::make_unique<Kernel<float>>(row));
}

}  // namespace nbody::cuda
