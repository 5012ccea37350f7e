#pragma once
// The two CUDA error macros: NBODY_CUDA_CHECK throws nbody::Error naming file:line, the
// expression and the CUDA error string; NBODY_CUDA_LOG only prints (for destructors).

#include <cuda_runtime.h>

#include <cstdio>

#include "sim/core/error.hpp"

namespace nbody::cuda {

/// Throws nbody::Error when `e` is not cudaSuccess.
inline void check(cudaError_t e, const char* expr, const char* file, int line) {
  if (e != cudaSuccess)
    fail(file, ":", line, ": CUDA error in '", expr, "': ", cudaGetErrorName(e), ": ",
         cudaGetErrorString(e));
}

/// Prints to stderr when `e` is not cudaSuccess; never throws.
inline void log_error(cudaError_t e, const char* expr, const char* file, int line) noexcept {
  if (e != cudaSuccess)
    std::fprintf(stderr, "nbody: %s:%d: CUDA error in '%s': %s\n", file, line, expr,
                 cudaGetErrorString(e));
}

}  // namespace nbody::cuda

#define NBODY_CUDA_CHECK(expr) ::nbody::cuda::check((expr), #expr, __FILE__, __LINE__)
#define NBODY_CUDA_LOG(expr) ::nbody::cuda::log_error((expr), #expr, __FILE__, __LINE__)
