// The recorder (issue 20, item 7): the movie's clock repeats or drops captured frames so a
// recording plays in real time; PNG sequences follow it without gaps; MP4 frames go to ffmpeg
// (a stand-in here that counts the bytes); crop keeps the recorded rectangle's size.
#include <gtest/gtest.h>

#include <unistd.h>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "app/window/recorder.hpp"
#include "sim/core/error.hpp"

namespace fs = std::filesystem;
using nbody::app::crop;
using nbody::app::FrameClock;
using nbody::app::Recorder;
using nbody::app::RecordRate;

namespace {

// frames of a window drawing at `window_fps` from t0 for `seconds`: the movie frames written
long long run_clock(FrameClock& c, double t0, double window_fps, double seconds) {
  long long n = 0;
  for (int k = 0; k / window_fps < seconds; ++k)
    n += c.frames_for(t0 + k / window_fps);
  return n;
}

fs::path temp_dir(const std::string& name) {
  fs::path d = fs::temp_directory_path() / ("nbody_recorder_" + name + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

nbody::render::Image image(int w, int h, std::uint8_t v) {
  nbody::render::Image img;
  img.width = w;
  img.height = h;
  img.rgba.assign(static_cast<std::size_t>(w) * h * 4, v);
  return img;
}

}  // namespace

TEST(FrameClock, ASlowWindowIsRepeatedToRealTime) {
  // a 30 frames/s movie of a window drawing 23 frames/s for 10 s: 10 s of movie
  FrameClock c(RecordRate::RealTime, 30);
  const long long n = run_clock(c, 1000.0, 23.0, 10.0);
  EXPECT_NEAR(static_cast<double>(n), 300.0, 1.0);
  EXPECT_EQ(c.written(), n);
  EXPECT_NEAR(c.seconds(), 10.0, 0.1);
}

TEST(FrameClock, AFastWindowIsDroppedToRealTime) {
  FrameClock c(RecordRate::RealTime, 24);
  EXPECT_NEAR(static_cast<double>(run_clock(c, 0.0, 144.0, 5.0)), 120.0, 1.0);
}

TEST(FrameClock, EveryFrameWritesOnePerDrawnFrame) {
  FrameClock c(RecordRate::EveryFrame, 30);
  EXPECT_EQ(run_clock(c, 0.0, 23.0, 10.0), 230);
}

TEST(FrameClock, TheFirstFrameCountsOnceAndEachLaterOneByTheClock) {
  FrameClock c(RecordRate::RealTime, 10);
  EXPECT_EQ(c.frames_for(5.0), 1);
  EXPECT_EQ(c.frames_for(5.05), 0);  // half a movie frame: dropped
  EXPECT_EQ(c.frames_for(5.1), 1);
  EXPECT_EQ(c.frames_for(5.4), 3);  // three ticks in one slow frame: repeated
  EXPECT_EQ(c.written(), 5);
}

TEST(FrameClock, AStallOfTwoSecondsIsKeptInRealTime) {
  FrameClock c(RecordRate::RealTime, 30);
  long long n = run_clock(c, 0.0, 30.0, 2.0);
  EXPECT_NEAR(static_cast<double>(n), 60.0, 1.0);
  // nothing drawn for 2 s (a long load): the next frame stands for those 2 s
  EXPECT_EQ(c.frames_for(4.0), 61);
  n = 0;
  for (int k = 1; k <= 60; ++k)
    n += c.frames_for(4.0 + k / 30.0);
  EXPECT_EQ(n, 60);
  EXPECT_EQ(c.written(), 181);  // 6 s of movie for 6 s recorded
}

TEST(FrameClock, ALongStallIsCutAndTheClockGoesOnFromThere) {
  FrameClock c(RecordRate::RealTime, 30);
  run_clock(c, 0.0, 30.0, 2.0);
  const long long before = c.written();
  // a window minimised for 20 s: the next frame stands for kMaxRepeatSeconds (3 s), not 20
  EXPECT_EQ(c.frames_for(22.0), 90);
  EXPECT_EQ(c.written(), before + 90);
  // then real time again from there, without catching up what was cut
  long long n = 0;
  for (int k = 1; k <= 60; ++k)
    n += c.frames_for(22.0 + k / 30.0);
  EXPECT_EQ(n, 60);
}

TEST(FrameClock, AWindowAtOneFrameASecondStaysInRealTime) {
  FrameClock c(RecordRate::RealTime, 30);
  // frames at 0, 1.11, ..., 8.89 s: the movie lasts 8.89 s too (each frame 33 times)
  const long long n = run_clock(c, 0.0, 0.9, 10.0);
  EXPECT_NEAR(static_cast<double>(n), 30 * 8 / 0.9 + 1, 1.0);
}

TEST(FrameClock, ChangingTheRateKeepsWhatWasWritten) {
  // 5 s at 30 frames/s, then 5 s at 60 frames/s: 150 + 300
  FrameClock c(RecordRate::RealTime, 30);
  long long n = run_clock(c, 0.0, 50.0, 5.0);
  EXPECT_NEAR(static_cast<double>(n), 150.0, 1.0);
  c.set_fps(60);
  EXPECT_EQ(c.fps(), 60);
  for (int k = 250; k < 500; ++k)
    n += c.frames_for(k / 50.0);
  EXPECT_NEAR(static_cast<double>(n), 450.0, 2.0);
}

TEST(FrameClock, TimeGoingBackDoesNotWriteFrames) {
  FrameClock c(RecordRate::RealTime, 30);
  EXPECT_EQ(c.frames_for(10.0), 1);
  EXPECT_EQ(c.frames_for(9.0), 0);
  EXPECT_EQ(c.written(), 1);
}

TEST(Crop, KeepsTheSizeAndFillsWhatLiesOutsideWithBlack) {
  nbody::render::Image src = image(4, 3, 0);
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 4; ++x)
      src.rgba[(static_cast<std::size_t>(y) * 4 + x) * 4] = static_cast<std::uint8_t>(10 * y + x);
  const nbody::render::Image a = crop(src, 1, 1, 2, 2);
  ASSERT_EQ(a.width, 2);
  ASSERT_EQ(a.height, 2);
  EXPECT_EQ(a.rgba[0], 11);
  EXPECT_EQ(a.rgba[4], 12);
  EXPECT_EQ(a.rgba[8], 21);
  EXPECT_EQ(a.rgba[12], 22);
  // partly outside: the rectangle keeps its size, the outside is opaque black
  const nbody::render::Image b = crop(src, 3, 2, 3, 2);
  ASSERT_EQ(b.width, 3);
  ASSERT_EQ(b.height, 2);
  EXPECT_EQ(b.rgba[0], 23);
  EXPECT_EQ(b.rgba[4], 0);
  EXPECT_EQ(b.rgba[7], 255);
  EXPECT_EQ(b.rgba[12], 0);
}

TEST(Recorder, APngSequenceFollowsTheClockWithoutGaps) {
  const fs::path dir = temp_dir("png") / "frames";
  Recorder r;
  r.start_png(dir.string(), RecordRate::RealTime, 10);
  EXPECT_TRUE(r.png());
  // 4 frames drawn over 0.95 s at 10 frames/s: 10 files, repeats as links to the same picture
  r.add(image(6, 4, 50), 100.0);
  r.add(image(6, 4, 60), 100.32);
  r.add(image(6, 4, 70), 100.33);
  r.add(image(6, 4, 80), 100.95);
  r.stop_png();
  EXPECT_FALSE(r.png());
  EXPECT_EQ(r.png_frames(), 10);
  for (int i = 0; i < 10; ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "frame_%06d.png", i);
    EXPECT_TRUE(fs::exists(dir / name)) << name;
  }
  EXPECT_FALSE(fs::exists(dir / "frame_000010.png"));
  EXPECT_NE(r.status().find("10 frames"), std::string::npos) << r.status();
}

