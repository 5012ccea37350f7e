#pragma once
// The activity-density map (seeds 002, 004): bodies binned into a D×D grid over a plane,
// counted per cell and normalised (linear or log) into a float image for a texture.

#include <cstdint>
#include <vector>

#include "sim/core/bodies.hpp"

namespace nbody {

enum class MapPlane { XY = 0, XZ = 1, YZ = 2 };
enum class MapScale { Linear = 0, Log = 1 };

struct ActivityMapParams {
  MapPlane plane = MapPlane::XY;
  int size = 256;  ///< D, 16..2048
  /// bounds of the plane's first (u) and second (v) axis; bodies outside are not counted
  double u_min = -1, u_max = 1, v_min = -1, v_max = 1;
  MapScale scale = MapScale::Log;
};

/// Counts and normalised image, row-major, row v, column u; image values in [0, 1].
struct ActivityMap {
  int size = 0;
  std::vector<std::uint32_t> counts;
  std::vector<float> image;
  std::uint32_t max_count = 0;
  std::uint64_t inside = 0;  ///< bodies that fell inside the bounds
};

/// Throws nbody::Error naming the parameter when D is outside 16..2048 or bounds are empty/NaN.
void validate(const ActivityMapParams& p);
/// CPU reference binning (the GPU kernel must agree exactly on counts).
ActivityMap compute_activity_map_cpu(const Bodies& b, const ActivityMapParams& p);

}  // namespace nbody
