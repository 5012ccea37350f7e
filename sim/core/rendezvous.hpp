#pragma once
// How the processes of one run find each other: rank 0 makes a token (NCCL's unique id, 128
// bytes) and every other rank receives it, through a file all of them can read or through a TCP
// connection to rank 0. No CUDA or NCCL here: the token is bytes (sim/cuda/multi_gpu.cu makes it).
//
//   FILE             rank 0 writes FILE (FILE.tmp, then renamed, so a reader never sees half
//                    of it); the others wait for it. Rank 0 removes it once every rank joined
//                    (finish()): a file left over from a crashed run must be deleted by hand.
//   tcp:HOST:PORT    rank 0 listens on PORT and sends the token to each of the world - 1 ranks
//                    that connect; the others connect to HOST:PORT (retrying until it listens).

#include <chrono>
#include <functional>
#include <string>

namespace nbody {

class Rendezvous {
 public:
  /// `spec` as above; rank in [0, world), world >= 2. Throws nbody::Error naming the option
  /// (--nccl-id, --rank, --world) when one is wrong.
  Rendezvous(std::string spec, int rank, int world,
             std::chrono::seconds timeout = std::chrono::seconds(120));
  /// Rank 0: make() the token and hand it to every other rank; the others: wait for it (until
  /// the timeout, then nbody::Error naming the file or address). Returns the token.
  std::string share(const std::function<std::string()>& make);
  /// Rank 0, after every rank used the token (e.g. after the collective init): removes the file.
  void finish();

  bool is_tcp() const { return port_ > 0; }

 private:
  std::string share_file(const std::function<std::string()>& make);
  std::string share_tcp(const std::function<std::string()>& make);

  std::string spec_, path_, host_;
  int port_ = 0;
  int rank_ = 0, world_ = 1;
  std::chrono::seconds timeout_;
  bool wrote_ = false;
};

}  // namespace nbody
