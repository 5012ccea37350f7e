// The kernel table: one row per force backend. CPU rows here; GPU rows come from
// sim/cuda (append_cuda_kernels) in CUDA builds.
#include <cmath>
#include <sstream>

#include "sim/backend.hpp"
#include "sim/cpu_backends.hpp"
#include "sim/error.hpp"
#ifdef NBODY_HAVE_CUDA
#include "sim/cuda/cuda_kernels.hpp"
#endif

namespace nbody {

std::string Tunable::allowed() const {
  std::ostringstream os;
  const int count = (max - min) / step + 1;
  if (step == 1 || count > 12) {
    os << min << ".." << max;
    if (step != 1) os << " in steps of " << step;
  } else {
    for (int v = min; v <= max; v += step)
      os << (v == min ? "" : ", ") << v;
  }
  return os.str();
}

namespace {

Tunable threads_tunable() {
  return {"threads",
          "threads",
          &SimParams::threads,
          0,
          1024,
          1,
          0,
          "CPU threads (0 = all hardware threads)"};
}

std::vector<KernelInfo> build_table() {
  std::vector<KernelInfo> t;
  {
    KernelInfo k;
    k.name = "cpu-reference";
    k.label = "CPU reference (double)";
    k.description = "direct sum in double precision on one thread; the oracle (always double)";
    k.supports_float = false;
    k.supports_double = true;
    k.flops_per_interaction = 20;
    k.create = [](const SimParams&) { return make_cpu_reference(find_kernel("cpu-reference")); };
    t.push_back(std::move(k));
  }
  {
    KernelInfo k;
    k.name = "cpu-openmp";
    k.label = "CPU OpenMP";
    k.description = "direct sum, OpenMP threads over target bodies (seed 001)";
    k.supports_double = true;
    k.tunables = {threads_tunable()};
    k.create = [](const SimParams& p) {
      return make_cpu_openmp(find_kernel("cpu-openmp"), p.precision);
    };
    t.push_back(std::move(k));
  }
  {
    KernelInfo k;
    k.name = "cpu-symmetric";
    k.label = "CPU symmetric (Newton 3)";
    k.description = "each pair once, rows balanced over threads, per-thread buffers (seed 000)";
    k.supports_double = true;
    k.tunables = {threads_tunable()};
    k.create = [](const SimParams& p) {
      return make_cpu_symmetric(find_kernel("cpu-symmetric"), p.precision);
    };
    t.push_back(std::move(k));
  }
#ifdef NBODY_HAVE_CUDA
  append_cuda_kernels(t);
#endif
  return t;
}

}  // namespace

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
  for (const Tunable& t : k.tunables) {
    const int v = p.*(t.field);
    if (!t.valid(v))
      fail(t.key, ": ", v, " is not valid for kernel '", k.name, "' (allowed: ", t.allowed(), ")");
  }
}

std::unique_ptr<ForceBackend> make_backend(const SimParams& p) {
  validate(p);
  validate_kernel_params(p);
  const KernelInfo& k = find_kernel(p.kernel);
  if (k.gpu && !cuda_available())
    fail("kernel '", k.name, "' needs a CUDA device: ", cuda_device_summary());
  return k.create(p);
}

#ifdef NBODY_HAVE_CUDA
bool cuda_available() {
  return cuda_device_available();
}
std::string cuda_device_summary() {
  return cuda_device_line();
}
#else
bool cuda_available() {
  return false;
}
std::string cuda_device_summary() {
  return "this build has no CUDA support (CPU kernels only)";
}
#endif

}  // namespace nbody
