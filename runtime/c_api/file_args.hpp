// What the I/O entry points share: raising an error on a file (its own error handler, or
// MPI_FILE_NULL's for errors outside an open file) and the lookup of a file handle.
#pragma once
#include "io/file.hpp"
#include "mpi.h"
#include "runtime/c_api/guard.hpp"

namespace weft::capi {

// Raises `s` from `fn` on file `fh` through its error handler (MPI_FILE_NULL's when fh is not an
// open file); returns the code.
int report_file(MPI_File fh, const char* fn, const Status& s);

}  // namespace weft::capi

// Fails the enclosing MPI function through the file's error handler.
#define WEFT_FILE_CHECK(fh, fn, expr)                                         \
  do {                                                                        \
    ::weft::Status weft_s_ = (expr);                                          \
    if (!weft_s_.ok()) return ::weft::capi::report_file((fh), (fn), weft_s_); \
  } while (0)

// The open file behind `fh` into `f` (a weft::io::File*), or the error MPI_ERR_FILE.
#define WEFT_FILE_LOOKUP(fh, fn, f) WEFT_FILE_CHECK(fh, fn, ::weft::io::lookup_file((fh), &(f)))
