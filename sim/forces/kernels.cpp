// The kernel table: one row per force backend. CPU rows here; GPU rows come from
// sim/cuda (append_cuda_kernels) in CUDA builds.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "sim/core/backend.hpp"
#include "sim/core/error.hpp"
#include "sim/forces/cpu/kernels.hpp"
#include "sim/integrators/integrator.hpp"
#ifdef NBODY_HAVE_CUDA
#include "sim/cuda/cuda_kernels.hpp"
#endif

namespace nbody {

bool Tunable::valid(double v) const {
  if (!std::isfinite(v) || v < min || v > max) return false;
  switch (kind) {
    case TunableKind::Real:
      return true;
    case TunableKind::Choice:
      return v == std::floor(v) && v < static_cast<double>(choices.size());
    case TunableKind::Int:
      break;
  }
  const double k = (v - min) / step;
  return v == std::floor(v) && std::fabs(k - std::round(k)) < 1e-9;
}

std::string Tunable::allowed() const {
  std::ostringstream os;
  if (kind == TunableKind::Choice) {
    for (std::size_t i = 0; i < choices.size(); ++i)
      os << (i ? ", " : "") << choices[i];
    return os.str();
  }
  if (kind == TunableKind::Real) {
    os << min << " to " << max;
    return os.str();
  }
  const long count = std::lround((max - min) / step) + 1;
  if (step == 1 || count > 12) {
    os << min << ".." << max;
    if (step != 1) os << " in steps of " << step;
  } else {
    for (long i = 0; i < count; ++i)
      os << (i ? ", " : "") << min + static_cast<double>(i) * step;
  }
  return os.str();
}

std::string Tunable::format(double v) const {
  if (kind == TunableKind::Choice && v >= 0 && v < static_cast<double>(choices.size()))
    return choices[static_cast<std::size_t>(v)];
  std::ostringstream os;
  if (kind == TunableKind::Int)
    os << std::llround(v);
  else
    os << v;
  return os.str();
}

double Tunable::parse(const std::string& text, const std::string& what) const {
  if (kind == TunableKind::Choice)
    for (std::size_t i = 0; i < choices.size(); ++i)
      if (choices[i] == text) return static_cast<double>(i);
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !valid(v)) {
    const std::string shown = text.size() > 40 ? text.substr(0, 40) + "..." : text;
    fail(what, ": '", shown, "' is not valid (allowed: ", allowed(), ")");
  }
  return v;
}

Tunable int_tunable(std::string key, std::string label, int min, int max, int step, int def,
                    std::string help) {
  Tunable t;
  t.key = std::move(key);
  t.label = std::move(label);
  t.kind = TunableKind::Int;
  t.min = min;
  t.max = max;
  t.step = step;
  t.def = def;
  t.help = std::move(help);
  return t;
}

Tunable real_tunable(std::string key, std::string label, double min, double max, double step,
                     double def, std::string help) {
  Tunable t = int_tunable(std::move(key), std::move(label), 0, 0, 1, 0, std::move(help));
  t.kind = TunableKind::Real;
  t.min = min;
  t.max = max;
  t.step = step;
  t.def = def;
  return t;
}

Tunable choice_tunable(std::string key, std::string label, std::vector<std::string> choices,
                       int def, std::string help) {
  const int last = static_cast<int>(choices.size()) - 1;
  Tunable t = int_tunable(std::move(key), std::move(label), 0, last, 1, def, std::move(help));
  t.kind = TunableKind::Choice;
  t.choices = std::move(choices);
  return t;
}

void StepWork::add(const StepWork& w) {
  interactions += w.interactions;
  if (w.flops_per_interaction > 0) flops_per_interaction = w.flops_per_interaction;
  for (const StepPhase& ph : w.phases) {
    auto it = std::find_if(phases.begin(), phases.end(),
                           [&](const StepPhase& q) { return q.name == ph.name; });
    if (it == phases.end())
      phases.push_back(ph);
    else
      it->ms += ph.ms;
  }
}

void StepWork::per_step(int steps) {
  interactions /= steps;
  for (StepPhase& ph : phases)
    ph.ms /= steps;
}

