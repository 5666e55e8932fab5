// The UCX settings Weft chooses (ucx_config.hpp).
#include "pt2pt/ucx_config.hpp"

#include <cstdlib>
#include <string>

#include "mpi.h"

namespace weft {
namespace {

// UCX settings Weft chooses unless the user set the UCX_ variable. UCX 1.13's v2 protocols pick
// pipelined shared-memory copies for large intra-node messages: 1-4 MiB ping-pong ran at
// ~20 GB/s here against ~9 GB/s with the v1 rendezvous (perf/, see README). The pipeline needs
// sender and receiver running at once, so with more ranks than cores it is 5-10x slower than the
// v1 single-copy rendezvous (1-4 MiB allreduce on 4 and 8 ranks on 2 cores): then it stays off.
struct UcxDefault {
  const char* name;
  const char* value;
  bool when_oversubscribed;
};
constexpr UcxDefault kUcxDefaults[] = {
    {"PROTO_ENABLE", "y", false},
};

}  // namespace

Status apply_ucx_defaults(ucp_config_t* config, bool oversubscribed) {
  for (const auto& [name, value, when_oversubscribed] : kUcxDefaults) {
    if (oversubscribed && !when_oversubscribed) continue;
    if (std::getenv((std::string("UCX_") + name).c_str()) != nullptr) continue;
    ucs_status_t st = ucp_config_modify(config, name, value);
    if (st != UCS_OK)
      return Status::error(MPI_ERR_OTHER, std::string("ucp_config_modify ") + name +
                                              " failed: " + ucs_status_string(st));
  }
  return Status::success();
}

}  // namespace weft
