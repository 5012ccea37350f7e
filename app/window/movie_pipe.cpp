#include "app/window/movie_pipe.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>

extern char** environ;

namespace nbody::app {

std::vector<std::string> MoviePipe::arguments(const std::string& program,
                                              const std::string& partial, int w, int h, int fps) {
  const std::string size = std::to_string(w) + "x" + std::to_string(h);
  const std::string rate = std::to_string(fps);
  // even sizes for yuv420p
  return {program, "-loglevel", "error", "-y", "-f", "rawvideo", "-pix_fmt", "rgba", "-s", size,
          "-r", rate, "-i", "-", "-vf", "crop=trunc(iw/2)*2:trunc(ih/2)*2", "-c:v", "libx264",
          "-pix_fmt", "yuv420p", "-r", rate, "-f", "mp4",
          // ffmpeg's file protocol: the rest is the path, even with a ':' or a leading '-'
          "file:" + partial};
}

std::string MoviePipe::partial_name(const std::string& out) {
  const std::filesystem::path p(out);
  return (p.parent_path() / ("." + p.stem().string() + ".partial" + p.extension().string()))
      .string();
}

bool MoviePipe::open(const std::string& out, int w, int h, int fps) {
  close();
  error_.clear();
  // a write to a pipe whose reader has exited must fail with EPIPE, not end the program
  std::signal(SIGPIPE, SIG_IGN);
  path_ = out;
  partial_ = partial_name(out);
  width_ = w;
  height_ = h;
  int fds[2];
  if (pipe(fds) != 0) {
    error_ = out + ": cannot make a pipe for " + program_ + ": " + std::strerror(errno);
    return false;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, fds[0], STDIN_FILENO);
  posix_spawn_file_actions_addclose(&actions, fds[0]);
  posix_spawn_file_actions_addclose(&actions, fds[1]);
  const std::vector<std::string> args = arguments(program_, partial_, w, h, fps);
  std::vector<char*> argv;
  for (const std::string& a : args)
    argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid = -1;
  const int rc = posix_spawnp(&pid, program_.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  ::close(fds[0]);
  if (rc != 0) {
    ::close(fds[1]);
    error_ = out + ": cannot start " + program_ + ": " + std::strerror(rc);
    return false;
  }
  pid_ = pid;
  fd_ = fds[1];
  return true;
}

bool MoviePipe::write(const void* rgba, std::size_t bytes) {
  if (fd_ < 0) return false;
  const char* p = static_cast<const char*>(rgba);
  while (bytes > 0) {
    const ssize_t n = ::write(fd_, p, bytes);
    if (n < 0) {
      if (errno == EINTR) continue;
      error_ = path_ + ": " + program_ + " stopped reading (" + std::strerror(errno) + ")";
      return false;
    }
    p += n;
    bytes -= static_cast<std::size_t>(n);
  }
  return true;
}

void MoviePipe::close() {
  if (fd_ < 0) return;
  ::close(fd_);
  fd_ = -1;
  int status = 0;
  while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
  std::error_code ec;
  const bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (ok) {
    std::filesystem::rename(partial_, path_, ec);
    if (ec) error_ = path_ + ": " + ec.message();
  } else {
    std::filesystem::remove(partial_, ec);
    const std::string why = WIFEXITED(status) ? "exit status " + std::to_string(WEXITSTATUS(status))
                                              : "signal " + std::to_string(WTERMSIG(status));
    error_ = path_ + ": " + program_ + " failed (" + why + "); nothing written";
  }
}

}  // namespace nbody::app