std::vector<std::uint32_t> sources_first(const Bodies& b, std::size_t& massive,
                                         std::size_t& heaviest) {
  const std::size_t n = b.size();
  heaviest = 0;
  for (std::size_t i = 0; i < n; ++i)
    if (b.m[i] > b.m[heaviest]) heaviest = i;
  std::vector<std::uint32_t> perm;
  perm.reserve(n);
  if (n > 0) perm.push_back(static_cast<std::uint32_t>(heaviest));
  for (std::size_t i = 0; i < n; ++i)
    if (i != heaviest && b.m[i] > 0) perm.push_back(static_cast<std::uint32_t>(i));
  massive = n > 0 && b.m[heaviest] > 0 ? perm.size() : 0;
  for (std::size_t i = 0; i < n; ++i)
    if (i != heaviest && !(b.m[i] > 0)) perm.push_back(static_cast<std::uint32_t>(i));
  return perm;
}

const Tunable* KernelInfo::find_tunable(const std::string& key) const {
  for (const Tunable& t : tunables)
    if (t.key == key) return &t;
  return nullptr;
}

double KernelInfo::value(const SimParams& p, const std::string& key) const {
  const Tunable* t = find_tunable(key);
  if (!t) fail("kernel '", name, "' has no tunable '", key, "'");
  const auto it = p.tunables.find(key);
  return it == p.tunables.end() ? t->def : it->second;
}

namespace {

Tunable threads_tunable() {
  return int_tunable("threads", "threads", 0, 1024, 1, 0, "CPU threads (0 = all hardware threads)");
}

std::vector<KernelInfo> build_table() {
  std::vector<KernelInfo> t;
  {
    KernelInfo k;
    k.name = "cpu-reference";
    k.oracle = true;
    k.label = "CPU reference (double)";
    k.description = "direct sum in double precision on one thread; the oracle (always double)";
    k.supports_float = false;
    k.supports_double = true;
    k.flops_per_interaction = 20;
    k.create = [](const KernelInfo& row, const SimParams&) { return make_cpu_reference(row); };
    t.push_back(std::move(k));
  }
  {
    KernelInfo k;
    k.name = "cpu-openmp";
    k.label = "CPU OpenMP";
    k.description = "direct sum of every pair, the target bodies shared among OpenMP threads";
    k.supports_double = true;
    k.tunables = {threads_tunable()};
    k.create = [](const KernelInfo& row, const SimParams& p) {
      return make_cpu_openmp(row, p.precision);
    };
    t.push_back(std::move(k));
  }
  {
    KernelInfo k;
    k.name = "cpu-symmetric";
    k.label = "CPU symmetric (Newton 3)";
    k.description =
        "Newton's third law: each pair computed once and applied to both bodies, rows balanced "
        "over threads";
    k.supports_double = true;
    k.tunables = {threads_tunable()};
    k.create = [](const KernelInfo& row, const SimParams& p) {
      return make_cpu_symmetric(row, p.precision);
    };
    t.push_back(std::move(k));
  }
  {
    KernelInfo k;
    k.name = "cpu-barnes-hut";
    k.label = "CPU Barnes-Hut (octree)";
    k.description =
        "Barnes-Hut: bodies sorted into an octree; a distant cell pulls as one mass (plus its "
        "quadrupole) when farther than its size / theta, nearby bodies are summed one by one; "
        "O(N log N) work instead of N^2";
    k.supports_double = true;
    k.flops_per_interaction = 20;
    k.flops_per_interaction_double = 30;
    k.tree = true;
    k.tunables = bh_tunables(0, 256, 1);
    k.tunables.push_back(threads_tunable());
    k.create = [](const KernelInfo& row, const SimParams& p) {
      return make_cpu_barnes_hut(row, p);
    };
    t.push_back(std::move(k));
  }
  {
    KernelInfo k;
    k.name = "cpu-falcon";
    k.label = "CPU falcON (cell-cell)";
    k.description =
        "Dehnen's falcON: cells interact with cells, both ways at once, when farther apart than "
        "their radii / theta (monopole and quadrupole, field to second order), nearby bodies "
        "pairwise; forces equal and opposite, so momentum is conserved to rounding; O(N) work";
    k.supports_double = true;
    k.flops_per_interaction = 20;
    k.flops_per_interaction_double = 30;
    k.tree = true;
    k.tunables = {
        real_tunable("theta", "theta", 0, 1, 0.05, 0.25,
                     "opening angle: two cells interact through their multipoles when their "
                     "centres are farther apart than (radius A + radius B) / theta (0 = the exact "
                     "direct sum; larger is faster and less accurate)"),
        int_tunable("leaf_size", "leaf size", 1, 64, 1, 16,
                    "most bodies in a tree leaf (cells with more split into octants)"),
        threads_tunable()};
    k.create = [](const KernelInfo& row, const SimParams& p) { return make_cpu_falcon(row, p); };
    t.push_back(std::move(k));
  }
#ifdef NBODY_HAVE_CUDA
  append_cuda_kernels(t);
#endif
  return t;
}

}  // namespace

