// WEFT_* settings table and accessors (the man page and weft_info print this same table).
#include "runtime/config.hpp"

#include <cstdlib>
#include <cstring>

namespace weft {

const std::vector<Setting>& settings() {
  static const std::vector<Setting> table = {
      {"WEFT_SPIN_US", "1000",
       "Microseconds a waiting call polls before it blocks on the transport's event fd."},
      {"WEFT_YIELD", "auto",
       "1: give the core away (sched_yield) between polls while spinning; 0: spin hard. "
       "auto: 1 when this node runs more ranks than it has cores."},
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
