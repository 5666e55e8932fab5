// Window memory handed to the transport's own RMA (Transport::register_memory): at creation each
// member registers its window memory and the others unpack its key, so that contiguous puts and
// gets to targets on other nodes move data without the target's CPU where the transport can.
#pragma once
#include "rma/window.hpp"
#include "runtime/comm/comm.hpp"

namespace weft::rma {

// Collective over the window's communicator `wc`. A target whose key could not be made or
// unpacked keeps no key: it is reached through the active-message path. Ends by deciding the
// window's use of the transport's atomics (rma/transport_atomics.hpp).
Status exchange_keys(Window& w, Comm& wc);
// Drops the keys and this process's registration (MPI_Win_free, after its final barrier).
void release_keys(Window& w);

}  // namespace weft::rma
