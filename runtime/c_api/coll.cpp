// Collective chapter entry points.
#include "coll/barrier.hpp"
#include "mpi.h"
#include "runtime/c_api/guard.hpp"

extern "C" {

int MPI_Barrier(MPI_Comm comm) {
  constexpr const char* fn = "MPI_Barrier";
  WEFT_REQUIRE_RUNNING(fn);
  weft::Comm* c = nullptr;
  WEFT_CHECK(comm, fn, weft::lookup_comm(weft::world().comms, comm, "comm", &c));
  return weft::capi::report(comm, fn, weft::coll::barrier(*c));
}

}  // extern "C"
