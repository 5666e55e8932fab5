// weftrun (also mpirun, mpiexec): start an MPI job on this machine or across hosts.
#include <signal.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "launcher/args.hpp"
#include "launcher/job.hpp"
#include "launcher/pmix_server.hpp"

int main(int argc, char** argv) {
  using namespace weft::launcher;
  std::vector<std::string> args(argv, argv + argc);
  LaunchOptions options;
  std::string error;
  if (!parse_args(args, &options, &error) ||
      !use_slurm_allocation([](const char* name) -> const char* { return std::getenv(name); },
                            &options, &error)) {
    std::fprintf(stderr, "weftrun: %s\n", error.c_str());
    return 2;
  }
  if (options.help) {
    std::fputs(usage_text().c_str(), stdout);
    return 0;
  }
  if (options.report_state_of > 0) {
    if (kill(pid_t(options.report_state_of), SIGUSR1) != 0) {
      std::fprintf(stderr, "weftrun: cannot signal weftrun %ld: %s\n", options.report_state_of,
                   std::strerror(errno));
      return 1;
    }
    std::printf("weftrun %ld prints its ranks' state on its own standard error\n",
                options.report_state_of);
    return 0;
  }
  if (options.version) {
    std::printf("weftrun (Weft) 0.1.0\n");
    return 0;
  }
  exit_after_server(run_job(options));
}
