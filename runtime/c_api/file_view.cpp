// File views and positions (MPI 4.1 §14.3, §14.4.3-4.4, §14.5.3): set/get view, type extents in
// the file, seeks and positions of both file pointers, and MPI_Register_datarep.
#include <cstring>

#include "io/datarep.hpp"
#include "io/manage.hpp"
#include "mpi.h"
#include "runtime/c_api/file_args.hpp"

using weft::Status;
namespace capi = weft::capi;
namespace io = weft::io;

namespace {

int register_datarep(const char* fn, const char* datarep, io::UserDatarep& rep) {
  WEFT_REQUIRE_RUNNING(fn);
  WEFT_FILE_CHECK(MPI_FILE_NULL, fn, capi::check_not_null(datarep, "datarep"));
  WEFT_FILE_CHECK(
      MPI_FILE_NULL, fn,
      capi::check_not_null(reinterpret_cast<const void*>(rep.extent), "dtype_file_extent_fn"));
  rep.name = datarep;
  WEFT_FILE_CHECK(MPI_FILE_NULL, fn, io::register_datarep(rep));
  return MPI_SUCCESS;
}

int type_extent(const char* fn, MPI_File fh, MPI_Datatype datatype, MPI_Count* extent) {
  WEFT_REQUIRE_RUNNING(fn);
  io::File* f = nullptr;
  WEFT_FILE_LOOKUP(fh, fn, f);
  const weft::Datatype* t = nullptr;
  WEFT_FILE_CHECK(fh, fn, weft::find_datatype(datatype, "datatype", &t));
  WEFT_FILE_CHECK(fh, fn, capi::check_not_null(extent, "extent"));
  WEFT_FILE_CHECK(fh, fn, f->view.file_extent(*t, extent));
  return MPI_SUCCESS;
}

// The current position of the individual (shared = false) or shared file pointer.
int position(const char* fn, MPI_File fh, MPI_Offset* offset, bool shared) {
  WEFT_REQUIRE_RUNNING(fn);
  io::File* f = nullptr;
  WEFT_FILE_LOOKUP(fh, fn, f);
  WEFT_FILE_CHECK(fh, fn, capi::check_not_null(offset, "offset"));
  if (shared) WEFT_FILE_CHECK(fh, fn, f->shared.fetch_add(0, offset));
  if (!shared) *offset = f->pointer;
  return MPI_SUCCESS;
}

int seek(const char* fn, MPI_File fh, MPI_Offset offset, int whence, bool shared) {
  WEFT_REQUIRE_RUNNING(fn);
  io::File* f = nullptr;
  WEFT_FILE_LOOKUP(fh, fn, f);
  WEFT_FILE_CHECK(fh, fn, io::seek(*f, offset, whence, shared));
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int PMPI_File_set_view(MPI_File fh, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
                       const char* datarep, MPI_Info info) {
  constexpr const char* fn = "MPI_File_set_view";
  WEFT_REQUIRE_RUNNING(fn);
  io::File* f = nullptr;
  WEFT_FILE_LOOKUP(fh, fn, f);
  WEFT_FILE_CHECK(fh, fn, capi::check_not_null(datarep, "datarep"));
  WEFT_FILE_CHECK(fh, fn, io::set_view(*f, disp, etype, filetype, datarep, info));
  return MPI_SUCCESS;
}

int PMPI_File_get_view(MPI_File fh, MPI_Offset* disp, MPI_Datatype* etype, MPI_Datatype* filetype,
                       char* datarep) {
  constexpr const char* fn = "MPI_File_get_view";
  WEFT_REQUIRE_RUNNING(fn);
  io::File* f = nullptr;
  WEFT_FILE_LOOKUP(fh, fn, f);
  WEFT_FILE_CHECK(fh, fn, capi::check_not_null(disp, "disp"));
  WEFT_FILE_CHECK(fh, fn, capi::check_not_null(etype, "etype"));
  WEFT_FILE_CHECK(fh, fn, capi::check_not_null(filetype, "filetype"));
  WEFT_FILE_CHECK(fh, fn, capi::check_not_null(datarep, "datarep"));
  *disp = f->view.disp();
  // Derived types come back as new handles, which the application frees.
  *etype = f->view_etype;
  *filetype = f->view_filetype;
  if (!f->view.etype().is_predefined()) PMPI_Type_dup(f->view_etype, etype);
  if (!f->view.filetype().is_predefined()) PMPI_Type_dup(f->view_filetype, filetype);
  std::strncpy(datarep, f->view.datarep().c_str(), MPI_MAX_DATAREP_STRING - 1);
  datarep[MPI_MAX_DATAREP_STRING - 1] = '\0';
  return MPI_SUCCESS;
}

int PMPI_File_get_type_extent(MPI_File fh, MPI_Datatype datatype, MPI_Aint* extent) {
  MPI_Count e = 0;
  const int rc = type_extent("MPI_File_get_type_extent", fh, datatype, extent ? &e : nullptr);
  if (rc == MPI_SUCCESS) *extent = MPI_Aint(e);
  return rc;
}

int PMPI_File_get_type_extent_c(MPI_File fh, MPI_Datatype datatype, MPI_Count* extent) {
  return type_extent("MPI_File_get_type_extent_c", fh, datatype, extent);
}

int PMPI_File_seek(MPI_File fh, MPI_Offset offset, int whence) {
  return seek("MPI_File_seek", fh, offset, whence, false);
}

int PMPI_File_seek_shared(MPI_File fh, MPI_Offset offset, int whence) {
  return seek("MPI_File_seek_shared", fh, offset, whence, true);
}

int PMPI_File_get_position(MPI_File fh, MPI_Offset* offset) {
  return position("MPI_File_get_position", fh, offset, false);
}

int PMPI_File_get_position_shared(MPI_File fh, MPI_Offset* offset) {
  return position("MPI_File_get_position_shared", fh, offset, true);
}

int PMPI_File_get_byte_offset(MPI_File fh, MPI_Offset offset, MPI_Offset* disp) {
  constexpr const char* fn = "MPI_File_get_byte_offset";
  WEFT_REQUIRE_RUNNING(fn);
  io::File* f = nullptr;
  WEFT_FILE_LOOKUP(fh, fn, f);
  WEFT_FILE_CHECK(fh, fn, capi::check_not_null(disp, "disp"));
  if (offset < 0)
    WEFT_FILE_CHECK(
        fh, fn,
        Status::error(MPI_ERR_ARG, "invalid offset=" + std::to_string(offset) + " (must be >= 0)"));
  *disp = f->view.byte_offset(offset * MPI_Offset(f->view.etype_bytes()));
  return MPI_SUCCESS;
}

int PMPI_Register_datarep(const char* datarep, MPI_Datarep_conversion_function* read_conversion_fn,
                          MPI_Datarep_conversion_function* write_conversion_fn,
                          MPI_Datarep_extent_function* dtype_file_extent_fn, void* extra_state) {
  io::UserDatarep rep;
  rep.read = read_conversion_fn;
  rep.write = write_conversion_fn;
  rep.extent = dtype_file_extent_fn;
  rep.extra_state = extra_state;
  return register_datarep("MPI_Register_datarep", datarep, rep);
}

int PMPI_Register_datarep_c(const char* datarep,
                            MPI_Datarep_conversion_function_c* read_conversion_fn,
                            MPI_Datarep_conversion_function_c* write_conversion_fn,
                            MPI_Datarep_extent_function* dtype_file_extent_fn, void* extra_state) {
  io::UserDatarep rep;
  rep.read_c = read_conversion_fn;
  rep.write_c = write_conversion_fn;
  rep.extent = dtype_file_extent_fn;
  rep.extra_state = extra_state;
  return register_datarep("MPI_Register_datarep_c", datarep, rep);
}

}  // extern "C"

WEFT_MPI_ALIAS(MPI_File_set_view)
WEFT_MPI_ALIAS(MPI_File_get_view)
WEFT_MPI_ALIAS(MPI_File_get_type_extent)
WEFT_MPI_ALIAS(MPI_File_get_type_extent_c)
WEFT_MPI_ALIAS(MPI_File_seek)
WEFT_MPI_ALIAS(MPI_File_seek_shared)
WEFT_MPI_ALIAS(MPI_File_get_position)
WEFT_MPI_ALIAS(MPI_File_get_position_shared)
WEFT_MPI_ALIAS(MPI_File_get_byte_offset)
WEFT_MPI_ALIAS(MPI_Register_datarep)
WEFT_MPI_ALIAS(MPI_Register_datarep_c)
