// Fortran callbacks behind C ones: attribute copy/delete functions, generalized-request and
// data-representation functions written in Fortran are called through C trampolines that keep
// the Fortran procedure and its INTEGER(KIND=MPI_ADDRESS_KIND) extra state.
#pragma once
#include "mpi.h"

namespace weft::fortran {

// Which attribute callbacks a keyval has: MPI-2 style (address-sized values) or the MPI-1
// MPI_KEYVAL_CREATE style (default INTEGER values).
enum class AttrWidth { kAddress, kInteger };

// A keyval's Fortran copy and delete procedures; the C keyval's extra_state points at it.
struct FortranKeyval {
  void (*copy)();
  void (*del)();
  MPI_Aint extra_state;
  AttrWidth width;
};

// The C callbacks to register for a keyval whose extra_state is a FortranKeyval. One pair serves
// communicators, datatypes and windows: their object handles are all integers.
int copy_trampoline(int object, int keyval, void* extra_state, void* value_in, void* value_out,
                    int* flag);
int delete_trampoline(int object, int keyval, void* value, void* extra_state);

}  // namespace weft::fortran
