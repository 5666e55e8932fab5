// weft_tune's tuning file (the one MPI_Init reads, coll/tuning.hpp): what a run keeps from the
// file it replaces, and writing the new one with a header saying when, where and how.
#pragma once
#include <string>

#include "coll/tuning.hpp"

namespace weft::tune {

// The values this run does not measure come from the file it replaces, else the built-in
// defaults; `origin` names which (for the notes). A file that does not parse gives the defaults
// with a warning.
coll::CostModel previous_model(const std::string& path, std::string* origin);

// Writes the file through a temporary and a rename, so that a job starting meanwhile reads the
// old file or the new one: a header (when, on which hosts, with how many ranks and cores, the
// load), the `notes` (comment lines saying how each value was found), then the values. Prints
// where it wrote, or the error on stderr; false on failure.
bool write_tuning(const std::string& path, const std::string& hosts, int size,
                  const std::string& notes, const coll::CostModel& model);

}  // namespace weft::tune
