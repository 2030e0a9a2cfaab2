// The course's rules for an upload (server/store.h's Policy): its size, the contest window, the rate limits; and
// whether the leaderboard is frozen. A refusal is the HTTP answer the API gives, with its reason.
#pragma once
#include <ctime>
#include <optional>
#include <string>

#include "server/store.h"

namespace hpcjudge::server {

struct Refusal {
  int status;           // 413 too large, 403 outside the contest window, 429 over a rate limit
  std::string message;  // one line, for the participant
  int retry_after = 0;  // 429: seconds until an upload would be taken (the Retry-After header)
};

// Why `who` may not upload a file of `bytes` bytes at `now_iso` (ISO 8601 UTC), or nothing. In this order: 413 over
// max_upload_bytes (everyone); 403 before opens_at or from closes_at on; 429 with in_flight submissions not yet done
// (retry_after 5), or per_hour uploads in the hour before now (retry_after: until the oldest of them is an hour
// old). Admins are exempt from the window and the rate limits, not the size. A bound of 0 or less, or an empty
// time, is no bound.
std::optional<Refusal> check_upload(Store& store, const Account& who, size_t bytes, const std::string& now_iso);

// Whether the leaderboard shows the standings as at frozen_at: from frozen_at on, until the staff clear it.
bool frozen(const Policy& p, const std::string& now_iso);

// "2026-12-07T11:10:19Z" (the Z, the seconds or the time may be left out: midnight UTC) as seconds since the
// epoch; nothing where it does not read so. The admin page checks a window's times with it.
std::optional<std::time_t> parse_utc(const std::string& iso);
std::string format_utc(std::time_t t);  // the form utc_now() writes

}  // namespace hpcjudge::server
