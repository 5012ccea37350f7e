#pragma once
// NCCL error checks, like the CUDA ones: NBODY_NCCL_CHECK throws nbody::Error naming file:line,
// the call and ncclGetErrorString (plus NCCL's last error text); NBODY_NCCL_LOG only prints.

#include <nccl.h>

#include <cstdio>

#include "sim/core/error.hpp"

namespace nbody::cuda {

/// Throws nbody::Error when `r` is not ncclSuccess.
inline void nccl_check(ncclResult_t r, const char* expr, const char* file, int line) {
  if (r != ncclSuccess)
    fail(file, ":", line, ": NCCL error in '", expr, "': ", ncclGetErrorString(r), " (",
         ncclGetLastError(nullptr), ")");
}

/// Prints to stderr when `r` is not ncclSuccess; never throws.
inline void nccl_log(ncclResult_t r, const char* expr, const char* file, int line) noexcept {
  if (r != ncclSuccess)
    std::fprintf(stderr, "nbody: %s:%d: NCCL error in '%s': %s\n", file, line, expr,
                 ncclGetErrorString(r));
}

}  // namespace nbody::cuda

#define NBODY_NCCL_CHECK(expr) ::nbody::cuda::nccl_check((expr), #expr, __FILE__, __LINE__)
#define NBODY_NCCL_LOG(expr) ::nbody::cuda::nccl_log((expr), #expr, __FILE__, __LINE__)
