// One data-access call of the I/O chapter as the entry points hand it over (file_access.cpp):
// checked here, run by io::access, and completed blocking, as a request, or as the two halves
// of a split collective.
#pragma once
#include "io/access.hpp"
#include "mpi.h"

namespace weft::capi {

struct FileCall {
  const char* fn;
  MPI_File fh;
  io::Pointer where;
  bool write;
  bool collective;
  MPI_Offset offset;  // explicit-offset calls only
  const void* buf;
  MPI_Count count;
  MPI_Datatype datatype;
};

// MPI_File_read_at, _write_all, _read_shared, _write_ordered ...: fills *status.
int file_blocking(const FileCall& c, MPI_Status* status);
// MPI_File_iread_at ...: an independent access starts on the I/O thread (io/background.hpp);
// a collective one runs now and *request comes back complete, carrying its status.
int file_nonblocking(const FileCall& c, MPI_Request* request);
// MPI_File_read_all_begin ...: runs the access and keeps its status for the _end call.
int file_begin(const FileCall& c, const char* end_fn);
// MPI_File_read_all_end ...: the status of the split collective begun by `end_fn`'s _begin.
int file_end(const char* fn, MPI_File fh, const void* buf, MPI_Status* status);

}  // namespace weft::capi
