#pragma once
// JPL Small-Body Database: the JSON of the SBDB Query API (https://ssd-api.jpl.nasa.gov/doc/
// sbdb_query.html), as Debian's kstars-data ships it in /usr/share/kstars/asteroids.dat and
// comets.dat: {"signature": {...}, "fields": [names], "data": [[values], ...]}. Values may be
// strings, numbers or null; field names vary (epoch_mjd or epoch.mjd, per_y or per.y).

#include <cstddef>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "sim/core/bodies.hpp"
#include "sim/core/scene.hpp"
#include "sim/sky/kepler.hpp"

namespace nbody::sky {

/// One small body: osculating heliocentric ecliptic J2000 elements and what a mass can be
/// estimated from.
struct SmallBody {
  std::string name;         ///< full_name, trimmed ("1 Ceres (A801 AA)", "1P/Halley")
  std::string orbit_class;  ///< SBDB class: MBA, TJN, CEN, TNO, OMB, JFc, HTC, PAR, HYP, ...
  double epoch = 0;         ///< epoch of the elements (JD TDB)
  Elements el;              ///< q, e, i, Ω, ω and the time of pericentre (from tp or ma)
  std::optional<double> diameter_km, H, albedo, gm_km3s2;
  std::size_t row = 0;  ///< its row in the file's "data" (from 1), for messages
};

/// The bodies of one file (those passing the filter it was read with) and the rows that could
/// not be used (no elements).
struct SbdbData {
  std::vector<SmallBody> bodies;
  std::vector<std::string> skipped;  ///< "row 17 ('name'): no ma and no tp", the first 100
  std::size_t skipped_count = 0;     ///< all rows skipped
  std::size_t usable = 0;            ///< rows with usable elements (before the filter)
  std::size_t rows = 0;              ///< rows in "data"
  std::set<std::string> classes;     ///< the classes (upper case) of all usable rows
};

/// Which bodies a streaming read keeps (the others are checked and dropped as they are read).
struct SbdbFilter {
  std::vector<std::string> classes;  ///< SBDB classes to keep (case-insensitive); all if empty
  std::size_t max = 0;               ///< at most this many (file order); 0: all
  /// Memory the kept bodies may take before the read is refused; 0: 3 times the input's size,
  /// at least 64 MiB.
  std::size_t max_bytes = 0;
};

/// Whether `n` bytes at `p` (a file's beginning) look like SBDB JSON: an object whose first
/// kilobytes name "fields" and either the SBDB signature or a "full_name" field.
bool looks_like_sbdb(const char* p, std::size_t n);
/// Parses SBDB JSON held in memory, streaming (no JSON tree is built); `source` names it in
/// errors (bad JSON, no "fields"/"data", a value that is not a decimal number, e >= 1 with only
/// a mean anomaly, an epoch outside years -4712..9999, H, diameter, albedo or GM that no small
/// body has, a control character in a name, ...).
SbdbData read_sbdb(const char* data, std::size_t size, const std::string& source,
                   const SbdbFilter& filter = {});
/// Streams the file `path` from disk (never whole in memory); see read_sbdb().
SbdbData read_sbdb_file(const std::string& path, const SbdbFilter& filter = {});

/// Which small bodies pull on the others (all of them feel the Sun and planets).
enum class SmallBodyMasses {
  Largest,    ///< Ceres, Pallas, Vesta and Hygiea with DE440's GM; the rest test particles
  None,       ///< every small body a test particle (m = 0)
  Estimated,  ///< every one massive: GM from the file, else from its diameter or H
};

/// "largest", "none", "estimated"; parse_small_body_masses() reads them (throws naming the
/// value and the choices).
const char* small_body_masses_name(SmallBodyMasses m);
SmallBodyMasses parse_small_body_masses(const std::string& name);

/// DE440's GM in km³/s² for the largest asteroids (Park et al. 2021, AJ 161, 105, and JPL's
/// gm_de440.tpc), by their number; 0 for any other.
double de440_gm_km3s2(long number);
/// The asteroid number that starts an SBDB full_name ("1 Ceres (A801 AA)" -> 1); 0 when none
/// (comets, provisional designations).
long asteroid_number(const std::string& full_name);

/// How small bodies become bodies of a scene.
struct SmallBodyOptions {
  std::vector<std::string>
      classes;          ///< keep only these SBDB classes (case-insensitive); all if empty
  std::size_t max = 0;  ///< keep at most this many (file order); 0: all
  /// test particles but for the largest asteroids, by default: thousands of massive bodies
  /// would make every step an O(N²) sum for a pull too small to see
  SmallBodyMasses masses = SmallBodyMasses::Largest;
  double density = 2000.0;       ///< kg/m³ for masses from diameters
  double default_albedo = 0.14;  ///< geometric albedo when only H is known
  /// One-line notices (rows skipped for want of elements, how the bodies were carried); may be
  /// empty.
  std::function<void(const std::string&)> notice;
  /// add_small_bodies(): carry the bodies from their elements' epochs to the scene's date by
  /// integration with the planets (sim/sky/carry.hpp; cached per date); false: Kepler orbits.
  bool carry = true;
};

/// The mass in solar masses as opt.masses asks. Estimated: GM when given; else rho pi D³ / 6
/// with D the diameter, or from H and the albedo (D = 1329 km / sqrt(p_V) 10^(-H/5)); 0 when
/// none is known. Largest: DE440's GM for the four largest asteroids, else 0. None: 0.
double estimate_mass(const SmallBody& b, const SmallBodyOptions& opt);
/// The bodies passing the filter (classes, max), in file order.
std::vector<SmallBody> select(const std::vector<SmallBody>& all, const SmallBodyOptions& opt);
/// Heliocentric states of `bodies` at `jd` by two-body propagation about the Sun (mu = k²) from
/// their own epochs; names, classes and masses filled; component Planet. A propagation error
/// names `source` and the body's row.
/// With `states` given (one per body, heliocentric at jd, e.g. from carry_small_bodies()),
/// those states instead of the two-body propagation.
Bodies heliocentric_bodies(const std::vector<SmallBody>& bodies, double jd,
                           const SmallBodyOptions& opt, std::vector<std::string>* classes = nullptr,
                           const std::string& source = "SBDB",
                           const std::vector<State>* states = nullptr);

/// A scene of the file alone: the Sun (1 Msun at the origin) and the bodies propagated to the
/// most common element epoch of the file; solar units; masses as `masses` says (the largest
/// asteroids only, by default). For `--load`/`info`.
/// Skipped rows are reported through `notice` when given.
Scene sbdb_scene(const SbdbData& d, const std::string& source,
                 const std::function<void(const std::string&)>& notice = {},
                 SmallBodyMasses masses = SmallBodyMasses::Largest);
/// "path: 3 of 120 rows skipped (no usable elements), e.g. row 17 ('X'): no tp and no ma with
/// epoch"; empty when none was skipped.
std::string skipped_notice(const SbdbData& d, const std::string& source);

}  // namespace nbody::sky

namespace nbody::sky {

/// Adds the small bodies of the SBDB files `paths` (filtered by opt; opt.max counts over all the
/// files together) to a scene of the real sky (s.epoch_jd set, solar units, the Sun named
/// "Sun"): each is propagated to s.epoch_jd and placed relative to the Sun; a barycentric scene
/// is re-centred. The bodies are carried from their epochs by integration with the planets
/// (opt.carry, the default) or on Kepler orbits. Fills s.body_class. Throws nbody::Error naming
/// the file or the scene.
void add_small_bodies(Scene& s, const std::vector<std::string>& paths, const SmallBodyOptions& opt);

}  // namespace nbody::sky
