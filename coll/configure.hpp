// Sets up collective selection at start-up from the WEFT_* settings: the tuning file and the
// WEFT_<COLL>_ALGORITHM overrides. weft_info --coll goes through the same steps.
#pragma once
#include <string>
#include <vector>

#include "coll/select.hpp"

namespace weft::coll {

// The tuning file WEFT_TUNING_FILE names ("" when auto finds none).
std::string tuning_file_path();
// Where auto looks, whether or not the file exists: $XDG_CONFIG_HOME/weft/tuning, else
// $HOME/.config/weft/tuning ("" when neither variable is set). weft_tune writes here.
std::string auto_tuning_path();
// "WEFT_ALLREDUCE_ALGORITHM" for kAllreduce.
std::string algorithm_setting(CollKind kind);

// The model the tuning file gives, before effective_model: built-in defaults when there is no
// file or it cannot be read (a problem says so). *path: the file read, "" for none.
CostModel configured_model(std::string* path, std::vector<std::string>* problems);
// Applies every WEFT_<COLL>_ALGORITHM setting to `selector`; an unknown name is a problem and
// leaves that collective to the model.
void force_from_settings(Selector* selector, std::vector<std::string>* problems);
// configured_model, effective_model, force_from_settings: what MPI_Init does. Problems (an
// unreadable tuning file, an unknown algorithm name) leave the defaults in place.
void configure_selector(Selector* selector, bool oversubscribed, std::vector<std::string>* problems);

}  // namespace weft::coll
