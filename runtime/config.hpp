// The one table of WEFT_* settings: name, default, documentation. Read once at MPI_Init.
#pragma once
#include <string>
#include <vector>

namespace weft {

struct Setting {
  const char* name;           // environment variable, e.g. WEFT_SPIN_US
  const char* default_value;  // as text; "auto" where the runtime decides
  const char* doc;
};

const std::vector<Setting>& settings();
// The value of a setting: the environment's if set, else its default.
std::string setting_value(const char* name);
// Integer value, or `fallback` when the value is "auto" or not a number.
long setting_long(const char* name, long fallback);

}  // namespace weft
