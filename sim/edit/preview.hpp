#pragma once
// The predicted path of a body being placed (issue 19), drawn while the user drags its velocity:
// the conic about the body that dominates its acceleration (planetary scenes), or else a short
// integration in the frozen field of a sample of the bodies. Cheap enough for every frame.

#include <array>
#include <vector>

#include "sim/core/scene.hpp"
#include "sim/edit/edit.hpp"

namespace nbody {

/// A predicted path and how it was made.
struct PathPreview {
  std::vector<std::array<double, 3>> points;  ///< in the scene's frame and length unit
  bool conic = false;   ///< the osculating conic about `dominant` (else integrated)
  bool closed = false;  ///< a full ellipse (the last point is the first)
  long dominant = -1;   ///< the dominating body for a conic, else -1
  double duration = 0;  ///< integrated: the time covered (scene time unit); conic: 0
};

/// Most bodies the field of an integrated preview is sampled from.
inline constexpr std::size_t kPreviewSources = 4096;

/// The bodies a preview sees, frozen: every massive body when there are at most
/// kPreviewSources, else the 16 heaviest and an even sample of the rest with their masses
/// scaled to keep the total. Made once when a drag starts (O(N): ~4 ms at N = 1M), used by
/// every frame's preview_path() while dragging.
struct PreviewField {
  std::vector<double> x, y, z, vx, vy, vz, m;
  std::vector<long> index;  ///< the body of each source
  std::size_t exact = 0;    ///< sources [0, exact) carry their own masses (a conic's centre)
  std::vector<float> fx, fy, fz, fm;  ///< x, y, z, m in float for the integration
};

/// The preview field of `s`'s bodies.
PreviewField preview_field(const Scene& s);

/// The path of `probe` in `s` with `points` points (>= 2; throws nbody::Error otherwise). When
/// one body gives more than 90% of the sum of the magnitudes of the pulls on the probe: the
/// conic about it from the osculating elements (μ = G (m + m_probe)), a full ellipse or a
/// hyperbola / parabola branch out to the system's size. Otherwise a leapfrog of the probe in
/// the frozen field of at most kPreviewSources bodies (the 16 heaviest, then an even sample of
/// the rest with their masses scaled to keep the total) with softening ε, over about one
/// crossing time of the probe's neighbourhood (2 sqrt(r / |a|) with r its distance from the
/// centre of mass, at most 2 r / |v|). O(points kPreviewSources): ~1-2 ms for 256 points.
PathPreview preview_path(const PreviewField& f, const BodySpec& probe, double G, double softening,
                         int points);

/// preview_path() in the field of `s` made for this call (O(N) more).
PathPreview preview_path(const Scene& s, const BodySpec& probe, double G, double softening,
                         int points);

/// preview_path(...).points.
std::vector<std::array<double, 3>> predict_path(const Scene& s, const BodySpec& probe, double G,
                                                double softening, int points);

}  // namespace nbody
