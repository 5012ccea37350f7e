#pragma once
// The binning rule of the activity map, shared by the CPU reference and the GPU kernel so that
// both count exactly the same cells: (u - u_min) * (D / (u_max - u_min)) in double, truncated,
// clamped to D - 1; bodies outside [min, max] (or NaN) are not counted. Plain C++ that nvcc also
// compiles for the device.

#include "sim/analysis/activity_map.hpp"

#ifdef __CUDACC__
#define NBODY_HOST_DEVICE __host__ __device__
#else
#define NBODY_HOST_DEVICE
#endif

namespace nbody {

/// Precomputed binning of one ActivityMapParams.
struct MapBinning {
  int plane = 0;
  int size = 0;
  double u_min = 0, u_max = 0, v_min = 0, v_max = 0;
  double u_scale = 0, v_scale = 0;
};

inline MapBinning make_binning(const ActivityMapParams& p) {
  MapBinning b;
  b.plane = static_cast<int>(p.plane);
  b.size = p.size;
  b.u_min = p.u_min;
  b.u_max = p.u_max;
  b.v_min = p.v_min;
  b.v_max = p.v_max;
  b.u_scale = p.size / (p.u_max - p.u_min);
  b.v_scale = p.size / (p.v_max - p.v_min);
  return b;
}

/// Cell index (row v, column u) of a position, or -1 when it falls outside the bounds.
NBODY_HOST_DEVICE inline int map_cell(const MapBinning& b, double x, double y, double z) {
  // pick the plane's axes: XY -> (x, y), XZ -> (x, z), YZ -> (y, z)
  const double u = b.plane == 2 ? y : x;
  const double v = b.plane == 0 ? y : z;
  if (!(u >= b.u_min && u <= b.u_max && v >= b.v_min && v <= b.v_max)) return -1;
  // sub then mul, never contracted into an fma, so host and device agree bit for bit
  const double fu = (u - b.u_min) * b.u_scale;
  const double fv = (v - b.v_min) * b.v_scale;
  int c = static_cast<int>(fu), r = static_cast<int>(fv);
  if (c >= b.size) c = b.size - 1;
  if (r >= b.size) r = b.size - 1;
  return r * b.size + c;
}

}  // namespace nbody

#include <cmath>

namespace nbody {

/// Normalised image value of a cell: count / max (linear) or log(1 + count) / log(1 + max).
NBODY_HOST_DEVICE inline float map_value(unsigned count, unsigned max_count, int scale) {
  if (max_count == 0) return 0.0f;
  if (scale == 0) return static_cast<float>(static_cast<double>(count) / max_count);
  return static_cast<float>(::log1p(static_cast<double>(count)) /
                            ::log1p(static_cast<double>(max_count)));
}

}  // namespace nbody
