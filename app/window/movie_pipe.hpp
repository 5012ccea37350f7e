#pragma once
// A movie through an ffmpeg child process: raw RGBA frames go to its standard input. ffmpeg is
// started with an argument vector (posix_spawnp, no shell), so any file name is passed as it is:
// quotes, spaces or `$(...)` in a path are characters of the name, never commands.

#include <sys/types.h>
#include <cstddef>
#include <string>
#include <vector>

namespace nbody::app {

class MoviePipe {
 public:
  /// `program` is looked up on PATH ("ffmpeg"; tests pass a stand-in).
  explicit MoviePipe(std::string program = "ffmpeg") : program_(std::move(program)) {}
  ~MoviePipe() { close(); }
  MoviePipe(const MoviePipe&) = delete;
  MoviePipe& operator=(const MoviePipe&) = delete;

  /// Starts recording w×h frames at `fps` into `out` (written to a partial file beside it first;
  /// close() moves it into place only when ffmpeg succeeds). Returns false with error() set when
  /// the program cannot be started.
  bool open(const std::string& out, int w, int h, int fps);
  /// Writes one frame of width()×height() RGBA bytes; false (error() set) when ffmpeg has gone.
  bool write(const void* rgba, std::size_t bytes);
  /// Ends the recording: waits for ffmpeg and keeps the movie only when it exited with 0.
  void close();

  bool is_open() const { return fd_ >= 0; }
  int width() const { return width_; }
  int height() const { return height_; }
  const std::string& path() const { return path_; }
  /// Why the last recording failed or was not kept (empty when it was).
  const std::string& error() const { return error_; }

  /// The arguments ffmpeg is started with for `partial` (for tests and messages).
  static std::vector<std::string> arguments(const std::string& program, const std::string& partial,
                                            int w, int h, int fps);
  /// The partial file written while recording `out`: ".<stem>.partial<ext>" beside it.
  static std::string partial_name(const std::string& out);

 private:
  std::string program_;
  int fd_ = -1;
  pid_t pid_ = -1;
  int width_ = 0, height_ = 0;
  std::string path_, partial_, error_;
};

}  // namespace nbody::app
