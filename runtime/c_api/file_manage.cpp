// File manipulation (MPI 4.1 §14.2): open, close, delete, size, group, amode, hints, sync,
// atomicity, error handlers on files, and the Fortran handle conversions. The work is in io/.
#include "io/manage.hpp"
#include "mpi.h"
#include "runtime/c_api/file_args.hpp"
#include "runtime/comm/errhandler.hpp"

using weft::Status;
namespace capi = weft::capi;
namespace io = weft::io;

extern "C" {

int PMPI_File_open(MPI_Comm comm, const char* filename, int amode, MPI_Info info, MPI_File* fh) {
  constexpr const char* fn = "MPI_File_open";
  WEFT_REQUIRE_RUNNING(fn);
  weft::Comm* c = nullptr;
  WEFT_FILE_CHECK(MPI_FILE_NULL, fn, capi::intra_comm_arg(comm, "comm", &c));
  WEFT_FILE_CHECK(MPI_FILE_NULL, fn, capi::check_not_null(filename, "filename"));
  WEFT_FILE_CHECK(MPI_FILE_NULL, fn, capi::check_not_null(fh, "fh"));
  *fh = MPI_FILE_NULL;
  WEFT_FILE_CHECK(MPI_FILE_NULL, fn, io::open_file(comm, filename, amode, info, fh));
  weft::errhandler_retain(io::files().find(*fh)->errhandler);
  return MPI_SUCCESS;
}

int PMPI_File_close(MPI_File* fh) {
  constexpr const char* fn = "MPI_File_close";
  WEFT_REQUIRE_RUNNING(fn);
  WEFT_FILE_CHECK(MPI_FILE_NULL, fn, capi::check_not_null(fh, "fh"));
  io::File* f = nullptr;
  WEFT_FILE_LOOKUP(*fh, fn, f);
  const MPI_Errhandler handler = f->errhandler;
  const MPI_File handle = *fh;
  const Status s = io::close_file(*f);
  *fh = MPI_FILE_NULL;
  if (s.ok()) {
    weft::errhandler_release(handler);
    return MPI_SUCCESS;
  }
  const int code = capi::report_file(handle, fn, s);
  weft::errhandler_release(handler);
  return code;
}

int PMPI_File_delete(const char* filename, MPI_Info) {
  constexpr const char* fn = "MPI_File_delete";
  WEFT_REQUIRE_RUNNING(fn);
  WEFT_FILE_CHECK(MPI_FILE_NULL, fn, capi::check_not_null(filename, "filename"));
  WEFT_FILE_CHECK(MPI_FILE_NULL, fn, io::delete_file(filename));
  return MPI_SUCCESS;
}

// Calls of the form fn(fh, value) that run io::work(*f, value).
#define WEFT_FILE_WORK(name, type, work)             \
  int P##name(MPI_File fh, type value) {             \
    WEFT_REQUIRE_RUNNING(#name);                     \
    io::File* f = nullptr;                           \
    WEFT_FILE_LOOKUP(fh, #name, f);                  \
    WEFT_FILE_CHECK(fh, #name, io::work(*f, value)); \
    return MPI_SUCCESS;                              \
  }
WEFT_FILE_WORK(MPI_File_set_size, MPI_Offset, set_size)
WEFT_FILE_WORK(MPI_File_preallocate, MPI_Offset, preallocate)
WEFT_FILE_WORK(MPI_File_set_atomicity, int, set_atomicity)
WEFT_FILE_WORK(MPI_File_set_info, MPI_Info, set_info)
#undef WEFT_FILE_WORK

int PMPI_File_sync(MPI_File fh) {
  constexpr const char* fn = "MPI_File_sync";
  WEFT_REQUIRE_RUNNING(fn);
  io::File* f = nullptr;
  WEFT_FILE_LOOKUP(fh, fn, f);
  WEFT_FILE_CHECK(fh, fn, io::sync(*f));
  return MPI_SUCCESS;
}

// Queries fn(fh, type* out): *out = expr, where expr may use `f`.
#define WEFT_FILE_QUERY(name, type, expr)                         \
  int P##name(MPI_File fh, type* out) {                           \
    WEFT_REQUIRE_RUNNING(#name);                                  \
    io::File* f = nullptr;                                        \
    WEFT_FILE_LOOKUP(fh, #name, f);                               \
    WEFT_FILE_CHECK(fh, #name, capi::check_not_null(out, "out")); \
    *out = (expr);                                                \
    return MPI_SUCCESS;                                           \
  }
WEFT_FILE_QUERY(MPI_File_get_amode, int, f->amode)
WEFT_FILE_QUERY(MPI_File_get_atomicity, int, f->atomic ? 1 : 0)
WEFT_FILE_QUERY(MPI_File_get_info, MPI_Info, f->hints.to_info())
#undef WEFT_FILE_QUERY

int PMPI_File_get_size(MPI_File fh, MPI_Offset* size) {
  constexpr const char* fn = "MPI_File_get_size";
  WEFT_REQUIRE_RUNNING(fn);
  io::File* f = nullptr;
  WEFT_FILE_LOOKUP(fh, fn, f);
  WEFT_FILE_CHECK(fh, fn, capi::check_not_null(size, "size"));
  WEFT_FILE_CHECK(fh, fn, io::get_size(*f, size));
  return MPI_SUCCESS;
}

int PMPI_File_get_group(MPI_File fh, MPI_Group* group) {
  constexpr const char* fn = "MPI_File_get_group";
  WEFT_REQUIRE_RUNNING(fn);
  io::File* f = nullptr;
  WEFT_FILE_LOOKUP(fh, fn, f);
  WEFT_FILE_CHECK(fh, fn, capi::check_not_null(group, "group"));
  return PMPI_Comm_group(f->comm, group);
}

int PMPI_File_create_errhandler(MPI_File_errhandler_function* file_errhandler_fn,
                                MPI_Errhandler* errhandler) {
  constexpr const char* fn = "MPI_File_create_errhandler";
  WEFT_REQUIRE_RUNNING(fn);
  WEFT_FILE_CHECK(MPI_FILE_NULL, fn,
                  capi::check_not_null(reinterpret_cast<const void*>(file_errhandler_fn),
                                       "file_errhandler_fn"));
  WEFT_FILE_CHECK(MPI_FILE_NULL, fn, capi::check_not_null(errhandler, "errhandler"));
  // File and communicator handlers are called alike: (int handle*, int code*).
  *errhandler = weft::errhandlers().create(
      reinterpret_cast<MPI_Comm_errhandler_function*>(file_errhandler_fn));
  return MPI_SUCCESS;
}

// MPI_FILE_NULL stands for the default handler of files opened from now on.
int PMPI_File_set_errhandler(MPI_File file, MPI_Errhandler errhandler) {
  constexpr const char* fn = "MPI_File_set_errhandler";
  WEFT_REQUIRE_RUNNING(fn);
  io::File* f = nullptr;
  if (file != MPI_FILE_NULL) WEFT_FILE_LOOKUP(file, fn, f);
  WEFT_FILE_CHECK(file, fn, weft::errhandlers().check(errhandler, "errhandler"));
  weft::errhandler_replace(f != nullptr ? &f->errhandler : &io::files().default_errhandler,
                           errhandler);
  return MPI_SUCCESS;
}

int PMPI_File_get_errhandler(MPI_File file, MPI_Errhandler* errhandler) {
  constexpr const char* fn = "MPI_File_get_errhandler";
  WEFT_REQUIRE_RUNNING(fn);
  io::File* f = nullptr;
  if (file != MPI_FILE_NULL) WEFT_FILE_LOOKUP(file, fn, f);
  WEFT_FILE_CHECK(file, fn, capi::check_not_null(errhandler, "errhandler"));
  *errhandler = f != nullptr ? f->errhandler : io::files().default_errhandler;
  weft::errhandler_retain(*errhandler);
  return MPI_SUCCESS;
}

int PMPI_File_call_errhandler(MPI_File fh, int errorcode) {
  constexpr const char* fn = "MPI_File_call_errhandler";
  WEFT_REQUIRE_RUNNING(fn);
  io::File* f = nullptr;
  if (fh != MPI_FILE_NULL) WEFT_FILE_LOOKUP(fh, fn, f);
  const MPI_Errhandler handler = f != nullptr ? f->errhandler : io::files().default_errhandler;
  return capi::report_file(fh, fn, weft::call_errhandler(fh, handler, fn, errorcode));
}

MPI_Fint PMPI_File_c2f(MPI_File file) { return static_cast<MPI_Fint>(file); }
MPI_File PMPI_File_f2c(MPI_Fint file) { return static_cast<MPI_File>(file); }

}  // extern "C"

WEFT_MPI_ALIAS(MPI_File_open)
WEFT_MPI_ALIAS(MPI_File_close)
WEFT_MPI_ALIAS(MPI_File_delete)
WEFT_MPI_ALIAS(MPI_File_set_size)
WEFT_MPI_ALIAS(MPI_File_preallocate)
WEFT_MPI_ALIAS(MPI_File_set_atomicity)
WEFT_MPI_ALIAS(MPI_File_set_info)
WEFT_MPI_ALIAS(MPI_File_sync)
WEFT_MPI_ALIAS(MPI_File_get_amode)
WEFT_MPI_ALIAS(MPI_File_get_atomicity)
WEFT_MPI_ALIAS(MPI_File_get_info)
WEFT_MPI_ALIAS(MPI_File_get_size)
WEFT_MPI_ALIAS(MPI_File_get_group)
WEFT_MPI_ALIAS(MPI_File_create_errhandler)
WEFT_MPI_ALIAS(MPI_File_set_errhandler)
WEFT_MPI_ALIAS(MPI_File_get_errhandler)
WEFT_MPI_ALIAS(MPI_File_call_errhandler)
WEFT_MPI_ALIAS(MPI_File_c2f)
WEFT_MPI_ALIAS(MPI_File_f2c)
