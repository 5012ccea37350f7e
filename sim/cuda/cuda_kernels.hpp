#pragma once
// The CUDA side of the kernel table, as plain C++ (no CUDA header): kernels.cpp calls these in
// CUDA builds. Each GPU kernel lives in its own .cu file with its table row.

#include <memory>
#include <string>
#include <vector>

#include "sim/core/backend.hpp"

namespace nbody {

/// Appends the GPU rows (naive, tiled, tiled2d) with their tunables and factories.
void append_cuda_kernels(std::vector<KernelInfo>& table);
/// True when the CUDA runtime finds at least one usable device (checked once, cached).
bool cuda_device_available();
/// "NVIDIA H200, driver 580.xx, CUDA runtime 13.0, 132 SMs, 1980 MHz, 139.8 GiB, sm_90" or why
/// there is no device.
std::string cuda_device_line();
/// CUDA devices the runtime finds (0 when none is usable).
int cuda_devices();
/// True when this build has the multi-GPU backend (NCCL was found at configure time).
bool multi_gpu_built();
/// The backend of kernel `row` on `gpus` (>= 2) devices, one slice of the bodies each, positions
/// exchanged with NCCL (sim/cuda/multi_gpu.cu); throws nbody::Error in builds without NCCL.
std::unique_ptr<ForceBackend> make_multi_gpu_backend(const KernelInfo& row, const SimParams& p,
                                                     int gpus);
/// The backend of rank p.process.rank of a run of p.process.world processes, one GPU each,
/// accelerations exchanged with NCCL (sim/cuda/multi_gpu.cu); nbody::Error without NCCL.
std::unique_ptr<ForceBackend> make_rank_backend(const KernelInfo& row, const SimParams& p);

}  // namespace nbody
