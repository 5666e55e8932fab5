// Communicator queries: rank, size, predefined attributes; datatype size.
#include "mpi.h"
#include "pt2pt/match_bits.hpp"
#include "runtime/c_api/guard.hpp"
#include "runtime/datatype.hpp"

using weft::world;

namespace {
// Predefined attribute values; MPI hands out pointers to them.
int g_tag_ub = weft::match_bits::kMaxTag;
int g_host = MPI_PROC_NULL;
int g_io = MPI_ANY_SOURCE;
int g_wtime_is_global = 0;
int g_universe_size = 1;
int g_appnum = 0;
int g_lastusedcode = MPI_ERR_LASTCODE;
}  // namespace

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

int PMPI_Comm_get_attr(MPI_Comm comm, int comm_keyval, void* attribute_val, int* flag) {
  constexpr const char* fn = "MPI_Comm_get_attr";
  WEFT_REQUIRE_RUNNING(fn);
  weft::Comm* c = nullptr;
  WEFT_CHECK(comm, fn, weft::lookup_comm(world().comms, comm, "comm", &c));
  WEFT_CHECK(comm, fn, weft::capi::check_not_null(attribute_val, "attribute_val"));
  WEFT_CHECK(comm, fn, weft::capi::check_not_null(flag, "flag"));
  g_universe_size = world().kvs->job().universe_size;
  g_appnum = world().kvs->job().appnum;
  int* value = nullptr;
  switch (comm_keyval) {
    case MPI_TAG_UB: value = &g_tag_ub; break;
    case MPI_HOST: value = &g_host; break;
    case MPI_IO: value = &g_io; break;
    case MPI_WTIME_IS_GLOBAL: value = &g_wtime_is_global; break;
    case MPI_UNIVERSE_SIZE: value = &g_universe_size; break;
    case MPI_APPNUM: value = &g_appnum; break;
    case MPI_LASTUSEDCODE: value = &g_lastusedcode; break;
    default:
      return weft::capi::report(
          comm, fn,
          weft::Status::error(MPI_ERR_KEYVAL, "invalid comm_keyval=" + std::to_string(comm_keyval)));
  }
  *static_cast<int**>(attribute_val) = value;
  *flag = 1;
  return MPI_SUCCESS;
}

int PMPI_Type_size(MPI_Datatype datatype, int* size) {
  constexpr const char* fn = "MPI_Type_size";
  WEFT_REQUIRE_RUNNING(fn);
  const weft::DatatypeInfo* type = nullptr;
  WEFT_CHECK(MPI_COMM_WORLD, fn, weft::lookup_datatype(datatype, "datatype", &type));
  WEFT_CHECK(MPI_COMM_WORLD, fn, weft::capi::check_not_null(size, "size"));
  *size = int(type->size);
  return MPI_SUCCESS;
}

}  // extern "C"

// The profiling interface: each MPI_X is a weak alias of PMPI_X (runtime/c_api/guard.hpp).
WEFT_MPI_ALIAS(MPI_Comm_rank)
WEFT_MPI_ALIAS(MPI_Comm_size)
WEFT_MPI_ALIAS(MPI_Comm_get_attr)
WEFT_MPI_ALIAS(MPI_Type_size)
