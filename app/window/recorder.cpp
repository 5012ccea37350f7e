#include "app/window/recorder.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include "sim/core/error.hpp"

namespace nbody::app {

const char* record_rate_name(RecordRate r) {
  return r == RecordRate::RealTime ? "real-time" : "every-frame";
}

FrameClock::FrameClock(RecordRate rate, int fps) : rate_(rate), fps_(std::max(fps, 1)) {}

int FrameClock::frames_for(double t) {
  if (captured_ == 0) {
    first_t_ = origin_t_ = t;
    origin_count_ = 0;
  }
  if (captured_ > 0) t = std::max(t, last_t_);
  ++captured_;
  last_t_ = t;
  if (rate_ == RecordRate::EveryFrame) {
    ++written_;
    return 1;
  }
  // frames due by now; a hair of slack so a frame drawn exactly on a tick is not dropped
  const long long due =
      origin_count_ + static_cast<long long>(std::floor((t - origin_t_) * fps_ + 1e-6)) + 1;
  long long n = std::max(due - written_, 0LL);
  const long long cap = std::max(1LL, static_cast<long long>(kMaxRepeatSeconds * fps_));
  if (n > cap) {
    // a stall: kMaxRepeatSeconds of movie, then the clock goes on from here
    n = cap;
    origin_t_ = t;
    origin_count_ = written_ + cap - 1;
  }
  written_ += n;
  return static_cast<int>(n);
}

void FrameClock::set_fps(int fps) {
  fps = std::max(fps, 1);
  if (fps == fps_) return;
  // the new clock starts at the last captured frame, which was the last frame written
  if (captured_ > 0) {
    origin_t_ = last_t_;
    origin_count_ = std::max(written_ - 1, 0LL);
  }
  fps_ = fps;
}

render::Image crop(const render::Image& src, int x, int y, int w, int h) {
  render::Image out;
  out.width = std::max(w, 0);
  out.height = std::max(h, 0);
  out.rgba.assign(static_cast<std::size_t>(out.width) * out.height * 4, 0);
  // opaque black where the source has no pixels
  for (std::size_t i = 3; i < out.rgba.size(); i += 4)
    out.rgba[i] = 255;
  const int x0 = std::max(x, 0), x1 = std::min(x + out.width, src.width);
  if (x1 <= x0) return out;
  for (int row = 0; row < out.height; ++row) {
    const int sy = y + row;
    if (sy < 0 || sy >= src.height) continue;
    std::memcpy(&out.rgba[(static_cast<std::size_t>(row) * out.width + (x0 - x)) * 4],
                &src.rgba[(static_cast<std::size_t>(sy) * src.width + x0) * 4],
                static_cast<std::size_t>(x1 - x0) * 4);
  }
  return out;
}

void Recorder::start_png(const std::string& dir, RecordRate rate, int fps) {
  stop_png();
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec || !std::filesystem::is_directory(dir))
    fail(dir, ": cannot make the folder for PNG frames (",
         ec ? ec.message() : std::string("not a folder"), ")");
  png_dir_ = dir;
  png_clock_ = FrameClock(rate, fps);
  png_on_ = true;
  status_ = "recording PNG frames in " + png_dir_;
}

void Recorder::start_mp4(const std::string& path, int width, int height, RecordRate rate, int fps) {
  stop_mp4();
  if (!movie_.open(path, width, height, fps)) fail(movie_.error());
  mp4_clock_ = FrameClock(rate, fps);
  status_ = "recording " + path + " at " + std::to_string(fps) + " frames/s (" +
            record_rate_name(rate) + ")";
}

void Recorder::stop_png() {
  if (!png_on_) return;
  png_on_ = false;
  char buf[64];
  std::snprintf(buf, sizeof buf, " (%.1f s recorded)", png_clock_.seconds());
  status_ = "PNG recording stopped: " + std::to_string(png_clock_.written()) + " frames in " +
            png_dir_ + buf;
  std::printf("nbody: %s\n", status_.c_str());
}

void Recorder::stop_mp4() {
  if (!movie_.is_open()) return;
  movie_.close();
  status_ = movie_.error().empty() ? "movie written: " + movie_.path() + " (" +
                                         std::to_string(mp4_clock_.written()) + " frames)"
                                   : "movie not written: " + movie_.error();
  std::printf("nbody: %s\n", status_.c_str());
}

void Recorder::abort(const std::string& why) {
  png_on_ = false;
  movie_.close();
  status_ = "recording stopped: " + why;
}

double Recorder::seconds() const {
  return std::max(png_clock_.seconds(), mp4_clock_.seconds());
}

void Recorder::add(const render::Image& frame, double t) {
  if (png_on_) {
    const long long first = png_clock_.written();
    const int n = png_clock_.frames_for(t);
    std::string written;
    for (int i = 0; i < n; ++i) {
      char name[32];
      std::snprintf(name, sizeof name, "frame_%06lld.png", first + i);
      const std::string path = (std::filesystem::path(png_dir_) / name).string();
      // a file left by an earlier sequence may be a link to another frame: never written through
      std::error_code ec;
      std::filesystem::remove(path, ec);
      if (written.empty()) {
        render::write_png(path, frame);
        written = path;
        continue;
      }
      // a repeat: the same picture under the next number
      std::filesystem::create_hard_link(written, path, ec);
      if (ec) std::filesystem::copy_file(written, path, ec);
      if (ec) fail(path, ": cannot repeat the frame (", ec.message(), ")");
    }
    status_ = "recording PNG frames: " + std::to_string(png_clock_.written()) + " in " + png_dir_;
  }
  if (movie_.is_open()) {
    if (frame.width != movie_.width() || frame.height != movie_.height())
      fail(movie_.path(), ": a frame of ", frame.width, "x", frame.height, " in a movie of ",
           movie_.width(), "x", movie_.height());
    const int n = mp4_clock_.frames_for(t);
    for (int i = 0; i < n; ++i)
      if (!movie_.write(frame.rgba.data(), frame.rgba.size())) fail(movie_.error());
  }
}

}  // namespace nbody::app
