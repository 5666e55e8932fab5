// Parsing of WEFT_PROFILE.
#include "profile/kinds.hpp"

#include <algorithm>

namespace weft::profile {

bool parse_kinds(const std::string& text, const char* given_as, Kinds* out, std::string* error) {
  Kinds kinds;
  if (text != "off") {
    for (size_t at = 0; at < text.size();) {
      const size_t comma = std::min(text.find(',', at), text.size());
      const std::string word = text.substr(at, comma - at);
      if (word == "summary") {
        kinds.summary = true;
      } else if (word == "trace") {
        kinds.trace = true;
      } else {
        *error = std::string("invalid ") + given_as + " '" + text + "': unknown kind '" + word +
                 "' (want summary, trace, summary,trace or off)";
        return false;
      }
      at = comma + 1;
    }
  }
  *out = kinds;
  return true;
}

}  // namespace weft::profile
