// The predefined Fortran callback procedures (MPI_COMM_NULL_COPY_FN, MPI_COMM_DUP_FN, ... and
// MPI_CONVERSION_FN_NULL), MPI_F_SYNC_REG, and the trampolines that let C call a Fortran
// attribute callback.
#include "fortran/callbacks.hpp"

namespace weft::fortran {

using CopyAddress = void (*)(MPI_Fint*, MPI_Fint*, MPI_Aint*, MPI_Aint*, MPI_Aint*, MPI_Fint*,
                             MPI_Fint*);
using DeleteAddress = void (*)(MPI_Fint*, MPI_Fint*, MPI_Aint*, MPI_Aint*, MPI_Fint*);
using CopyInteger = void (*)(MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*,
                             MPI_Fint*);
using DeleteInteger = void (*)(MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*, MPI_Fint*);

int copy_trampoline(int object, int keyval, void* extra_state, void* value_in, void* value_out,
                    int* flag) {
  auto* k = static_cast<FortranKeyval*>(extra_state);
  MPI_Fint f_object = object, f_keyval = keyval, f_flag = 0, ierror = MPI_SUCCESS;
  MPI_Aint out = 0;
  if (k->width == AttrWidth::kAddress) {
    MPI_Aint in = reinterpret_cast<MPI_Aint>(value_in);
    reinterpret_cast<CopyAddress>(k->copy)(&f_object, &f_keyval, &k->extra_state, &in, &out,
                                           &f_flag, &ierror);
  } else {
    MPI_Fint extra = static_cast<MPI_Fint>(k->extra_state);
    MPI_Fint in = static_cast<MPI_Fint>(reinterpret_cast<MPI_Aint>(value_in)), out_int = 0;
    reinterpret_cast<CopyInteger>(k->copy)(&f_object, &f_keyval, &extra, &in, &out_int, &f_flag,
                                           &ierror);
    out = out_int;
  }
  *flag = f_flag != 0;
  if (*flag) *static_cast<void**>(value_out) = reinterpret_cast<void*>(out);
  return ierror;
}

int delete_trampoline(int object, int keyval, void* value, void* extra_state) {
  auto* k = static_cast<FortranKeyval*>(extra_state);
  MPI_Fint f_object = object, f_keyval = keyval, ierror = MPI_SUCCESS;
  if (k->width == AttrWidth::kAddress) {
    MPI_Aint f_value = reinterpret_cast<MPI_Aint>(value);
    reinterpret_cast<DeleteAddress>(k->del)(&f_object, &f_keyval, &f_value, &k->extra_state,
                                            &ierror);
  } else {
    MPI_Fint f_value = static_cast<MPI_Fint>(reinterpret_cast<MPI_Aint>(value));
    MPI_Fint extra = static_cast<MPI_Fint>(k->extra_state);
    reinterpret_cast<DeleteInteger>(k->del)(&f_object, &f_keyval, &f_value, &extra, &ierror);
  }
  return ierror;
}

}  // namespace weft::fortran

// The predefined procedures, callable from Fortran like a user's (MPI 4.1 §7.7.2): the NULL
// copies keep nothing, the DUPs copy the value, the NULL deletes do nothing.
extern "C" {
#define WEFT_F_NULL_COPY(name, T)                                                  \
  void name(MPI_Fint*, MPI_Fint*, T*, T*, T*, MPI_Fint* flag, MPI_Fint* ierror) {  \
    *flag = 0;                                                                     \
    *ierror = MPI_SUCCESS;                                                         \
  }
#define WEFT_F_DUP(name, T)                                                          \
  void name(MPI_Fint*, MPI_Fint*, T*, T* in, T* out, MPI_Fint* flag, MPI_Fint* ierror) { \
    *out = *in;                                                                      \
    *flag = 1;                                                                       \
    *ierror = MPI_SUCCESS;                                                           \
  }
#define WEFT_F_NULL_DELETE(name, T) \
  void name(MPI_Fint*, MPI_Fint*, T*, T*, MPI_Fint* ierror) { *ierror = MPI_SUCCESS; }

WEFT_F_NULL_COPY(mpi_comm_null_copy_fn_, MPI_Aint)
WEFT_F_NULL_COPY(mpi_type_null_copy_fn_, MPI_Aint)
WEFT_F_NULL_COPY(mpi_win_null_copy_fn_, MPI_Aint)
WEFT_F_NULL_COPY(mpi_null_copy_fn_, MPI_Fint)
WEFT_F_DUP(mpi_comm_dup_fn_, MPI_Aint)
WEFT_F_DUP(mpi_type_dup_fn_, MPI_Aint)
WEFT_F_DUP(mpi_win_dup_fn_, MPI_Aint)
WEFT_F_DUP(mpi_dup_fn_, MPI_Fint)
WEFT_F_NULL_DELETE(mpi_comm_null_delete_fn_, MPI_Aint)
WEFT_F_NULL_DELETE(mpi_type_null_delete_fn_, MPI_Aint)
WEFT_F_NULL_DELETE(mpi_win_null_delete_fn_, MPI_Aint)
WEFT_F_NULL_DELETE(mpi_null_delete_fn_, MPI_Fint)

// MPI_F_SYNC_REG: an external call the compiler cannot see into is all it takes (MPI 4.1 §19.1.17).
void mpi_f_sync_reg_(void*) {}
void pmpi_f_sync_reg_(void*) {}

// Only its address matters: MPI_REGISTER_DATAREP passes C's MPI_CONVERSION_FN_NULL for it.
void mpi_conversion_fn_null_() {}
}
