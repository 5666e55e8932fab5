// The one table of WEFT_* settings: name, default, documentation. Read once at MPI_Init (a few
// where they are used: `read_at_init` says which); MPI_T control variables may override them.
#pragma once
#include <string>
#include <vector>

namespace weft {

struct Setting {
  const char* name;           // environment variable, e.g. WEFT_SPIN_US
  const char* default_value;  // as text; "auto" where the runtime decides
  const char* doc;
  bool read_at_init = true;  // false: read each time it is used (MPI_T may change it while running)
  bool numeric = false;      // an integer (MPI_T shows it as MPI_INT)
  // Set or read outside the library (by weftrun, or by the profiler it preloads): a control
  // variable may only read it.
  bool set_by_launcher = false;
};

const std::vector<Setting>& settings();
// The value of a setting: set_setting's if called, else the environment's if set, else its default.
std::string setting_value(const char* name);
// Overrides a setting for this process (MPI_T_cvar_write); thread-safe.
void set_setting(const char* name, const std::string& value);
// Integer value, or `fallback` when the value is "auto" or not a number.
long setting_long(const char* name, long fallback);

}  // namespace weft