std::vector<Tunable> bh_tunables(int min_group, int max_group, int group_step) {
  return {real_tunable("theta", "theta", 0, 1.5, 0.05, 0.55,
                       "opening angle: a cell acts as one mass (plus its quadrupole) when farther "
                       "than its size / theta (0 = the exact direct sum; larger is faster and "
                       "less accurate)"),
          int_tunable("leaf_size", "leaf size", 1, 64, 1, 16,
                      "most bodies in a tree leaf (cells with more split into octants)"),
          int_tunable("group_size", "group size", min_group, max_group, group_step, 0,
                      "at most this many consecutive sorted bodies share one tree walk (0 = "
                      "auto: on the GPU 16 below 131,072 bodies, 32 below 1,048,576 and 64 from "
                      "there; on the CPU 64)"),
          choice_tunable("quadrupole", "quadrupole", {"off", "on"}, 1,
                         "cells act with their quadrupole moments too (more accurate at the same "
                         "theta)"),
          choice_tunable("opening", "opening", {"cell", "bmax"}, 0,
                         "when a cell opens: cell = within its size / theta + the offset of its "
                         "centre of mass; bmax = within the smaller of that and 1.15 x the "
                         "distance of its farthest body from its centre of mass / theta (sparse "
                         "cells act sooner: faster at the same median error on clustered "
                         "bodies)"),
          real_tunable("alpha", "relative error", 0, 0.02, 0.0005, 0,
                       "relative opening (GADGET-2's): above 0 a cell also acts only where its "
                       "multipole's error bound is below alpha x the weakest pull on the bodies "
                       "it acts on (from a first crude pass); theta then only bounds how near "
                       "a cell may act: raise it to ~1 (theta 1, alpha 0.003: on the GPU "
                       "27-38 % faster at the same median error on clustered bodies from 1M, "
                       "on the CPU ~15 %; nothing gained on uniform ones)")};
}

BhConfig bh_config(const KernelInfo& row, const SimParams& p) {
  BhConfig c;
  c.theta = row.value(p, "theta");
  c.leaf_size = row.int_value(p, "leaf_size");
  c.group_size = row.int_value(p, "group_size");
  c.quadrupole = row.int_value(p, "quadrupole") != 0;
  c.bmax = row.int_value(p, "opening") != 0;
  c.alpha = row.value(p, "alpha");
  c.block_size = row.find_tunable("block_size") ? row.int_value(p, "block_size") : 0;
  c.local_theta = row.find_tunable("local_theta") ? row.value(p, "local_theta") : 0;
  c.rebuild = row.find_tunable("rebuild") ? row.int_value(p, "rebuild") : 1;
  if (c.local_theta > 0 && !c.quadrupole)
    fail("kernel '", row.name, "': local_theta ", c.local_theta,
         " needs the quadrupole on (the far cells' expansion starts from it)");
  return c;
}

int group_size_for(const BhConfig& c, std::size_t n, bool gpu) {
  if (c.group_size > 0) return c.group_size;
  if (!gpu) return 64;
  return n < (std::size_t{1} << 17) ? 16 : n < (std::size_t{1} << 20) ? 32 : 64;
}

const std::vector<KernelInfo>& kernel_table() {
  static const std::vector<KernelInfo> table = build_table();
  return table;
}

const KernelInfo& find_kernel(const std::string& name) {
  for (const KernelInfo& k : kernel_table())
    if (k.name == name) return k;
  std::ostringstream known;
  for (const KernelInfo& k : kernel_table())
    known << (known.tellp() ? ", " : "") << k.name;
  fail("kernel: unknown kernel '", name, "' (known in this build: ", known.str(), ")");
}

