// The GPU rows of the kernel table and the device query (declared in cuda_kernels.hpp).
#include "sim/cuda/cuda_kernels.hpp"

#include <cuda_runtime.h>

#include <sstream>

#include "sim/core/error.hpp"
#include "sim/cuda/common.cuh"
#include "sim/cuda/kernel_rows.hpp"

namespace nbody {

namespace cuda {

Tunable block_size_tunable(int def) {
  return int_tunable("block_size", "block size", 32, 1024, 32, def,
                     "CUDA threads per block (a multiple of 32)");
}

}  // namespace cuda

void append_cuda_kernels(std::vector<KernelInfo>& table) {
  // one row per kernel file
  table.push_back(cuda::naive_row());
  table.push_back(cuda::tiled_row());
  table.push_back(cuda::tiled2d_row());
  table.push_back(cuda::barnes_hut_row());
  table.push_back(cuda::pairwise_row());
}

namespace {

// why there is no device, or "" when there is one
std::string probe_device() {
  int count = 0;
  const cudaError_t e = cudaGetDeviceCount(&count);
  if (e != cudaSuccess) {
    cudaGetLastError();
    return std::string("no CUDA device usable (") + cudaGetErrorString(e) +
           "): no NVIDIA GPU or driver here; the CPU kernels still run";
  }
  if (count == 0) return "no CUDA device: the CUDA runtime found none; the CPU kernels still run";
  return {};
}

const std::string& probe_result() {
  static const std::string r = probe_device();
  return r;
}

}  // namespace

bool cuda_device_available() {
  return probe_result().empty();
}

int cuda_devices() {
  if (!cuda_device_available()) return 0;
  int count = 0;
  NBODY_CUDA_CHECK(cudaGetDeviceCount(&count));
  return count;
}

#ifndef NBODY_HAVE_NCCL
bool multi_gpu_built() {
  return false;
}
std::unique_ptr<ForceBackend> make_multi_gpu_backend(const KernelInfo& row, const SimParams&,
                                                     int gpus) {
  fail("--gpus ", gpus, ": this build has no NCCL, so kernel '", row.name,
       "' runs on one GPU only");
}
std::unique_ptr<ForceBackend> make_rank_backend(const KernelInfo& row, const SimParams& p) {
  fail("--world ", p.process.world, ": this build has no NCCL, so kernel '", row.name,
       "' runs in one process only");
}
#endif

std::string cuda_device_line() {
  if (!cuda_device_available()) return probe_result();
  const cudaDeviceProp& p = cuda::device_properties();
  int driver = 0, runtime = 0, clock_khz = 0, dev = 0;
  cudaDriverGetVersion(&driver);
  cudaRuntimeGetVersion(&runtime);
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, dev);
  std::ostringstream os;
  os << p.name << ", driver API " << driver / 1000 << "." << (driver % 1000) / 10
     << ", CUDA runtime " << runtime / 1000 << "." << (runtime % 1000) / 10 << ", "
     << p.multiProcessorCount << " SMs, " << clock_khz / 1000 << " MHz, " << std::fixed;
  os.precision(1);
  os << p.totalGlobalMem / double(1 << 30) << " GiB, sm_" << p.major << p.minor;
  return os.str();
}

}  // namespace nbody
