#include "channel.h"

#include <sys/socket.h>

#include <cerrno>
#include <string>
#include <system_error>
#include <vector>

namespace hpcjudge {

void make_channel(int fds[2]) {
  if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, fds) != 0)
    throw std::system_error(errno, std::generic_category(), "socketpair");
}

void send_message(int fd, const nlohmann::json& msg) {
  const std::string s = msg.dump();
  ssize_t n;
  do n = send(fd, s.data(), s.size(), MSG_NOSIGNAL);
  while (n < 0 && errno == EINTR);
  if (n != static_cast<ssize_t>(s.size())) throw std::system_error(errno, std::generic_category(), "send");
}

std::optional<nlohmann::json> receive_message(int fd) {
  std::vector<char> buf(1 << 16);
  ssize_t n;
  do n = recv(fd, buf.data(), buf.size(), 0);
  while (n < 0 && errno == EINTR);
  if (n <= 0) return std::nullopt;
  auto j = nlohmann::json::parse(buf.begin(), buf.begin() + n, nullptr, false);
  if (j.is_discarded()) return std::nullopt;
  return j;
}

}  // namespace hpcjudge
