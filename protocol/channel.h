// The channel between the judge and its runner child: a SOCK_SEQPACKET socket
// pair carrying one JSON object per message (protocol/protocol.h says which),
// and now and then a file descriptor with it (SCM_RIGHTS: the judge's
// shareable device buffers). It is the only way results reach the judge; the
// child's stdout and stderr are the submission's and are only captured for
// the report. The submission shares the runner's process, so it can write on
// the channel too: nothing it says there is taken as evidence (the judge's
// clock, the judge's reading of the outputs).
#pragma once
#include "protocol/json.h"
#include <optional>
#include <string>

namespace hpcjudge {

// Creates the pair: [0] for the judge, [1] for the child. Both close-on-exec.
void make_channel(int fds[2]);

// Sends one message, with `pass_fd` attached when it is not negative.
void send_message(int fd, const nlohmann::json& msg, int pass_fd = -1);
// The same, already serialised (the judge's clock starts after the serialising).
void send_bytes(int fd, const std::string& bytes, int pass_fd = -1);

struct Message {
  nlohmann::json json;
  int fd = -1;  // a descriptor that came with it (close-on-exec), or -1
};

// Blocks for the next message; nullopt when the other side has closed. A
// message that is not JSON comes back as a discarded value (is_discarded()).
std::optional<Message> receive(int fd);

}  // namespace hpcjudge
