// weft_info: prints Weft's version, the libraries it runs on, and its WEFT_* settings with their
// current values (the same table the runtime reads); --coll explains collective selection.
#include <pmix.h>
#include <ucp/api/ucp.h>

#include <cstdio>
#include <cstring>

#include "mpi.h"
#include "runtime/config.hpp"
#include "runtime/info/coll_info.hpp"

namespace {

void print_version() {
  std::printf("Weft %s (MPI %d.%d)\n", WEFT_VERSION_STRING, MPI_VERSION, MPI_SUBVERSION);
  std::printf("  transport: UCX %s (tagged messages)\n", ucp_get_version_string());
  const bool shm = weft::setting_long("WEFT_SHM", 1) != 0;
  std::printf("  transport: shared memory between ranks of one node (%s)\n",
              shm ? "used for them when the kernel allows cross-memory attach"
                  : "off: WEFT_SHM=0");
  std::printf("  bootstrap: %s\n", PMIx_Get_version());
}

void print_settings() {
  std::printf("Settings (environment variables, or weftrun --set name=value):\n");
  for (const weft::Setting& s : weft::settings()) {
    std::printf("  %s = %s   (default %s)\n      %s\n", s.name, weft::setting_value(s.name).c_str(),
                s.default_value, s.doc);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && (std::strcmp(argv[1], "-h") == 0 || std::strcmp(argv[1], "--help") == 0)) {
    std::printf(
        "usage: weft_info [--version | --settings]\n"
        "       weft_info --coll [NAME --ranks N --bytes SIZE ...]  (--coll --help)\n");
    return 0;
  }
  if (argc > 1 && std::strcmp(argv[1], "--coll") == 0)
    return weft::info::coll_main(argc - 2, argv + 2);
  const bool only_version = argc > 1 && std::strcmp(argv[1], "--version") == 0;
  const bool only_settings = argc > 1 && std::strcmp(argv[1], "--settings") == 0;
  if (argc > 1 && !only_version && !only_settings) {
    std::fprintf(stderr, "weft_info: unknown option '%s' (try --help)\n", argv[1]);
    return 2;
  }
  if (!only_settings) print_version();
  if (!only_version) print_settings();
  return 0;
}
