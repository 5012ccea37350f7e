#pragma once
// The force backend interface. The CPU backends and the CUDA kernels implement it; the bench,
// the tests and the app use nothing else. The kernel table is data: adding a kernel is one file
// (its implementation and factory) plus one row in kernels.cpp.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sim/analysis/activity_map.hpp"
#include "sim/core/bodies.hpp"
#include "sim/core/params.hpp"

namespace nbody {

/// What kind of value a tunable holds.
enum class TunableKind {
  Int,    ///< an integer in min..max in steps of `step`
  Real,   ///< a real number in [min, max] (`step` is the slider's step)
  Choice  ///< the index of one of `choices` (stored as a number; named on the command line)
};

/// One tunable of a kernel, stored in SimParams::tunables under `key`. The command line, the
/// panel and `nbody bench` are generated from these rows.
struct Tunable {
  std::string key;    ///< e.g. "block_size"; the option is --block-size
  std::string label;  ///< e.g. "block size"
  TunableKind kind = TunableKind::Int;
  double min = 0, max = 0, step = 1, def = 0;  ///< range, step and default (Choice: indices)
  std::vector<std::string> choices;            ///< names of a Choice tunable's values
  std::string help;                            ///< one line

  /// Whether v is allowed (Int: in range and on a step; Real: in range; Choice: an index).
  bool valid(double v) const;
  /// "32, 64, ..., 1024", "1..64", "0 to 1.5" or "off, on", for messages.
  std::string allowed() const;
  /// v as text: an integer, a real number or the choice's name.
  std::string format(double v) const;
  /// Parses text into a value (a number, or a choice's name or index); throws nbody::Error
  /// naming `what` and the allowed values when the text is not a valid value.
  double parse(const std::string& text, const std::string& what) const;
};

/// The tunables of every Barnes-Hut kernel (CPU and GPU share one definition and one default
/// of each: theta, leaf size, group size, quadrupole). `min_group`..`max_group` in steps of
/// `group_step` is the group sizes the kernel can run (the GPU: multiples of 8 up to 64); group
/// size 0 (the default) lets the kernel choose (group_size_for()).
std::vector<Tunable> bh_tunables(int min_group, int max_group, int group_step);

/// Row helpers: an integer, a real or a choice tunable.
Tunable int_tunable(std::string key, std::string label, int min, int max, int step, int def,
                    std::string help);
Tunable real_tunable(std::string key, std::string label, double min, double max, double step,
                     double def, std::string help);
Tunable choice_tunable(std::string key, std::string label, std::vector<std::string> choices,
                       int def, std::string help);

class ForceBackend;

/// Device pointers that the last kernel of each step() call writes into (CUDA–GL interop: the
/// mapped vertex buffer). Null members are skipped.
struct DeviceOutput {
  void* positions = nullptr;  ///< float4 per body: x, y, z, mass
  void* speed = nullptr;      ///< float per body: |v| (the colour attribute)
};

/// One row of the kernel table.
struct KernelInfo {
  std::string name;         ///< id used on the command line: "cpu-reference", "tiled", ...
  std::string label;        ///< short human label
  std::string description;  ///< one line: what the kernel does
  bool gpu = false;         ///< needs a CUDA device
  bool tree = false;        ///< a tree code: opening angle, tree cells, O(N log N)
  bool oracle = false;      ///< the double-precision direct sum every kernel is checked against
  bool lesson = false;  ///< kept to teach (never the fastest): not picked or compared by default
  bool supports_float = true;
  bool supports_double = false;
  double flops_per_interaction = 20;         ///< float, for GFLOP/s (GPU Gems 3 convention)
  double flops_per_interaction_double = 30;  ///< double (NVIDIA's nbody sample convention)
  std::vector<Tunable> tunables;
  /// Creates the backend for p.precision (already validated) from this row; may throw
  /// nbody::Error (e.g. no CUDA device). The backend's info() returns `row`.
  std::function<std::unique_ptr<ForceBackend>(const KernelInfo& row, const SimParams& p)> create;

