#pragma once
// Table rows of the GPU kernels, one per .cu file (naive.cu, tiled.cu, tiled2d.cu, barnes_hut.cu,
// pairwise.cu).

#include "sim/core/backend.hpp"

namespace nbody::cuda {

KernelInfo naive_row();
KernelInfo tiled_row();
KernelInfo tiled2d_row();
KernelInfo barnes_hut_row();
KernelInfo pairwise_row();

/// The block-size tunable every GPU kernel has (multiples of 32 up to 1024).
Tunable block_size_tunable(int def);

}  // namespace nbody::cuda
