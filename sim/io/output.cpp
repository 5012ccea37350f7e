// Safe output files: the target is resolved (symlinks written through, special files refused),
// the data goes to a unique temporary file next to it (mkstemp), which replaces the target
// atomically, with the target's mode, only when everything was written. Temporary paths are
// registered so a signal handler can remove them (remove_temp_files()).

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <pthread.h>
#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>

#include <csignal>
#include <filesystem>

#include "sim/core/error.hpp"
#include "sim/io/detail.hpp"

namespace nbody::io {

namespace fs = std::filesystem;

namespace {

// registered temporary files: fixed slots so the signal handler needs no allocation or lock
constexpr std::size_t kSlots = 16;
constexpr std::size_t kPathMax = 4096;
struct Slot {
  std::atomic<bool> used{false};
  char path[kPathMax];
};
std::array<Slot, kSlots> g_temp;

int register_temp(const std::string& path) {
  if (path.size() >= kPathMax) return -1;
  for (std::size_t i = 0; i < kSlots; ++i) {
    bool expected = false;
    if (g_temp[i].used.load()) continue;
    std::memcpy(g_temp[i].path, path.c_str(), path.size() + 1);
    if (g_temp[i].used.compare_exchange_strong(expected, true)) return int(i);
  }
  return -1;
}

void unregister_temp(int slot) {
  if (slot >= 0) g_temp[std::size_t(slot)].used.store(false);
}

std::string dir_of(const std::string& path) {
  const fs::path p(path);
  return p.has_parent_path() ? p.parent_path().string() : std::string(".");
}

}  // namespace

void remove_temp_files() noexcept {
  for (Slot& s : g_temp)
    if (s.used.load()) ::unlink(s.path);
}

namespace detail {

std::string os_error(int err) {
  return std::strerror(err);
}

FdBuf::FdBuf(int fd) : fd_(fd), buf_(1u << 20) {
  setp(buf_.data(), buf_.data() + buf_.size());
}

bool FdBuf::drain() {
  const char* p = pbase();
  std::size_t n = std::size_t(pptr() - pbase());
  while (n > 0 && err_ == 0) {
    const ssize_t w = ::write(fd_, p, n);
    if (w < 0) {
      if (errno == EINTR) continue;
      err_ = errno;
      break;
    }
    p += w, n -= std::size_t(w);
  }
  setp(buf_.data(), buf_.data() + buf_.size());
  return err_ == 0;
}

FdBuf::int_type FdBuf::overflow(int_type ch) {
  if (!drain()) return traits_type::eof();
  if (!traits_type::eq_int_type(ch, traits_type::eof())) {
    *pptr() = traits_type::to_char_type(ch);
    pbump(1);
  }
  return traits_type::not_eof(ch);
}

int FdBuf::sync() {
  return drain() ? 0 : -1;
}

std::streamsize FdBuf::xsputn(const char* s, std::streamsize n) {
  std::streamsize done = 0;
  while (done < n) {
    std::streamsize room = epptr() - pptr();
    if (room == 0) {
      if (!drain()) return done;
      room = epptr() - pptr();
    }
    const std::streamsize k = std::min(room, n - done);
    std::memcpy(pptr(), s + done, std::size_t(k));
    pbump(int(k));
    done += k;
  }
  return done;
}

OutputTarget resolve_output(const std::string& path) {
  if (path.empty()) fail("output file name is empty");
  OutputTarget t;
  std::string p = path;
  for (int hops = 0;; ++hops) {
    struct stat st {};
    if (::lstat(p.c_str(), &st) != 0) {
      if (errno != ENOENT) fail(path, ": ", os_error(errno));
      t.path = p;
      t.exists = false;
      break;
    }
    if (S_ISLNK(st.st_mode)) {
      // write through the link to its target
      if (hops >= 40) fail(path, ": ", os_error(ELOOP));
      std::error_code ec;
      const fs::path target = fs::read_symlink(p, ec);
      if (ec) fail(path, ": cannot read symbolic link (", ec.message(), ")");
      p = target.is_absolute() ? target.string() : (fs::path(dir_of(p)) / target).string();
      continue;
    }
    if (S_ISDIR(st.st_mode))
      fail(path, ": is a directory (give a file name, e.g. ", (fs::path(path) / "out.csv").string(),
           ")");
    if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
      fail(path,
           ": is a device; nbody writes only regular files ('-' writes CSV to standard "
           "output)");
    if (S_ISFIFO(st.st_mode))
      fail(path,
           ": is a FIFO; nbody writes only regular files ('-' writes CSV to standard "
           "output)");
    if (!S_ISREG(st.st_mode))
      fail(path, ": is not a regular file; nbody writes only regular files");
    t.path = p;
    t.exists = true;
    t.mode = st.st_mode & 07777;
    t.links = st.st_nlink;
    break;
  }
  // the directory must exist and be writable
  const std::string dir = dir_of(t.path);
  struct stat ds {};
  if (::stat(dir.c_str(), &ds) != 0) fail(path, ": directory ", dir, ": ", os_error(errno));
  if (!S_ISDIR(ds.st_mode)) fail(path, ": ", dir, " is not a directory");
  if (::access(dir.c_str(), W_OK | X_OK) != 0)
    fail(path, ": cannot write in directory ", dir, ": ", os_error(errno));
  return t;
}

AtomicFile::AtomicFile(const std::string& path) : name_(path), target_(resolve_output(path)) {
  // a unique temporary file next to the target: same file system, so rename is atomic
  const fs::path tp(target_.path);
  std::string base = ".";
  base += tp.filename().string();
  base += ".nbody-XXXXXX";
  std::string tmpl = (fs::path(dir_of(target_.path)) / base).string();
  // SIGINT/SIGTERM/SIGHUP/SIGQUIT wait until the file is registered, so the handler always
  // removes it
  sigset_t stop, old;
  sigemptyset(&stop);
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT})
    sigaddset(&stop, sig);
  pthread_sigmask(SIG_BLOCK, &stop, &old);
  fd_ = ::mkstemp(tmpl.data());
  const int err_create = errno;
  if (fd_ >= 0) slot_ = register_temp(tmpl);
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  if (fd_ < 0)
    fail(path, ": cannot create a temporary file in ", dir_of(target_.path), ": ",
         os_error(err_create));
  tmp_ = tmpl;
  // the mode of the file replaced, or what a new file gets (0666 minus the umask)
  mode_t mode = target_.mode;
  if (!target_.exists) {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  if (::fchmod(fd_, mode) != 0) {
    const int err = errno;
    discard();
    fail(path, ": cannot set the mode of ", tmp_, ": ", os_error(err));
  }
  buf_ = std::make_unique<FdBuf>(fd_);
  out_ = std::make_unique<std::ostream>(buf_.get());
}

AtomicFile::~AtomicFile() {
  discard();
}

void AtomicFile::discard() noexcept {
  out_.reset();
  buf_.reset();
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  if (!tmp_.empty()) ::unlink(tmp_.c_str());
  unregister_temp(slot_);
  slot_ = -1;
  tmp_.clear();
}

void AtomicFile::finish() {
  if (finished_) return;
  if (fd_ < 0) fail(name_, ": already written");
  out_->flush();
  int err = buf_->error();
  if (err == 0 && !*out_) err = EIO;
  if (err == 0 && ::fsync(fd_) != 0) err = errno;
  if (err == 0 && ::close(fd_) != 0)
    err = errno;
  else if (err != 0)
    ::close(fd_);
  fd_ = -1;
  if (err != 0) {
    discard();
    fail(name_, ": write error: ", os_error(err));
  }
  finished_ = true;
}

void AtomicFile::commit() {
  if (!finished_) finish();
  if (tmp_.empty()) fail(name_, ": already written");
  finished_ = false;
  int err = 0;
  if (target_.links > 1) {
    // a file with other hard links: rewrite it in place so every name sees the new data
    copy_into_target();
    return;
  }
  if (::rename(tmp_.c_str(), target_.path.c_str()) != 0) {
    err = errno;
    discard();
    fail(name_, ": cannot replace ", target_.path, ": ", os_error(err));
  }
  unregister_temp(slot_);
  slot_ = -1;
  tmp_.clear();
}

void AtomicFile::copy_into_target() {
  const int in = ::open(tmp_.c_str(), O_RDONLY | O_CLOEXEC);
  const int out = in < 0 ? -1 : ::open(target_.path.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
  int err = in < 0 || out < 0 ? errno : 0;
  std::vector<char> b(1u << 20);
  while (err == 0) {
    const ssize_t r = ::read(in, b.data(), b.size());
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) err = errno;
    if (r <= 0) break;
    for (ssize_t done = 0; done < r && err == 0;) {
      const ssize_t w = ::write(out, b.data() + done, std::size_t(r - done));
      if (w < 0 && errno != EINTR) err = errno;
      if (w > 0) done += w;
    }
  }
  if (err == 0 && ::fsync(out) != 0) err = errno;
  if (in >= 0) ::close(in);
  if (out >= 0) ::close(out);
  if (err != 0) {
    // keep the complete copy and say where it is
    unregister_temp(slot_);
    slot_ = -1;
    const std::string kept = tmp_;
    tmp_.clear();
    fail(name_, ": write error: ", os_error(err), " (the complete output is in ", kept, ")");
  }
  discard();
}

}  // namespace detail
}  // namespace nbody::io
