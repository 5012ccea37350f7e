#pragma once
// Starting states fitted to the ephemeris (issue 21): the program's own force model (Newton's
// direct sum in double + the 1PN term) integrated over a window of dates around the scene's date
// reproduces the Swiss Ephemeris' heliocentric positions in the least-squares sense. Unfitted,
// every heliocentric velocity shares the error of the Sun's barycentric offset in the
// ephemeris' compressed files (~5e-9 AU, ~2e-9 AU/day), which grows linearly with time.
//
// The fit is a differential correction (Gauss-Newton with Levenberg-Marquardt damping; Jacobian
// by finite differences, one integration per parameter, in parallel) of the heliocentric states
// of every body but the Sun; the Sun's barycentric state follows from the centre of mass at rest
// at the origin. Fitted states are cached per date and model under $XDG_CACHE_HOME/nbody/sky-fit
// (~/.cache/nbody/sky-fit); a corrupt cache file is ignored with a notice.

#include <functional>
#include <string>
#include <vector>

#include "sim/core/bodies.hpp"
#include "sim/core/params.hpp"
#include "sim/sky/ephemeris.hpp"

namespace nbody::sky {

/// The force model and integrator the real-sky scenes run with, and the fit uses.
struct SkyModel {
  std::string integrator = "yoshida4";  ///< a row of the integrator table, by name
  /// step in days (> 0): 1/32 d, where the 10-year errors have converged in dt (Mercury 2e-9 AU
  /// from the integrator) and the spurious Newtonian perihelion advance is ~0.04"/century
  double dt = 0.03125;
  bool post_newtonian = true;  ///< a 1PN term
  /// which: the Sun's (sim/forces/post_newtonian.hpp) or EIH (sim/forces/eih.hpp)
  PnModel pn_model = PnModel::Sun;
  /// "yoshida4 dt=0.02 1pn" ("... eih" with the EIH term): names the model in cache keys and
  /// reports, so that a fit with one 1PN term is never read back for the other.
  std::string key() const;
  /// cpu-reference in double, G = k², c in AU/day, this integrator, dt and 1PN term.
  SimParams params() const;
};

/// The real-sky scenes' default model (docs/PERFORMANCE.md: its errors against the ephemeris).
SkyModel default_sky_model();

/// Advances `b` (solar units: AU, day, Msun) by `days` (either sign) with `model`: whole steps
/// of at most |model.dt| (the last one shortened so that the time is exact). Backwards in time
/// by reversing the velocities (the Newtonian and 1PN accelerations are even in them), so any
/// integrator works.
void propagate(Bodies& b, const SkyModel& model, double days);

/// Heliocentric positions (AU) of body k (k >= 1) relative to body 0 along a run: the run of
/// `b0` sampled at times t0 + j h, j = -half..half (days from b0's date), as
/// out[(j + half) * 3 * (n - 1) + 3 (k - 1) + c]. Two runs from t0, forwards and backwards.
void sample_heliocentric(const Bodies& b0, const SkyModel& model, double h, int half,
                         std::vector<double>& out);

/// What the fit is asked to do.
struct FitOptions {
  SkyModel model = default_sky_model();
  /// ephemeris positions from jd - window to jd + window: 5 years (1 year leaves Neptune 1e-6
  /// AU off after 10 years, 3 years 4e-6 AU after 100: docs/PERFORMANCE.md)
  double window_days = 1826.25;
  double sample_days = 4.0;  ///< every this many days
  int max_iterations = 8;    ///< Gauss-Newton / LM steps at most
  bool use_cache = true;     ///< read and write the cache
  /// Where notices go (a corrupt cache file, a cache that cannot be written); may be empty.
  std::function<void(const std::string&)> notice;
};

/// What the fit reached.
struct FitReport {
  double window_days = 0, sample_days = 0;
  int samples = 0;             ///< dates of the window
  double rms_au = 0;           ///< RMS of the heliocentric position differences (per body-date)
  double max_au = 0;           ///< the largest one
  std::string worst;           ///< the body of max_au
  double unfitted_max_au = 0;  ///< the same for the ephemeris' own states (0 from the cache)
  int iterations = 0;
  double seconds = 0;  ///< time the fit took (0 from the cache)
  bool from_cache = false;
  std::string cache_path;  ///< "" when no cache is used
  std::string model;       ///< SkyModel::key()
  /// One line: "fitted to the Swiss Ephemeris over ±365 d (183 dates): RMS 2.1e-08 AU, max
  /// 9.8e-08 AU (Moon); yoshida4 dt=0.02 1pn; 3.2 s".
  std::string summary() const;
};

/// The bodies `which` (the Sun first) at `jd_tt` in the barycentric frame (centre of mass at
/// rest at the origin), DE430 masses, names and components as the solar-system scene has them,
/// with their states fitted to the ephemeris. The fit is made at the nearest 0h TT and carried
/// to jd_tt with the model, so that dates within a day share one cached fit. Throws
/// nbody::Error for a date outside the ephemeris' range (window included).
Bodies fitted_bodies(const std::vector<Body>& which, double jd_tt, const FitOptions& opt = {},
                     FitReport* report = nullptr);

/// The same bodies with the ephemeris' own states (heliocentric, not shifted).
Bodies ephemeris_bodies(const std::vector<Body>& which, double jd_tt);

/// What float precision costs the real sky, measured (docs/PERFORMANCE.md), in one line for the
/// command line and the panel.
const char* float_cost_line();

/// The cache directory: $XDG_CACHE_HOME/nbody or $HOME/.cache/nbody; "" when neither is set.
std::string cache_directory();

namespace detail {
/// Least squares with damping: the δ minimising |J δ + r|² + λ |D δ|² (J is m x n, row-major;
/// D the column norms of J), by Householder QR. Throws nbody::Error when J has a zero column.
std::vector<double> damped_least_squares(const std::vector<double>& J, int m, int n,
                                         const std::vector<double>& r, double lambda);
/// The cache file's text for `b` and its parse; parse returns false (with `why`) when the text
/// is not a complete, finite cache of `names` for `key`.
std::string cache_text(const std::string& key, const Bodies& b, const FitReport& r);
bool parse_cache(const std::string& text, const std::string& key,
                 const std::vector<std::string>& names, Bodies& b, FitReport& r, std::string& why);
}  // namespace detail

}  // namespace nbody::sky
