// The rendezvous of the processes of a several-GPU run (sim/core/rendezvous.hpp): every rank
// gets rank 0's token through a file and through TCP on this machine, threads standing in for
// processes; wrong options and a missing rank 0 give errors that name the option.
#include "sim/core/rendezvous.hpp"

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "sim/core/error.hpp"

namespace nbody {
namespace {

namespace fs = std::filesystem;
using std::chrono::seconds;

// 128 bytes with every byte value that matters (0, 0xff, newline) in them, like NCCL's id
std::string token() {
  std::string t(128, '\0');
  for (int i = 0; i < 128; ++i)
    t[i] = static_cast<char>((i * 37 + 11) & 0xff);
  t[5] = '\n';
  t[6] = '\0';
  return t;
}

std::string temp_path(const std::string& name) {
  return (fs::temp_directory_path() / (name + "_" + std::to_string(::getpid()))).string();
}

// every rank of `world` shares through `spec` in its own thread; rank 0 made the token once
void every_rank_gets_the_token(const std::string& spec, int world) {
  std::vector<std::string> got(world);
  std::vector<std::string> errors(world);
  std::atomic<int> made{0};
  std::vector<std::thread> ranks;
  for (int r = 0; r < world; ++r)
    ranks.emplace_back([&, r] {
      try {
        Rendezvous rv(spec, r, world, seconds(20));
        got[r] = rv.share([&] {
          ++made;
          return token();
        });
      } catch (const Error& e) {
        errors[r] = e.what();
      }
    });
  for (std::thread& t : ranks)
    t.join();
  EXPECT_EQ(made.load(), 1);
  for (int r = 0; r < world; ++r) {
    EXPECT_EQ(errors[r], "") << "rank " << r;
    EXPECT_EQ(got[r], token()) << "rank " << r;
  }
}

// a TCP port nobody listens on now
int free_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  a.sin_port = 0;
  ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
  socklen_t len = sizeof a;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
  ::close(fd);
  return ntohs(a.sin_port);
}

TEST(Rendezvous, FileGivesEveryRankTheTokenAndIsRemovedAfter) {
  const std::string path = temp_path("nbody_rendezvous");
  fs::remove(path);
  every_rank_gets_the_token(path, 4);
  EXPECT_TRUE(fs::exists(path));  // rank 0 left it: its finish() was not called
  Rendezvous rv(path, 0, 4);
  rv.share(token);
  rv.finish();
  EXPECT_FALSE(fs::exists(path));
}

TEST(Rendezvous, TcpGivesEveryRankTheToken) {
  every_rank_gets_the_token("tcp:localhost:" + std::to_string(free_port()), 3);
}

TEST(Rendezvous, WrongOptionsAreNamed) {
  const auto message = [](const std::string& spec, int rank, int world) {
    try {
      Rendezvous(spec, rank, world);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(message("f", 0, 1).find("--world 1"), std::string::npos);
  EXPECT_NE(message("f", 2, 2).find("--rank 2"), std::string::npos);
  EXPECT_NE(message("", 0, 2).find("--nccl-id"), std::string::npos);
  EXPECT_NE(message("tcp:host:99999", 0, 2).find("port"), std::string::npos);
  EXPECT_NE(message("tcp::5000", 1, 2).find("tcp:HOST:PORT"), std::string::npos);
}

TEST(Rendezvous, RankWithOtherWorldOrGarbageIsRefused) {
  const std::string path = temp_path("nbody_rendezvous_world");
  fs::remove(path);
  Rendezvous(path, 0, 3).share(token);  // rank 0 of a run of 3
  try {
    Rendezvous(path, 1, 2, seconds(5)).share(token);
    ADD_FAILURE() << "a rank of another world size was let in";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("--world 3"), std::string::npos) << e.what();
  }
  std::ofstream(path) << "not an id\n";
  EXPECT_THROW(Rendezvous(path, 1, 3, seconds(5)).share(token), Error);
  fs::remove(path);
}

TEST(Rendezvous, MissingRankZeroTimesOut) {
  const std::string path = temp_path("nbody_rendezvous_none");
  fs::remove(path);
  try {
    Rendezvous(path, 1, 2, seconds(1)).share(token);
    ADD_FAILURE() << "no error without rank 0";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("rank 0 did not write it"), std::string::npos);
  }
  try {
    Rendezvous("tcp:localhost:" + std::to_string(free_port()), 1, 2, seconds(1)).share(token);
    ADD_FAILURE() << "no error without rank 0";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("could not connect"), std::string::npos);
  }
}

}  // namespace
}  // namespace nbody
