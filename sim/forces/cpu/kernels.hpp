#pragma once
// Factories of the CPU backends (rows of the kernel table in kernels.cpp).

#include <memory>

#include "sim/core/backend.hpp"

namespace nbody {

/// Direct sum in double precision on one thread: the oracle every other kernel is checked against.
std::unique_ptr<ForceBackend> make_cpu_reference(const KernelInfo& info);
/// Direct sum over OpenMP threads (seed 001), each thread owning a range of target bodies.
std::unique_ptr<ForceBackend> make_cpu_openmp(const KernelInfo& info, Precision p);
/// Newton's third law: each pair once, rows paired for balance, per-thread buffers (seed 000
/// §5.2.2).
std::unique_ptr<ForceBackend> make_cpu_symmetric(const KernelInfo& info, Precision p);
/// Barnes-Hut on an octree of Morton-sorted bodies (sim/tree), OpenMP over groups of bodies;
/// reads theta, leaf_size, group_size, quadrupole and threads from p through `row`.
std::unique_ptr<ForceBackend> make_cpu_barnes_hut(const KernelInfo& row, const SimParams& p);
/// Mutual cell-cell interactions on the same octree (Dehnen's falcON, sim/tree/dual_tree.hpp):
/// O(N), forces equal and opposite (momentum conserved to rounding); reads theta, leaf_size and
/// threads from p through `row`.
std::unique_ptr<ForceBackend> make_cpu_falcon(const KernelInfo& row, const SimParams& p);

}  // namespace nbody
