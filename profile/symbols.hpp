// Source locations ("main (app.c:12)") for call sites, from the modules' debug information.
#pragma once
#include <vector>

#include "profile/summary.hpp"

namespace weft::profile {

// Fills each site's `location` where binutils' addr2line is installed and finds one; leaves it
// empty otherwise. Runs a process per module: call it once, at rank 0, after PMPI_Finalize.
void resolve_locations(std::vector<SiteSummary>* sites);

}  // namespace weft::profile
