// weftd: the per-node daemon of a multi-node job. Started by weftrun's launch agent, it reads the
// job's secret from stdin, connects back to weftrun, proves the secret, receives the JobSpec,
// runs the PMIx server and the ranks of its node, and relays their output, exits, aborts,
// fences, and spawn and name-service calls (served by weftrun). It ends its ranks and exits when weftrun says so or the connection is lost.
#pragma once
#include <string>

namespace weft::launcher {

struct DaemonOptions {
  std::string connect;  // weftrun's ADDR:PORT
  int node = -1;        // this node's index in the job
};

// Parses weftd's arguments (--connect ADDR:PORT --node N); false with `error` on failure.
bool parse_daemon_args(int argc, char** argv, DaemonOptions* out, std::string* error);

// Runs the node's part of the job; returns weftd's exit code.
int run_daemon(const DaemonOptions& options);

}  // namespace weft::launcher
