#pragma once
// Recording the window: a PNG sequence and/or an MP4 through ffmpeg, each frame written as many
// times as the movie's clock says. No GL and no ImGui here: the window reads the frame and hands
// it over with the wall-clock time it was drawn at.

#include <string>

#include "app/window/movie_pipe.hpp"
#include "render/capture.hpp"

namespace nbody::app {

/// How captured frames become movie frames.
enum class RecordRate {
  RealTime,    ///< the movie lasts as long as the recording: frames repeated or dropped
  EveryFrame,  ///< one movie frame per drawn frame: smooth, fast when the window is slow
};

/// "real-time" or "every-frame".
const char* record_rate_name(RecordRate r);

/// The movie's clock: how many movie frames each captured frame stands for. In real time the
/// first frame counts once and each later one as often as the clock (fps frames per wall-clock
/// second since the first) has advanced: repeated when the window is slower than the movie,
/// dropped (0) when it is faster. A longer stall than kMaxRepeatSeconds (a minimised window, a
/// suspended laptop) is cut to that much movie and the clock starts again from there; a slow
/// window (a frame a second under a software rasterizer) stays in real time. Every frame:
/// always 1.
class FrameClock {
 public:
  /// At most this many seconds of movie from one captured frame.
  static constexpr double kMaxRepeatSeconds = 3.0;

  FrameClock(RecordRate rate, int fps);
  /// The movie frames the frame captured at wall time `t` (seconds, any origin, not decreasing)
  /// stands for; counts them as written.
  int frames_for(double t);
  /// Changes the rate from the last captured frame on (frames already written stay).
  void set_fps(int fps);
  int fps() const { return fps_; }
  RecordRate rate() const { return rate_; }
  /// Movie frames counted so far.
  long long written() const { return written_; }
  /// Wall-clock seconds from the first captured frame to the last (0 before two).
  double seconds() const { return captured_ > 0 ? last_t_ - first_t_ : 0; }

 private:
  RecordRate rate_;
  int fps_;
  long long written_ = 0;
  long long captured_ = 0;
  double first_t_ = 0, last_t_ = 0;
  // the clock: origin_count_ + floor((t - origin_t_) * fps) + 1 frames are due at time t
  double origin_t_ = 0;
  long long origin_count_ = 0;
};

/// `src`'s w×h pixels from (x, y) (origin top-left); what lies outside `src` is black.
render::Image crop(const render::Image& src, int x, int y, int w, int h);

/// The PNG sequence and the MP4 being recorded, with the status line the panel shows.
///
/// PNG sequences follow the movie clock too: frames are numbered frame_000000.png on without
/// gaps (ffmpeg's image2 reads them as they are), a repeated frame is a hard link to the file
/// written for it (a copy where links fail), a dropped one gets no file.
class Recorder {
 public:
  /// `ffmpeg` is looked up on PATH (tests pass a stand-in).
  explicit Recorder(std::string ffmpeg = "ffmpeg") : movie_(std::move(ffmpeg)) {}
  ~Recorder() { stop(); }
  Recorder(const Recorder&) = delete;
  Recorder& operator=(const Recorder&) = delete;

  /// Starts a PNG sequence in the folder `dir` (created); throws nbody::Error naming it when
  /// it cannot be made.
  void start_png(const std::string& dir, RecordRate rate, int fps);
  /// Starts an MP4 of w×h frames (even sizes for H.264); throws nbody::Error when ffmpeg cannot
  /// be started.
  void start_mp4(const std::string& path, int width, int height, RecordRate rate, int fps);
  /// Ends the PNG sequence (the status says how many frames, where).
  void stop_png();
  /// Ends the MP4: waits for ffmpeg; the status says whether the movie was written.
  void stop_mp4();
  /// Ends both.
  void stop() {
    stop_png();
    stop_mp4();
  }
  /// Ends both after a failure: the status says "recording stopped: " and why.
  void abort(const std::string& why);

  bool png() const { return png_on_; }
  bool mp4() const { return movie_.is_open(); }
  bool active() const { return png() || mp4(); }

  /// Writes the frame captured at wall time `t` (seconds) to what is recording, as many times as
  /// each one's clock says. An MP4 frame must have the size it was started with. Throws
  /// nbody::Error when a write fails (the caller stops recording).
  void add(const render::Image& frame, double t);

  /// The last thing worth telling: what is recording, or how the last recording ended.
  const std::string& status() const { return status_; }
  const std::string& png_dir() const { return png_dir_; }
  /// PNG frames (files) written in the current or last sequence.
  long long png_frames() const { return png_clock_.written(); }
  /// MP4 frames sent in the current or last movie.
  long long mp4_frames() const { return mp4_clock_.written(); }
  /// Wall-clock seconds the current or last recording covered (first to last captured frame).
  double seconds() const;

 private:
  MoviePipe movie_;
  FrameClock png_clock_{RecordRate::RealTime, 30}, mp4_clock_{RecordRate::RealTime, 30};
  bool png_on_ = false;
  std::string png_dir_, status_;
};

}  // namespace nbody::app
