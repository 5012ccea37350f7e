#pragma once
// Host-and-device function markers for code shared by the CPU and CUDA backends.

#if defined(__CUDACC__)
#define NBODY_HD __host__ __device__
#define NBODY_HD_INLINE __host__ __device__ __forceinline__
#else
#define NBODY_HD
#define NBODY_HD_INLINE inline
#endif
