#pragma once
// Internal helpers shared by the format readers and writers (not part of the public API).

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

#include "sim/io/io.hpp"

namespace nbody::io::detail {

/// Reads a whole regular file; throws nbody::Error naming it when missing or unreadable.
std::vector<char> read_file(const std::string& path);
/// Size of a regular file; throws nbody::Error naming it when missing or not a file.
std::size_t file_size(const std::string& path);
/// Throws nbody::Error naming `path` when it does not exist.
void require_exists(const std::string& path);

/// Validates the bodies, converts to opt.target_units and fills missing scene defaults.
void finish_scene(Scene& s, const std::string& source, const LoadOptions& opt);
/// Sets dt, softening and camera distance from the bodies where they are not positive.
void guess_defaults(Scene& s, bool set_dt, bool set_softening, bool set_camera);

/// Reads an AGORA directory with the components chosen in `opt`.
Scene read_agora(const std::string& dir, const LoadOptions& opt);

/// Component by name ("disk") or number ("1"); false when unknown.
bool parse_component(std::string_view s, Component& c);

/// Shortest text that reads back to the same double.
std::string format_double(double v);
/// Parses a whole field as a double (surrounding blanks allowed); false when not a number.
bool parse_double(std::string_view s, double& v);

/// Byte-order aware loads and stores of plain values.
template <typename T>
T load(const unsigned char* p, bool big_endian) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8);
  unsigned char b[sizeof(T)];
  std::memcpy(b, p, sizeof(T));
  if (big_endian != (std::endian::native == std::endian::big)) {
    for (std::size_t i = 0; i < sizeof(T) / 2; ++i)
      std::swap(b[i], b[sizeof(T) - 1 - i]);
  }
  T v;
  std::memcpy(&v, b, sizeof(T));
  return v;
}
template <typename T>
void store(std::string& out, T v, bool big_endian) {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8);
  unsigned char b[sizeof(T)];
  std::memcpy(b, &v, sizeof(T));
  if (big_endian != (std::endian::native == std::endian::big)) {
    for (std::size_t i = 0; i < sizeof(T) / 2; ++i)
      std::swap(b[i], b[sizeof(T) - 1 - i]);
  }
  out.append(reinterpret_cast<const char*>(b), sizeof(T));
}

/// Reports progress through opt.progress for inputs of at least `min_total` items.
class Progress {
 public:
  Progress(const LoadOptions& opt, std::size_t total, std::size_t min_total = 100000)
      : fn_(opt.progress), total_(total), on_(opt.progress && total >= min_total) {}
  /// Call for every item; reports every 2^16 items.
  void tick(std::size_t done) {
    if (on_ && (done & 0xFFFF) == 0) fn_(double(done) / double(total_));
  }
  /// Reports a fraction directly.
  void fraction(double f) {
    if (on_) fn_(f);
  }
  void done() { fraction(1.0); }

 private:
  const std::function<void(double)>& fn_;
  std::size_t total_;
  bool on_;
};

}  // namespace nbody::io::detail