  /// The tunable `key` of this kernel, or null.
  const Tunable* find_tunable(const std::string& key) const;
  /// The value of tunable `key` in p, or its default when p does not set it; throws
  /// nbody::Error when this kernel has no such tunable.
  double value(const SimParams& p, const std::string& key) const;
  int int_value(const SimParams& p, const std::string& key) const {
    return static_cast<int>(value(p, key));
  }
  /// Flops per interaction in precision p.
  double flops(Precision p) const {
    return p == Precision::Double ? flops_per_interaction_double : flops_per_interaction;
  }
};

/// The Barnes-Hut tunables as a typed value, parsed from p.tunables with the row's defaults.
struct BhConfig {
  double theta = 0.55;
  int leaf_size = 16;
  int group_size = 0;  ///< 0: the kernel's choice (group_size_for())
  bool quadrupole = true;
  bool bmax = false;   ///< opening radius also bounded by the bodies' extent (bmax_opening_radius2)
  double alpha = 0;    ///< > 0: the relative opening too (tree::relative_opening_size)
  int block_size = 0;  ///< GPU: CUDA threads per block of the traversal (0 on the CPU)
  /// GPU: > 0: cells farther from a group's centre than its radius / local_theta act through
  /// one local expansion for the group (0: off, and on the CPU)
  double local_theta = 0;
  /// GPU: evaluations per tree build; between builds the last tree is refitted (its moments
  /// computed again where the bodies are, its cells widened to hold them): 1 = a build every time
  int rebuild = 1;
};
BhConfig bh_config(const KernelInfo& row, const SimParams& p);
/// The group size a Barnes-Hut kernel walks with for `n` bodies: `c.group_size`, or when it is 0
/// (auto) on the GPU 16 below 131,072 bodies (two lanes a body: 7-50 % faster than 32 up to
/// 65,536), 32 below 1,048,576 (no 3x tail on Plummer spheres of 262,144 and 524,288 bodies) and
/// 64 from there (8-9 % faster on clustered bodies at 1M since the traversal's register bound,
/// 1.5 % slower on the uniform cube): docs/PERFORMANCE.md; on the CPU 64.
int group_size_for(const BhConfig& c, std::size_t n, bool gpu);

/// A typed view of a kernel's tunables that parses p.tunables again only when they change
/// (not at every force call): `get(row, p)` returns `parse(row, p)`'s value for the last
/// tunables seen.
template <typename Config, Config (*Parse)(const KernelInfo&, const SimParams&)>
class ParsedTunables {
 public:
  const Config& get(const KernelInfo& row, const SimParams& p) {
    if (!parsed_ || p.tunables != seen_) {
      config_ = Parse(row, p);
      seen_ = p.tunables;
      parsed_ = true;
    }
    return config_;
  }

 private:
  bool parsed_ = false;
  std::map<std::string, double> seen_;
  Config config_{};
};

/// One timed phase of a step (e.g. "build", "traversal"), milliseconds per step.
struct StepPhase {
  std::string name;
  double ms = 0;
};

/// One cell of a tree kernel's tree: geometric centre, half side and depth (root = 0).
struct TreeCell {
  double cx = 0, cy = 0, cz = 0, half = 0;
  int level = 0;
};

/// The work of a backend's last step, as it reports it.
struct StepWork {
  double interactions = 0;           ///< force interactions per step (body-body + body-cell)
  double flops_per_interaction = 0;  ///< from the kernel's row, for its precision
  std::vector<StepPhase> phases;     ///< per step, in order; empty when not measured
  /// Several GPUs of one process: each GPU's phases (`phases` are the first GPU's). The GPUs
  /// wait for each other in their exchange, so the spread of the phases before it shows the
  /// imbalance; empty on one GPU.
  std::vector<std::vector<StepPhase>> gpu_phases;

  /// Adds the work of one force evaluation (interactions, and phases by name; w's flops per
  /// interaction where it has them: a work of phases alone keeps this one's).
  void add(const StepWork& w);
  /// Divides the summed work of `steps` steps (> 0) by the step count.
  void per_step(int steps);
};

/// The order a backend keeps bodies in so that sources come first: the heaviest body, the other
/// massive ones, then the massless (each group in the user's order). `massive` receives the
/// number of sources (0 when no body has mass), `heaviest` the user's index of the heaviest.
std::vector<std::uint32_t> sources_first(const Bodies& b, std::size_t& massive,
                                         std::size_t& heaviest);

/// Every kernel this build has, CPU ones first. GPU rows are present only in CUDA builds.
const std::vector<KernelInfo>& kernel_table();
/// The row named `name`; throws nbody::Error listing the known names when there is none.
const KernelInfo& find_kernel(const std::string& name);
/// Checks the kernel name, precision and every tunable of that kernel against the table;
/// throws nbody::Error naming the parameter and the allowed values. Keys in p.tunables that
/// belong to other kernels are ignored (the window keeps them across switches).
void validate_kernel_params(const SimParams& p);
/// The tunable keys of the whole table in first-seen order (for generated options and columns).
std::vector<const Tunable*> all_tunables();
/// Creates the backend named p.kernel after validate() and validate_kernel_params().
std::unique_ptr<ForceBackend> make_backend(const SimParams& p);
/// True when a CUDA device is usable in this process (false in builds without CUDA).
bool cuda_available();
/// One line about the GPU ("NVIDIA H200, 132 SMs, ...") or why there is none.
std::string cuda_device_summary();
/// CUDA devices usable in this process (0 without CUDA or without a device).
int cuda_device_count();
/// The GPUs a GPU kernel runs on for `gpus` (0 = all devices); throws nbody::Error when there
/// are fewer devices, or when more than one is asked for in a build without NCCL.
int resolve_gpus(int gpus);

/// A force backend owns a copy of the bodies (host or device, float or double), computes
/// accelerations (its kernel) and advances them (its body store, driven by an integrator row).
class ForceBackend {
 public:
  virtual ~ForceBackend() = default;
  ForceBackend() = default;
  ForceBackend(const ForceBackend&) = delete;
  ForceBackend& operator=(const ForceBackend&) = delete;

