// The Fortran glue of MPI_GREQUEST_START and MPI_REGISTER_DATAREP: their Fortran callbacks are
// called through C trampolines holding the procedures and the INTEGER(KIND=MPI_ADDRESS_KIND)
// extra state (MPI 4.1 §13.2 and §14.5.3).
#include "fortran/glue_support.hpp"

extern "C" void mpi_conversion_fn_null_();

namespace weft::fortran {
namespace {

using Procedure = void (*)();

// A generalized request's Fortran query, free and cancel procedures; freed by the free call.
struct FortranGrequest {
  Procedure query, free, cancel;
  MPI_Aint extra_state;
};

int grequest_query(void* extra_state, MPI_Status* status) {
  auto* g = static_cast<FortranGrequest*>(extra_state);
  MPI_Fint f_status[MPI_F_STATUS_SIZE] = {};
  MPI_Fint ierror = MPI_SUCCESS;
  PMPI_Status_c2f(status, f_status);
  reinterpret_cast<void (*)(MPI_Aint*, MPI_Fint*, MPI_Fint*)>(g->query)(&g->extra_state,
                                                                         f_status, &ierror);
  PMPI_Status_f2c(f_status, status);
  return ierror;
}

int grequest_free(void* extra_state) {
  auto* g = static_cast<FortranGrequest*>(extra_state);
  MPI_Fint ierror = MPI_SUCCESS;
  reinterpret_cast<void (*)(MPI_Aint*, MPI_Fint*)>(g->free)(&g->extra_state, &ierror);
  delete g;
  return ierror;
}

int grequest_cancel(void* extra_state, int complete) {
  auto* g = static_cast<FortranGrequest*>(extra_state);
  MPI_Fint f_complete = complete != 0, ierror = MPI_SUCCESS;
  reinterpret_cast<void (*)(MPI_Aint*, MPI_Fint*, MPI_Fint*)>(g->cancel)(&g->extra_state,
                                                                          &f_complete, &ierror);
  return ierror;
}

// A data representation's Fortran conversion and extent procedures; registered for good.
struct FortranDatarep {
  Procedure read, write, extent;
  MPI_Aint extra_state;
};

using FortranConversion = void (*)(void*, MPI_Fint*, MPI_Fint*, void*, MPI_Offset*, MPI_Aint*,
                                   MPI_Fint*);

int convert(Procedure fn, void* userbuf, MPI_Datatype type, int count, void* filebuf,
            MPI_Offset position, MPI_Aint* extra_state) {
  MPI_Fint f_type = type, f_count = count, ierror = MPI_SUCCESS;
  reinterpret_cast<FortranConversion>(fn)(userbuf, &f_type, &f_count, filebuf, &position,
                                          extra_state, &ierror);
  return ierror;
}

int datarep_read(void* userbuf, MPI_Datatype type, int count, void* filebuf, MPI_Offset position,
                 void* extra_state) {
  auto* d = static_cast<FortranDatarep*>(extra_state);
  return convert(d->read, userbuf, type, count, filebuf, position, &d->extra_state);
}

int datarep_write(void* userbuf, MPI_Datatype type, int count, void* filebuf,
                  MPI_Offset position, void* extra_state) {
  auto* d = static_cast<FortranDatarep*>(extra_state);
  return convert(d->write, userbuf, type, count, filebuf, position, &d->extra_state);
}

int datarep_extent(MPI_Datatype type, MPI_Aint* file_extent, void* extra_state) {
  auto* d = static_cast<FortranDatarep*>(extra_state);
  MPI_Fint f_type = type, ierror = MPI_SUCCESS;
  reinterpret_cast<void (*)(MPI_Fint*, MPI_Aint*, MPI_Aint*, MPI_Fint*)>(d->extent)(
      &f_type, file_extent, &d->extra_state, &ierror);
  return ierror;
}

bool is_conversion_null(Procedure fn) { return fn == &mpi_conversion_fn_null_; }

}  // namespace

template <bool P>
void grequest_start(Procedure query, Procedure free, Procedure cancel, MPI_Aint* extra,
                    MPI_Fint* request, MPI_Fint* ierror) {
  auto* g = new FortranGrequest{query, free, cancel, *extra};
  MPI_Request c_request = MPI_REQUEST_NULL;
  const int rc = WEFT_C(P, MPI_Grequest_start)(grequest_query, grequest_free, grequest_cancel, g,
                                               &c_request);
  if (rc != MPI_SUCCESS) delete g;
  *request = PMPI_Request_c2f(c_request);
  set_ierror(ierror, rc);
}

template <bool P>
void register_datarep(char* name, Procedure read, Procedure write, Procedure extent,
                      MPI_Aint* extra, MPI_Fint* ierror, size_t name_len) {
  auto* d = new FortranDatarep{read, write, extent, *extra};
  StringIn c_name(name, name_len);
  const int rc = WEFT_C(P, MPI_Register_datarep)(
      c_name.c_str(), is_conversion_null(read) ? MPI_CONVERSION_FN_NULL : datarep_read,
      is_conversion_null(write) ? MPI_CONVERSION_FN_NULL : datarep_write, datarep_extent, d);
  if (rc != MPI_SUCCESS) delete d;
  set_ierror(ierror, rc);
}

}  // namespace weft::fortran

using namespace weft::fortran;
WEFT_F_NAMES(grequest_start, grequest_start,
             (Procedure q, Procedure f, Procedure c, MPI_Aint* x, MPI_Fint* r, MPI_Fint* e),
             (q, f, c, x, r, e))
WEFT_F_NAMES(register_datarep, register_datarep,
             (char* n, Procedure r, Procedure w, Procedure x, MPI_Aint* s, MPI_Fint* e,
              size_t len),
             (n, r, w, x, s, e, len))
