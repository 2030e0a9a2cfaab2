// The channel between the judge and its runner child: a SOCK_SEQPACKET socket
// pair carrying one JSON object per message. It is the only way results reach
// the judge; the child's stdout and stderr are the submission's and are only
// captured for the report.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>

namespace hpcjudge {

// Creates the pair: [0] for the judge, [1] for the child. Both close-on-exec.
void make_channel(int fds[2]);

void send_message(int fd, const nlohmann::json& msg);

// Blocks for the next message; nullopt when the other side has closed.
std::optional<nlohmann::json> receive_message(int fd);

}  // namespace hpcjudge
