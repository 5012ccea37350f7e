#include "sim/core/rendezvous.hpp"

#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <thread>

#include "sim/core/error.hpp"

namespace nbody {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr const char* kMagic = "nbody-nccl-id";

std::string to_hex(const std::string& bytes) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (const unsigned char c : bytes) {
    s += digits[c >> 4];
    s += digits[c & 15];
  }
  return s;
}

// the bytes of `hex`, or false when it is not an even number of hex digits
bool from_hex(const std::string& hex, std::string& out) {
  if (hex.size() % 2 != 0) return false;
  out.clear();
  for (std::size_t i = 0; i < hex.size(); i += 2) {
    int v = 0;
    for (int k = 0; k < 2; ++k) {
      const char c = hex[i + k];
      const int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
      if (d < 0) return false;
      v = 16 * v + d;
    }
    out += static_cast<char>(v);
  }
  return true;
}

// "nbody-nccl-id world=W\n<hex>\n": the token and the world it was made for
std::string encode(int world, const std::string& token) {
  std::ostringstream os;
  os << kMagic << " world=" << world << "\n" << to_hex(token) << "\n";
  return os.str();
}

std::string decode(const std::string& text, int world, const std::string& where) {
  std::istringstream is(text);
  std::string magic, w, hex, token;
  is >> magic >> w >> hex;
  if (magic != kMagic || w.rfind("world=", 0) != 0 || !from_hex(hex, token) || token.empty())
    fail("--nccl-id ", where, ": not an id written by nbody's rank 0");
  int theirs = 0;
  try {
    theirs = std::stoi(w.substr(6));
  } catch (const std::exception&) {
    fail("--nccl-id ", where, ": not an id written by nbody's rank 0");
  }
  if (theirs != world)
    fail("--nccl-id ", where, ": rank 0 runs with --world ", theirs, ", this rank with --world ",
         world);
  return token;
}

// a socket closed when it goes out of scope
class Socket {
 public:
  explicit Socket(int fd = -1) : fd_(fd) {}
  ~Socket() {
    if (fd_ >= 0) ::close(fd_);
  }
  Socket(const Socket&) = delete;
  Socket& operator=(const Socket&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

bool send_all(int fd, const std::string& s) {
  std::size_t sent = 0;
  while (sent < s.size()) {
    const ssize_t k = ::send(fd, s.data() + sent, s.size() - sent, MSG_NOSIGNAL);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return false;
    sent += static_cast<std::size_t>(k);
  }
  return true;
}

// waits until fd is readable or the deadline passes
bool wait_readable(int fd, Clock::time_point deadline) {
  for (;;) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return false;
    pollfd p{fd, POLLIN, 0};
    const int r = ::poll(&p, 1, static_cast<int>(std::min<long long>(left, 1000)));
    if (r > 0) return true;
    if (r < 0 && errno != EINTR) return false;
  }
}

}  // namespace

Rendezvous::Rendezvous(std::string spec, int rank, int world, std::chrono::seconds timeout)
    : spec_(std::move(spec)), rank_(rank), world_(world), timeout_(timeout) {
  if (world < 2) fail("--world ", world, ": a run of several processes needs --world >= 2");
  if (rank < 0 || rank >= world) fail("--rank ", rank, ": must be in [0, ", world - 1, "]");
  if (spec_.empty()) fail("--nccl-id: empty (a file path or tcp:HOST:PORT)");
  if (spec_.rfind("tcp:", 0) == 0) {
    const std::size_t colon = spec_.rfind(':');
    host_ = spec_.substr(4, colon > 4 ? colon - 4 : 0);
    const std::string port = spec_.substr(colon + 1);
    try {
      std::size_t used = 0;
      port_ = std::stoi(port, &used);
      if (used != port.size()) port_ = 0;
    } catch (const std::exception&) {
      port_ = 0;
    }
    if (host_.empty() || port_ <= 0 || port_ > 65535)
      fail("--nccl-id ", spec_, ": expected tcp:HOST:PORT with a port in 1..65535");
  } else {
    path_ = spec_;
  }
}

