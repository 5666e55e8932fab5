// WEFT_* settings table and accessors (the man page and weft_info print this same table).
#include "runtime/config.hpp"

#include <cstdlib>
#include <cstring>

namespace weft {

const std::vector<Setting>& settings() {
  static const std::vector<Setting> table = {
      {"WEFT_SPIN_US", "auto",
       "Microseconds a waiting call busy-polls before it blocks on the transport's event fd. "
       "auto: 1000 when the node has a core per local rank, 0 when ranks outnumber cores."},
      {"WEFT_POLL_MS", "100",
       "Upper bound in milliseconds on one blocking sleep of the progress engine."},
  };
  return table;
}

std::string setting_value(const char* name) {
  if (const char* v = std::getenv(name)) return v;
  for (const Setting& s : settings())
    if (std::strcmp(s.name, name) == 0) return s.default_value;
  return {};
}

long setting_long(const char* name, long fallback) {
  const std::string v = setting_value(name);
  if (v.empty() || v == "auto") return fallback;
  char* end = nullptr;
  const long n = std::strtol(v.c_str(), &end, 10);
  return (end && *end == '\0') ? n : fallback;
}

}  // namespace weft
