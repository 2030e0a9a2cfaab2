#include "server/policy.h"

#include <algorithm>

namespace hpcjudge::server {

std::optional<std::time_t> parse_utc(const std::string& iso) {
  for (const char* format : {"%Y-%m-%dT%H:%M:%S", "%Y-%m-%dT%H:%M", "%Y-%m-%d"}) {
    std::tm tm{};
    const char* end = strptime(iso.c_str(), format, &tm);
    if (!end) continue;
    const std::string rest = end;
    if (!rest.empty() && rest != "Z") continue;
    return timegm(&tm);
  }
  return std::nullopt;
}

std::string format_utc(std::time_t t) {
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

namespace {

// Whether `now` is at or past `bound` (an empty bound never is): by time where both read as times, else as text.
bool reached(const std::string& now, const std::string& bound) {
  if (bound.empty()) return false;
  const auto n = parse_utc(now), b = parse_utc(bound);
  return n && b ? *n >= *b : now >= bound;
}

std::optional<Refusal> outside_window(const Policy& p, const std::string& now) {
  if (!p.opens_at.empty() && !reached(now, p.opens_at))
    return Refusal{403, "the contest opens at " + p.opens_at + "; no submission is taken before"};
  if (reached(now, p.closes_at))
    return Refusal{403, "the contest closed at " + p.closes_at + "; no submission is taken after"};
  return std::nullopt;
}

// Over per_hour uploads in the hour before `now`: wait until the oldest of them is an hour old.
std::optional<Refusal> over_hourly(Store& store, const Account& who, const Policy& p, std::time_t now) {
  if (p.per_hour <= 0) return std::nullopt;
  const std::string since = format_utc(now - 3600);
  if (store.uploads_since(who.id, since) < p.per_hour) return std::nullopt;
  std::time_t oldest = now;
  for (const Submission& s : store.submissions_of(who.id))
    if (s.round == "public" && s.created_at >= since)
      if (const auto t = parse_utc(s.created_at)) oldest = std::min(oldest, *t);
  const int wait = int(std::max<std::time_t>(1, oldest + 3600 - now));
  return Refusal{429, "at most " + std::to_string(p.per_hour) + " submissions an hour; the next in " +
                          std::to_string(wait) + " s",
                 wait};
}

}  // namespace

std::optional<Refusal> check_upload(Store& store, const Account& who, size_t bytes, const std::string& now_iso) {
  const Policy p = store.policy();
  if (p.max_upload_bytes > 0 && bytes > size_t(p.max_upload_bytes))
    return Refusal{413, "the file is " + std::to_string(bytes) + " bytes, over the limit of " +
                            std::to_string(p.max_upload_bytes)};
  if (who.role == "admin") return std::nullopt;
  if (auto r = outside_window(p, now_iso)) return r;
  if (p.in_flight > 0 && store.in_flight(who.id) >= p.in_flight)
    return Refusal{429,
                   "at most " + std::to_string(p.in_flight) +
                       " submission(s) waiting or being graded at once; submit again once it is graded",
                   5};
  return over_hourly(store, who, p, parse_utc(now_iso).value_or(std::time(nullptr)));
}

bool frozen(const Policy& p, const std::string& now_iso) { return reached(now_iso, p.frozen_at); }

}  // namespace hpcjudge::server