std::string Rendezvous::share(const std::function<std::string()>& make) {
  return is_tcp() ? share_tcp(make) : share_file(make);
}

std::string Rendezvous::share_file(const std::function<std::string()>& make) {
  if (rank_ == 0) {
    const std::string token = make();
    const std::string tmp = path_ + ".tmp";
    {
      std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
      f << encode(world_, token);
      if (!f) fail("--nccl-id ", path_, ": cannot write ", tmp);
    }
    std::error_code ec;
    fs::rename(tmp, path_, ec);
    if (ec) fail("--nccl-id ", path_, ": cannot write it (", ec.message(), ")");
    wrote_ = true;
    return token;
  }
  // the other ranks: wait for the file (complete once it exists: it was renamed into place)
  const auto deadline = Clock::now() + timeout_;
  while (!fs::exists(path_)) {
    if (Clock::now() > deadline)
      fail("--nccl-id ", path_, ": rank 0 did not write it within ", timeout_.count(),
           " s (start rank 0 with the same --nccl-id)");
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  std::ifstream f(path_, std::ios::binary);
  std::stringstream text;
  text << f.rdbuf();
  return decode(text.str(), world_, path_);
}

std::string Rendezvous::share_tcp(const std::function<std::string()>& make) {
  const auto deadline = Clock::now() + timeout_;
  if (rank_ == 0) {
    const std::string token = make(), message = encode(world_, token);
    Socket s(::socket(AF_INET6, SOCK_STREAM, 0));
    if (s.get() < 0) fail("--nccl-id ", spec_, ": cannot open a socket (", strerror(errno), ")");
    const int yes = 1, no = 0;
    setsockopt(s.get(), SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    setsockopt(s.get(), IPPROTO_IPV6, IPV6_V6ONLY, &no, sizeof no);  // IPv4 clients too
    sockaddr_in6 a{};
    a.sin6_family = AF_INET6;
    a.sin6_addr = in6addr_any;
    a.sin6_port = htons(static_cast<std::uint16_t>(port_));
    if (::bind(s.get(), reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
        ::listen(s.get(), world_) != 0)
      fail("--nccl-id ", spec_, ": rank 0 cannot listen on port ", port_, " (", strerror(errno),
           ")");
    for (int joined = 1; joined < world_; ++joined) {
      if (!wait_readable(s.get(), deadline))
        fail("--nccl-id ", spec_, ": ", joined - 1, " of ", world_ - 1, " ranks connected within ",
             timeout_.count(), " s");
      Socket c(::accept(s.get(), nullptr, nullptr));
      if (c.get() < 0 || !send_all(c.get(), message))
        fail("--nccl-id ", spec_, ": sending the id to a rank failed (", strerror(errno), ")");
    }
    return token;
  }
  // the other ranks: connect (rank 0 may not listen yet), then read the whole message
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const std::string port = std::to_string(port_);
  if (const int r = ::getaddrinfo(host_.c_str(), port.c_str(), &hints, &found); r != 0)
    fail("--nccl-id ", spec_, ": cannot resolve ", host_, " (", gai_strerror(r), ")");
  std::unique_ptr<addrinfo, decltype(&::freeaddrinfo)> list(found, ::freeaddrinfo);
  for (;;) {
    for (addrinfo* ai = list.get(); ai; ai = ai->ai_next) {
      Socket c(::socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol));
      if (c.get() < 0 || ::connect(c.get(), ai->ai_addr, ai->ai_addrlen) != 0) continue;
      std::string text;
      char buf[512];
      while (wait_readable(c.get(), deadline)) {
        const ssize_t k = ::recv(c.get(), buf, sizeof buf, 0);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) break;
        text.append(buf, static_cast<std::size_t>(k));
      }
      return decode(text, world_, spec_);
    }
    if (Clock::now() > deadline)
      fail("--nccl-id ", spec_, ": could not connect to rank 0 within ", timeout_.count(), " s");
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
}

void Rendezvous::finish() {
  if (rank_ != 0 || !wrote_) return;
  std::error_code ec;
  fs::remove(path_, ec);
  wrote_ = false;
}

}  // namespace nbody
