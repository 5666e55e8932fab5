// One data-access call of the I/O chapter as the entry points hand it over (file_access.cpp):
// checked here, run by io::access, and completed blocking, as a request, or as the two halves
// of a split collective (a request the _end call waits for).
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
// MPI_File_iread_at, _iwrite_all ...: the access starts on a thread of io/background.hpp and
// *request completes when it is done; errors found then go to the file's error handler.
int file_nonblocking(const FileCall& c, MPI_Request* request);
// MPI_File_read_all_begin ...: starts the access as a nonblocking collective one.
int file_begin(const FileCall& c, const char* end_fn);
// MPI_File_read_all_end ...: waits for the split collective begun by `fn`'s _begin; its status.
int file_end(const char* fn, MPI_File fh, const void* buf, MPI_Status* status);

}  // namespace weft::capi
