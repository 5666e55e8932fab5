// weftrun (also mpirun, mpiexec): start an MPI job on this node.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "launcher/args.hpp"
#include "launcher/job.hpp"

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
  if (options.version) {
    std::printf("weftrun (Weft) 0.1.0\n");
    return 0;
  }
  return run_job(options);
}
