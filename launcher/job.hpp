// One weftrun job: start the PMIx server and the ranks, forward their I/O, and end the job
// cleanly on the first failure, MPI_Abort, signal or timeout. Returns weftrun's exit code.
#pragma once
#include "launcher/args.hpp"

namespace weft::launcher {

int run_job(const LaunchOptions& options);

}  // namespace weft::launcher