  /// The table row of this backend.
  virtual const KernelInfo& info() const = 0;
  /// GPUs the backend runs on (1 for the CPU backends and a one-GPU kernel).
  virtual int gpus() const { return 1; }
  /// Number of bodies held.
  virtual std::size_t size() const = 0;
  /// Replaces the held bodies with positions, velocities and masses of `b`; invalidates the
  /// cached accelerations.
  virtual void set_bodies(const Bodies& b) = 0;
  /// Writes the held positions and velocities into `b` (resized to size() when it differs;
  /// masses and components are written too).
  virtual void get_bodies(Bodies& b) const = 0;
  /// Computes the accelerations of the current positions and returns them in double
  /// (ax, ay, az resized to size()). For tests and the bench.
  virtual void compute_accelerations(const SimParams& p, std::vector<double>& ax,
                                     std::vector<double>& ay, std::vector<double>& az) = 0;
  /// Advances `steps` steps of p.dt with the integrator p.integrator (a row of
  /// sim/integrators/), with no host round trip in between.
  virtual void step(const SimParams& p, int steps) = 0;
  /// Wall (CPU) or CUDA-event (GPU) milliseconds of the last step() call, per step.
  virtual double last_step_ms() const = 0;
  /// Interactions, flops per interaction and phase times of the last step() (or of the last
  /// compute_accelerations() before any step).
  virtual StepWork last_work() const = 0;

  /// Tree kernels: replaces `out` with the cells of the tree of the last force evaluation down
  /// to depth `max_level` (root = 0) and returns true; other kernels return false.
  virtual bool tree_cells(int max_level, std::vector<TreeCell>& out) { return false; }

  /// GPU backends: whether set_device_output() is honoured.
  virtual bool supports_device_output() const { return false; }
  /// GPU backends: from now on each step() ends by writing into `out` (pass {} to stop). The
  /// pointers must stay valid (mapped) until the next call.
  virtual void set_device_output(const DeviceOutput& out) {}
  /// GPU backends: bins the held positions on the device; returns false when the backend
  /// cannot (CPU backends: the caller uses compute_activity_map_cpu()).
  virtual bool activity_map(const ActivityMapParams& p, ActivityMap& out) { return false; }
};

/// Norm-wise relative error ||a - ref|| / ||ref|| over the 3N components, and the median,
/// 99th percentile and largest per-body relative error |a_i - ref_i| / |ref_i| (bodies with
/// |ref_i| = 0 compare absolutely).
struct AccelError {
  double normwise = 0, median = 0, p99 = 0, max = 0;
};
/// `count` indices spread evenly over 0..n-1, the first and last included (all when n <= count).
std::vector<std::size_t> sample_indices(std::size_t n, std::size_t count);
/// Direct-sum accelerations in double of the bodies `idx` (the cpu-reference formula, the self
/// pair and r² = 0 skipped), O(|idx| N), parallel over the sample. For checking kernels at large N.
void reference_accelerations(const Bodies& b, const std::vector<std::size_t>& idx, double G,
                             double softening, std::vector<double>& ax, std::vector<double>& ay,
                             std::vector<double>& az);
AccelError acceleration_error(const std::vector<double>& ax, const std::vector<double>& ay,
                              const std::vector<double>& az, const std::vector<double>& rx,
                              const std::vector<double>& ry, const std::vector<double>& rz);

}  // namespace nbody
