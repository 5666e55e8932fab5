// Creating and freeing windows, collectively over a communicator: the private communicator, the
// node segment, every member's base/size/displacement unit, and how each target is reached.
#pragma once
#include "rma/window.hpp"
#include "runtime/comm/comm.hpp"

namespace weft::rma {

struct WindowSpec {
  int flavor = MPI_WIN_FLAVOR_CREATE;
  void* base = nullptr;  // MPI_Win_create: the caller's memory
  uint64_t bytes = 0;
  uint64_t disp_unit = 1;
  MPI_Info info = MPI_INFO_NULL;
};

// Collective over `comm`. For MPI_Win_allocate(_shared) *base_out receives the memory.
Status create_window(Comm& comm, const WindowSpec& spec, void** base_out, MPI_Win* out);
// MPI_Win_free: collective; fails with MPI_ERR_RMA_SYNC while this process holds an epoch open.
Status free_window(Window& w);

}  // namespace weft::rma
