#include "protocol/channel.h"

#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <system_error>
#include <vector>

#include "protocol/untrusted_json.h"

namespace hpcjudge {

void make_channel(int fds[2]) {
  if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, fds) != 0)
    throw std::system_error(errno, std::generic_category(), "socketpair");
}

void send_message(int fd, const nlohmann::json& msg, int pass_fd) { send_bytes(fd, msg.dump(), pass_fd); }

void send_bytes(int fd, const std::string& s, int pass_fd) {
  iovec iov{const_cast<char*>(s.data()), s.size()};
  msghdr m{};
  m.msg_iov = &iov;
  m.msg_iovlen = 1;
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))] = {};
  if (pass_fd >= 0) {
    m.msg_control = control;
    m.msg_controllen = sizeof control;
    cmsghdr* c = CMSG_FIRSTHDR(&m);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    std::memcpy(CMSG_DATA(c), &pass_fd, sizeof(int));
  }
  ssize_t n;
  do n = sendmsg(fd, &m, MSG_NOSIGNAL);
  while (n < 0 && errno == EINTR);
  if (n != static_cast<ssize_t>(s.size())) throw std::system_error(errno, std::generic_category(), "send");
}

std::optional<Message> receive(int fd) {
  std::vector<char> buf(1 << 16);
  iovec iov{buf.data(), buf.size()};
  msghdr m{};
  m.msg_iov = &iov;
  m.msg_iovlen = 1;
  alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int) * 4)] = {};
  m.msg_control = control;
  m.msg_controllen = sizeof control;
  ssize_t n;
  do n = recvmsg(fd, &m, MSG_CMSG_CLOEXEC);
  while (n < 0 && errno == EINTR);
  if (n <= 0) return std::nullopt;
  Message out;
  for (cmsghdr* c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c)) {
    if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
    const size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    for (size_t i = 0; i < count; ++i) {
      int got = -1;
      std::memcpy(&got, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
      if (out.fd < 0) out.fd = got;
      else close(got);  // one descriptor a message: any more are not ours to keep
    }
  }
  // The runner hosts the submission, which may write anything to its end of the channel.
  out.json = parse_untrusted_json(std::string_view(buf.data(), static_cast<size_t>(n)), buf.size());
  return out;
}

}  // namespace hpcjudge
