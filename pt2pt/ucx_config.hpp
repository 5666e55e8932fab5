// The UCX settings Weft chooses where the user did not set the UCX_ variable, applied to the
// configuration the transport reads before ucp_init.
#pragma once
#include <ucp/api/ucp.h>

#include "runtime/status.hpp"

namespace weft {

// Sets Weft's choices in `config`, leaving alone each one the environment sets; `oversubscribed`:
// more ranks on this node than cores.
Status apply_ucx_defaults(ucp_config_t* config, bool oversubscribed);

}  // namespace weft
