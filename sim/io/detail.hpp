#pragma once
// Internal helpers shared by the format readers and writers (not part of the public API).

#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <streambuf>
#include <string>
#include <string_view>
#include <vector>

#include "sim/io/io.hpp"

namespace nbody::io::detail {

/// The OS's description of errno value `err` (strerror).
std::string os_error(int err);

/// An output stream buffer over a file descriptor that remembers the first write error (errno).
class FdBuf : public std::streambuf {
 public:
  explicit FdBuf(int fd);
  /// errno of the first failed write, 0 when none failed.
  int error() const { return err_; }

 protected:
  int_type overflow(int_type ch) override;
  int sync() override;
  std::streamsize xsputn(const char* s, std::streamsize n) override;

 private:
  bool drain();
  int fd_;
  int err_ = 0;
  std::vector<char> buf_;
};

/// Where an output really goes: symlinks followed to their target.
struct OutputTarget {
  std::string path;         ///< the file written (the symlink's target for a symlink)
  bool exists = false;      ///< a regular file is there already
  unsigned mode = 0;        ///< its permission bits
  unsigned long links = 1;  ///< its hard-link count
};
/// Resolves `path` for writing: follows symlinks; refuses directories, devices, FIFOs and
/// sockets; requires the containing directory to exist and be writable. Throws nbody::Error
/// naming `path` and the OS error.
OutputTarget resolve_output(const std::string& path);

/// A file written through a unique temporary file next to its target (mkstemp) that replaces
/// the target atomically with the target's mode on commit(); a file with several hard links is
/// rewritten in place so every name sees the new data. Without commit() the temporary file is
/// removed; remove_temp_files() removes it on a signal.
class AtomicFile {
 public:
  explicit AtomicFile(const std::string& path);
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;
  std::ostream& stream() { return *out_; }
  /// Flushes and syncs the temporary file (the target is not touched yet); throws nbody::Error
  /// naming the path and the OS error (e.g. "No space left on device"), the temporary removed.
  void finish();
  /// finish() when not done, then renames over the target; throws nbody::Error with the OS error.
  void commit();
  const std::string& temp_path() const { return tmp_; }
  /// errno of the first failed write so far, 0 when none failed.
  int error() const { return buf_ ? buf_->error() : 0; }

 private:
  void discard() noexcept;
  void copy_into_target();
  std::string name_;
  OutputTarget target_;
  std::string tmp_;
  int fd_ = -1;
  int slot_ = -1;
  bool finished_ = false;
  std::unique_ptr<FdBuf> buf_;
  std::unique_ptr<std::ostream> out_;
};

/// Bytes to parse: a file (read with pread, never whole) or a buffer in memory, so the binary
/// readers stream from disk and the fuzzers feed memory through the same code.
class ByteSource {
 public:
  virtual ~ByteSource() = default;
  virtual std::size_t size() const = 0;
  /// Copies n bytes at `offset` to dst; throws nbody::Error naming the source on a short read.
  virtual void read(std::size_t offset, void* dst, std::size_t n) const = 0;
};
class MemorySource final : public ByteSource {
 public:
  MemorySource(const void* data, std::size_t size) : p_(static_cast<const char*>(data)), n_(size) {}
  std::size_t size() const override { return n_; }
  void read(std::size_t offset, void* dst, std::size_t n) const override;

 private:
  const char* p_;
  std::size_t n_;
};
class FileSource final : public ByteSource {
 public:
  /// Opens a regular file; throws nbody::Error naming it and the OS error.
  explicit FileSource(const std::string& path);
  ~FileSource() override;
  FileSource(const FileSource&) = delete;
  FileSource& operator=(const FileSource&) = delete;
  std::size_t size() const override { return n_; }
  void read(std::size_t offset, void* dst, std::size_t n) const override;