TEST(Recorder, AnMp4GetsOneFramePerMovieTick) {
  const fs::path dir = temp_dir("mp4");
  // a stand-in for ffmpeg: counts the bytes of its standard input into the output file
  const fs::path fake = dir / "fake-ffmpeg";
  std::ofstream(fake) << "#!/bin/sh\nfor last; do :; done\nwc -c > \"${last#file:}\"\n";
  fs::permissions(fake, fs::perms::owner_all);
  const fs::path out = dir / "movie.mp4";
  Recorder r(fake.string());
  r.start_mp4(out.string(), 8, 6, RecordRate::RealTime, 30);
  EXPECT_TRUE(r.mp4());
  // a window at 15 frames/s for 2 s: 60 movie frames
  for (int k = 0; k < 30; ++k)
    r.add(image(8, 6, 1), k / 15.0);
  // a frame of another size is refused
  EXPECT_THROW(r.add(image(10, 6, 1), 2.1), nbody::Error);
  r.stop_mp4();
  EXPECT_NE(r.status().find("movie written"), std::string::npos) << r.status();
  std::ifstream in(out);
  long long bytes = 0;
  in >> bytes;
  const long long frames = bytes / (8 * 6 * 4);
  EXPECT_EQ(bytes % (8 * 6 * 4), 0);
  EXPECT_NEAR(static_cast<double>(frames), 60.0, 1.0);
  EXPECT_EQ(frames, r.mp4_frames());
}

TEST(Recorder, AMissingFfmpegIsAnErrorNamingTheFile) {
  const fs::path dir = temp_dir("noffmpeg");
  Recorder r((dir / "no-such-ffmpeg").string());
  const std::string out = (dir / "a.mp4").string();
  try {
    r.start_mp4(out, 8, 6, RecordRate::RealTime, 30);
    FAIL() << "no error";
  } catch (const nbody::Error& e) {
    EXPECT_NE(std::string(e.what()).find(out), std::string::npos) << e.what();
  }
  EXPECT_FALSE(r.mp4());
}

TEST(Recorder, AFolderThatCannotBeMadeIsAnError) {
  const fs::path dir = temp_dir("badfolder");
  std::ofstream(dir / "file") << "x";
  Recorder r;
  EXPECT_THROW(r.start_png((dir / "file" / "frames").string(), RecordRate::RealTime, 30),
               nbody::Error);
  EXPECT_FALSE(r.png());
}
