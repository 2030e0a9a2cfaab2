#include "server/context.h"

#include <algorithm>

namespace hpcjudge::server {

bool Context::serves(const std::string& slug) const {
  return opt.problems.empty() || std::find(opt.problems.begin(), opt.problems.end(), slug) != opt.problems.end();
}

}  // namespace hpcjudge::server