 private:
  std::string path_;
  int fd_ = -1;
  std::size_t n_ = 0;
};

/// Throws nbody::Error naming `source` when `bytes` of bodies cannot be held in this machine's
/// memory (checked before allocating, so a corrupt or sparse file fails with its name).
void require_memory(std::size_t bytes, std::size_t n, const std::string& source);

/// Reads a whole regular file; throws nbody::Error naming it when missing or unreadable.
std::vector<char> read_file(const std::string& path);
/// Size of a regular file; throws nbody::Error naming it when missing or not a file.
std::size_t file_size(const std::string& path);
/// Throws nbody::Error naming `path` and the OS error when it cannot be reached.
void require_exists(const std::string& path);
/// Opens `path` for binary reading; throws nbody::Error with the OS error.
void open_input(std::ifstream& in, const std::string& path);
/// `s` in single quotes for a message: at most `max` characters, control bytes (NUL included)
/// as \xNN, and the full length when cut.
std::string quote(std::string_view s, std::size_t max = 80);

/// Validates the bodies, converts to opt.target_units and fills missing scene defaults.
void finish_scene(Scene& s, const std::string& source, const LoadOptions& opt);
/// Guesses dt, softening and camera distance from the bodies (where set_*); a guess that is not
/// finite and positive (ε: >= 0) is an error asking for --dt / --softening, unless
/// opt.need_dt / opt.need_softening is false. Looks at a sample of at most 2^20 bodies.
void set_defaults(Scene& s, const std::string& source, const LoadOptions& opt, bool set_dt,
                  bool set_softening, bool set_camera);
/// Releases the unused capacity of the arrays when the reserve was far off.
void shrink_to_fit(Bodies& b);
/// A header value, quoted when it holds blanks, quotes or backslashes.
std::string quote_value(const std::string& v);
/// key=value pairs of a header line after its magic; the first bare word goes to `version`.
/// Throws naming `where` on a malformed entry or a key given twice.
std::map<std::string, std::string> parse_header_pairs(std::string_view s, std::string& version,
                                                      const std::string& where);
/// " G=... dt=... softening=..." and, with a run, " elapsed=... steps=... kernel=...
/// integrator=...", for the CSV and AGORA headers.
std::string run_header(const Scene& s, const std::optional<RunRecord>& run);
/// "key:value;key:value" (values as format_double()); throws nbody::Error on a key that is not
/// valid_map_key().
std::string format_map(const std::map<std::string, double>& m);
/// A key of a run record's map: 1..200 of [A-Za-z0-9_.-].
bool valid_map_key(const std::string& key);
/// Parses format_map()'s text; throws nbody::Error naming `where` and the header key `what`.
std::map<std::string, double> parse_map(const std::string& text, const std::string& what,
                                        const std::string& where);
/// Reads elapsed, steps, kernel, integrator and the saved state (precision, gpus, tunables,
/// view) into *run (when run is not null).
void read_run(const std::map<std::string, std::string>& kv, RunRecord* run,
              const std::string& where);

/// The checks of write_agora() before anything is written (see check_output()).
void check_agora_output(const std::string& dir, const SaveOptions& opt);

/// Native binary from a source (streamed: the arrays are read straight into the bodies).
Scene read_binary(const ByteSource& src, const std::string& source, const LoadOptions& opt);
/// Tipsy header of a source; see read_tipsy_header().
TipsyHeader read_tipsy_header(const ByteSource& src, const std::string& source,
                              std::optional<Format> f);
/// Tipsy from a source, records read in chunks.
Scene read_tipsy(const ByteSource& src, const std::string& source, const LoadOptions& opt,
                 std::optional<Format> f);
/// What the '# nbody agora v1 ...' comment of one AGORA file records (checked when read).
struct AgoraHeader {
  std::optional<double> G, dt, softening;
  RunRecord run;
};
/// Parses one AGORA .dat file from a stream, adding its bodies to s.bodies (component c; gas: 7
/// or 8 columns); returns its leading comment, if any, without applying it.
std::optional<AgoraHeader> read_agora_dat(std::istream& in, const std::string& path, Component c,
                                          bool gas, Scene& s);
/// Fills G, dt, ε (setting have_dt/have_eps) and opt.run from a file's comment.
void apply_agora_header(const AgoraHeader& h, Scene& s, bool& have_dt, bool& have_eps,
                        const LoadOptions& opt);
/// "" when two files' comments record the same run, else the first difference ("elapsed=0 and
/// elapsed=1.5"); a file without one counts as AGORA's own initial conditions (t = 0).
std::string agora_header_difference(const std::optional<AgoraHeader>& a,
                                    const std::optional<AgoraHeader>& b);

/// Reads an AGORA directory with the components chosen in `opt`.
Scene read_agora(const std::string& dir, const LoadOptions& opt);

/// Component by name ("disk", any case) or, when allow_numbers, number ("1"); false when
/// unknown.
bool parse_component(std::string_view s, Component& c, bool allow_numbers = true);

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