void validate_kernel_params(const SimParams& p) {
  const KernelInfo& k = find_kernel(p.kernel);
  if (p.precision == Precision::Double && !k.supports_double && k.supports_float)
    fail("precision: kernel '", k.name, "' supports float only");
  validate_integrator(p, k.gpu);  // IAS15 and WHFast: host only; IAS15: double
  // a GPU tree on several GPUs walks every GPU's tree from its root, the roots one per lane of a
  // warp (sim/cuda/barnes_hut.cu)
  constexpr int kMaxTreeGpus = 32;
  if (k.gpu && k.tree && std::max(p.gpus, p.process.world) > kMaxTreeGpus)
    fail(p.process.world > 1 ? "--world " : "--gpus ", std::max(p.gpus, p.process.world),
         ": kernel '", k.name, "' runs on at most ", kMaxTreeGpus, " GPUs");
  for (const Tunable& t : k.tunables) {
    const double v = k.value(p, t.key);
    if (!t.valid(v))
      fail(t.key, ": ", t.format(v), " is not valid for kernel '", k.name,
           "' (allowed: ", t.allowed(), ")");
  }
  if (k.find_tunable("local_theta")) (void)bh_config(k, p);  // local_theta needs the quadrupole
}

std::vector<const Tunable*> all_tunables() {
  std::vector<const Tunable*> out;
  for (const KernelInfo& k : kernel_table())
    for (const Tunable& t : k.tunables)
      if (std::none_of(out.begin(), out.end(), [&](const Tunable* o) { return o->key == t.key; }))
        out.push_back(&t);
  return out;
}

std::unique_ptr<ForceBackend> make_backend(const SimParams& p) {
  validate(p);
  validate_kernel_params(p);
  const KernelInfo& k = find_kernel(p.kernel);
  if (p.process.world > 1) {
    if (!k.gpu)
      fail("--world ", p.process.world, ": a run of several processes needs a GPU kernel, not '",
           k.name, "'");
    if (p.gpus != 1)
      fail("--gpus ", p.gpus, ": each rank of a run of several processes has one GPU");
  }
  if (k.gpu && !cuda_available())
    fail("kernel '", k.name, "' needs a CUDA device: ", cuda_device_summary());
#ifdef NBODY_HAVE_CUDA
  // one rank of several processes, or several GPUs of this one: one slice of the targets per
  // GPU (sim/cuda/multi_gpu.cu)
  if (k.gpu && p.process.world > 1) return make_rank_backend(k, p);
  if (k.gpu) {
    const int gpus = resolve_gpus(p.gpus);
    if (gpus > 1) return make_multi_gpu_backend(k, p, gpus);
  }
#endif
  return k.create(k, p);
}

#ifdef NBODY_HAVE_CUDA
bool cuda_available() {
  return cuda_device_available();
}
std::string cuda_device_summary() {
  return cuda_device_line();
}
int cuda_device_count() {
  return cuda_device_available() ? cuda_devices() : 0;
}
int resolve_gpus(int gpus) {
  if (gpus < 0) fail("--gpus: ", gpus, " is not a number of GPUs (1, 2, ... or all)");
  const int have = cuda_device_count();
  if (have == 0) fail("--gpus: no CUDA device: ", cuda_device_summary());
  const int want = gpus == 0 ? have : gpus;
  if (want > have)
    fail("--gpus ", want, ": this machine has ", have, " CUDA device", have == 1 ? "" : "s");
  if (want > 1 && !multi_gpu_built())
    fail("--gpus ", want,
         ": this build has no NCCL (nccl.h and libnccl were not found when it was configured), "
         "so it runs on one GPU only");
  return want;
}
#else
bool cuda_available() {
  return false;
}
std::string cuda_device_summary() {
  return "this build has no CUDA support (CPU kernels only)";
}
int cuda_device_count() {
  return 0;
}
int resolve_gpus(int gpus) {
  if (gpus < 0) fail("--gpus: ", gpus, " is not a number of GPUs (1, 2, ... or all)");
  if (gpus != 1) fail("--gpus ", gpus, ": this build has no CUDA support (CPU kernels only)");
  return 1;
}
#endif

}  // namespace nbody
