// Communicator queries: rank and size.
#include "mpi.h"
#include "runtime/c_api/guard.hpp"

using weft::world;

extern "C" {

int PMPI_Comm_rank(MPI_Comm comm, int* rank) {
  constexpr const char* fn = "MPI_Comm_rank";
  WEFT_REQUIRE_RUNNING(fn);
  weft::Comm* c = nullptr;
  WEFT_CHECK(comm, fn, weft::lookup_comm(world().comms, comm, "comm", &c));
  WEFT_CHECK(comm, fn, weft::capi::check_not_null(rank, "rank"));
  *rank = c->rank;
  return MPI_SUCCESS;
}

int PMPI_Comm_size(MPI_Comm comm, int* size) {
  constexpr const char* fn = "MPI_Comm_size";
  WEFT_REQUIRE_RUNNING(fn);
  weft::Comm* c = nullptr;
  WEFT_CHECK(comm, fn, weft::lookup_comm(world().comms, comm, "comm", &c));
  WEFT_CHECK(comm, fn, weft::capi::check_not_null(size, "size"));
  *size = c->size;
  return MPI_SUCCESS;
}

}  // extern "C"

// The profiling interface: each MPI_X is a weak alias of PMPI_X (runtime/c_api/guard.hpp).
WEFT_MPI_ALIAS(MPI_Comm_rank)
WEFT_MPI_ALIAS(MPI_Comm_size)
