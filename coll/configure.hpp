// Sets up collective selection at start-up from the WEFT_* settings: the tuning file and the
// WEFT_<COLL>_ALGORITHM overrides.
#pragma once
#include <string>
#include <vector>

#include "coll/select.hpp"

namespace weft::coll {

// The tuning file WEFT_TUNING_FILE names ("" when auto finds none).
std::string tuning_file_path();
// Configures `selector`; problems (an unreadable tuning file, an unknown algorithm name) are
// returned as messages and leave the defaults in place.
void configure_selector(Selector* selector, bool oversubscribed, std::vector<std::string>* problems);

}  // namespace weft::coll
