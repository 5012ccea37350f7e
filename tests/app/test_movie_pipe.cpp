// The movie recorder's ffmpeg child: a file name is passed as one argument, never through a
// shell (issue 22: a quote in the capture folder broke the command; `$(...)` ran).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "app/window/movie_pipe.hpp"

namespace fs = std::filesystem;
using nbody::app::MoviePipe;

namespace {

// A stand-in for ffmpeg: copies its standard input to the file its last argument names (after
// ffmpeg's "file:" prefix), or fails when asked to.
fs::path make_fake(const fs::path& dir, bool fail) {
  fs::create_directories(dir);
  const fs::path p = dir / "fake-ffmpeg";
  std::ofstream(p) << "#!/bin/sh\n"
                   << (fail ? "cat > /dev/null; exit 3\n"
                            : "for last; do :; done\ncat > \"${last#file:}\"\n");
  fs::permissions(p, fs::perms::owner_all);
  return p;
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

fs::path temp_dir(const std::string& name) {
  fs::path d = fs::temp_directory_path() / ("nbody_movie_" + name + std::to_string(::getpid()));
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

}  // namespace

TEST(MoviePipe, ANameWithQuotesAndCommandsIsOneArgument) {
  const fs::path dir = temp_dir("quotes");
  const fs::path fake = make_fake(dir / "bin", false);
  const fs::path out = dir / "it's $(touch pwned) `touch pwned2`; a:b.mp4";
  MoviePipe pipe(fake.string());
  ASSERT_TRUE(pipe.open(out.string(), 4, 2, 30)) << pipe.error();
  const std::vector<unsigned char> frame(4 * 2 * 4, 7);
  ASSERT_TRUE(pipe.write(frame.data(), frame.size()));
  ASSERT_TRUE(pipe.write(frame.data(), frame.size()));
  pipe.close();
  EXPECT_TRUE(pipe.error().empty()) << pipe.error();
  ASSERT_TRUE(fs::exists(out));
  EXPECT_EQ(slurp(out).size(), 2 * frame.size());
  EXPECT_FALSE(fs::exists(MoviePipe::partial_name(out.string())));
  EXPECT_FALSE(fs::exists("pwned"));
  EXPECT_FALSE(fs::exists(dir / "pwned"));
  EXPECT_FALSE(fs::exists("pwned2"));
  fs::remove_all(dir);
}

TEST(MoviePipe, AFailedRecordingKeepsNothingAndSaysWhy) {
  const fs::path dir = temp_dir("fail");
  const fs::path fake = make_fake(dir / "bin", true);
  const fs::path out = dir / "movie.mp4";
  std::ofstream(out) << "a good movie";
  MoviePipe pipe(fake.string());
  ASSERT_TRUE(pipe.open(out.string(), 2, 2, 24));
  const std::vector<unsigned char> frame(16, 1);
  pipe.write(frame.data(), frame.size());
  pipe.close();
  EXPECT_NE(pipe.error().find("exit status 3"), std::string::npos) << pipe.error();
  EXPECT_NE(pipe.error().find("nothing written"), std::string::npos) << pipe.error();
  EXPECT_EQ(slurp(out), "a good movie");  // the earlier movie is not replaced
  fs::remove_all(dir);
}

TEST(MoviePipe, AMissingProgramIsAnErrorNotACrash) {
  const fs::path dir = temp_dir("missing");
  MoviePipe pipe((dir / "no-such-ffmpeg").string());
  EXPECT_FALSE(pipe.open((dir / "m.mp4").string(), 2, 2, 24));
  EXPECT_NE(pipe.error().find("cannot start"), std::string::npos) << pipe.error();
  EXPECT_FALSE(pipe.is_open());
  fs::remove_all(dir);
}

TEST(MoviePipe, WritingAfterFfmpegExitedFailsWithoutSigpipe) {
  const fs::path dir = temp_dir("gone");
  const fs::path p = dir / "quits";
  std::ofstream(p) << "#!/bin/sh\nexit 0\n";
  fs::permissions(p, fs::perms::owner_all);
  MoviePipe pipe(p.string());
  ASSERT_TRUE(pipe.open((dir / "m.mp4").string(), 256, 256, 24));
  const std::vector<unsigned char> frame(256 * 256 * 4, 1);
  bool ok = true;
  for (int i = 0; i < 50 && ok; ++i)
    ok = pipe.write(frame.data(), frame.size());
  EXPECT_FALSE(ok);  // the process is still here: SIGPIPE is ignored, write reports EPIPE
  EXPECT_NE(pipe.error().find("stopped reading"), std::string::npos) << pipe.error();
  pipe.close();
  fs::remove_all(dir);
}

TEST(MoviePipe, ArgumentsUseTheFileProtocolForThePath) {
  const auto a = MoviePipe::arguments("ffmpeg", "-odd name.mp4", 640, 480, 30);
  ASSERT_FALSE(a.empty());
  EXPECT_EQ(a.back(), "file:-odd name.mp4");
  EXPECT_EQ(a.front(), "ffmpeg");
  EXPECT_EQ(MoviePipe::partial_name("/a/b/movie.mp4"), "/a/b/.movie.partial.mp4");
}
