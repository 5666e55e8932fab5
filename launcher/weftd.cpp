// weftd: the per-node daemon weftrun starts on the other hosts of a job (see daemon.hpp).
#include <cstdio>
#include <string>

#include "launcher/daemon.hpp"
#include "launcher/pmix_server.hpp"

int main(int argc, char** argv) {
  using namespace weft::launcher;
  DaemonOptions options;
  std::string error;
  if (!parse_daemon_args(argc, argv, &options, &error)) {
    std::fprintf(stderr, "weftd: %s (weftd is started by weftrun, not by hand)\n", error.c_str());
    return 2;
  }
  exit_after_server(run_daemon(options));
}
