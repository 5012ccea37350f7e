// The activity-density map: parameter checks and the CPU reference binning. The GPU kernel
// (sim/cuda/device_store.cu) uses the same rule (sim/cuda/map_binning.hpp).
#include "sim/analysis/activity_map.hpp"

#include <algorithm>
#include <cmath>

#include "sim/core/error.hpp"
#include "sim/cuda/map_binning.hpp"

namespace nbody {

void validate(const ActivityMapParams& p) {
  if (p.size < 16 || p.size > 2048)
    fail("activity map: size D must be in 16..2048 (got ", p.size, ")");
  const int plane = static_cast<int>(p.plane);
  if (plane < 0 || plane > 2) fail("activity map: plane must be XY, XZ or YZ (got ", plane, ")");
  const int scale = static_cast<int>(p.scale);
  if (scale < 0 || scale > 1) fail("activity map: scale must be linear or log (got ", scale, ")");
  auto check_axis = [](const char* axis, double lo, double hi) {
    if (!std::isfinite(lo) || !std::isfinite(hi))
      fail("activity map: bounds of ", axis, " must be finite (got ", lo, " .. ", hi, ")");
    if (!(hi > lo) || !std::isfinite(hi - lo))
      fail("activity map: bounds of ", axis, " are empty or too wide (got ", lo, " .. ", hi, ")");
  };
  check_axis("u", p.u_min, p.u_max);
  check_axis("v", p.v_min, p.v_max);
}

ActivityMap compute_activity_map_cpu(const Bodies& b, const ActivityMapParams& p) {
  validate(p);
  const MapBinning bin = make_binning(p);
  ActivityMap m;
  m.size = p.size;
  const std::size_t cells = static_cast<std::size_t>(p.size) * p.size;
  m.counts.assign(cells, 0);
  m.image.assign(cells, 0.0f);
  // count
  for (std::size_t i = 0; i < b.size(); ++i) {
    const int c = map_cell(bin, b.x[i], b.y[i], b.z[i]);
    if (c < 0) continue;
    ++m.counts[static_cast<std::size_t>(c)];
    ++m.inside;
  }
  // normalise
  m.max_count = cells ? *std::max_element(m.counts.begin(), m.counts.end()) : 0;
  for (std::size_t c = 0; c < cells; ++c)
    m.image[c] = map_value(m.counts[c], m.max_count, static_cast<int>(p.scale));
  return m;
}

}  // namespace nbody
