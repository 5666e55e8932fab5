// WEFT_PROFILE: which profiles to make ("summary", "trace" or both, comma-separated; "off" or
// empty: none). Pure; weftrun checks the value with it before starting a job, the profiler at
// MPI_Init.
#pragma once
#include <string>

namespace weft::profile {

struct Kinds {
  bool summary = false;
  bool trace = false;
  bool any() const { return summary || trace; }
};

// False with `error` set (naming `given_as`, the value and the words allowed) when a word is
// unknown. `given_as`: where the value came from ("WEFT_PROFILE", "--profile").
bool parse_kinds(const std::string& text, const char* given_as, Kinds* out, std::string* error);

}  // namespace weft::profile
