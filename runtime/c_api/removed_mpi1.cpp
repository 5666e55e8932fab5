// The MPI-1 functions removed in MPI 3.0 (MPI 4.1 §16.2 lists them) that older codes still call,
// each forwarding to its replacement. mpi.h declares the MPI_ names deprecated; an error is
// reported by the replacement, under its name.
#include "mpi.h"
#include "runtime/c_api/guard.hpp"

namespace capi = weft::capi;

namespace {

// MPI_Type_lb / MPI_Type_ub: one bound of `datatype`, from MPI_Type_get_extent.
int type_bound(const char* fn, MPI_Datatype datatype, MPI_Aint* displacement, bool upper) {
  WEFT_REQUIRE_RUNNING(fn);
  WEFT_CHECK(MPI_COMM_WORLD, fn, capi::check_not_null(displacement, "displacement"));
  MPI_Aint lb = 0, extent = 0;
  if (int rc = PMPI_Type_get_extent(datatype, &lb, &extent); rc != MPI_SUCCESS) return rc;
  *displacement = upper ? lb + extent : lb;
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int PMPI_Address(void* location, MPI_Aint* address) { return PMPI_Get_address(location, address); }

int PMPI_Type_extent(MPI_Datatype datatype, MPI_Aint* extent) {
  constexpr const char* fn = "MPI_Type_extent";
  WEFT_REQUIRE_RUNNING(fn);
  WEFT_CHECK(MPI_COMM_WORLD, fn, capi::check_not_null(extent, "extent"));
  MPI_Aint lb = 0;
  return PMPI_Type_get_extent(datatype, &lb, extent);
}

int PMPI_Type_lb(MPI_Datatype datatype, MPI_Aint* displacement) {
  return type_bound("MPI_Type_lb", datatype, displacement, false);
}

int PMPI_Type_ub(MPI_Datatype datatype, MPI_Aint* displacement) {
  return type_bound("MPI_Type_ub", datatype, displacement, true);
}

int PMPI_Type_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                      MPI_Datatype* newtype) {
  return PMPI_Type_create_hvector(count, blocklength, stride, oldtype, newtype);
}

int PMPI_Type_hindexed(int count, int array_of_blocklengths[], MPI_Aint array_of_displacements[],
                       MPI_Datatype oldtype, MPI_Datatype* newtype) {
  return PMPI_Type_create_hindexed(count, array_of_blocklengths, array_of_displacements, oldtype,
                                   newtype);
}

int PMPI_Type_struct(int count, int array_of_blocklengths[], MPI_Aint array_of_displacements[],
                     MPI_Datatype array_of_types[], MPI_Datatype* newtype) {
  return PMPI_Type_create_struct(count, array_of_blocklengths, array_of_displacements,
                                 array_of_types, newtype);
}

int PMPI_Errhandler_create(MPI_Handler_function* function, MPI_Errhandler* errhandler) {
  return PMPI_Comm_create_errhandler(function, errhandler);
}

int PMPI_Errhandler_get(MPI_Comm comm, MPI_Errhandler* errhandler) {
  return PMPI_Comm_get_errhandler(comm, errhandler);
}

int PMPI_Errhandler_set(MPI_Comm comm, MPI_Errhandler errhandler) {
  return PMPI_Comm_set_errhandler(comm, errhandler);
}

}  // extern "C"

// The profiling interface: each MPI_X is a weak alias of PMPI_X (runtime/c_api/guard.hpp).
WEFT_MPI_ALIAS(MPI_Address)
WEFT_MPI_ALIAS(MPI_Type_extent)
WEFT_MPI_ALIAS(MPI_Type_lb)
WEFT_MPI_ALIAS(MPI_Type_ub)
WEFT_MPI_ALIAS(MPI_Type_hvector)
WEFT_MPI_ALIAS(MPI_Type_hindexed)
WEFT_MPI_ALIAS(MPI_Type_struct)
WEFT_MPI_ALIAS(MPI_Errhandler_create)
WEFT_MPI_ALIAS(MPI_Errhandler_get)
WEFT_MPI_ALIAS(MPI_Errhandler_set)
