// What the generated Fortran glue (fortran/gen/glue.py) needs beside the C API: the Fortran
// sentinels, recognised by address, and the conversions of strings, statuses and pointer handles.
// Every Fortran argument arrives by reference; strings bring a hidden length at the end.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "mpi.h"

// The sentinels are Fortran COMMON blocks (mpif.h and both modules name the same blocks), so a
// program's MPI_BOTTOM and the address compared here are one object.
extern "C" {
extern MPI_Fint weft_mpi_bottom_;
extern MPI_Fint weft_mpi_in_place_;
extern MPI_Fint weft_mpi_status_ignore_[MPI_F_STATUS_SIZE];
extern MPI_Fint weft_mpi_statuses_ignore_[MPI_F_STATUS_SIZE];
extern MPI_Fint weft_mpi_errcodes_ignore_;
extern MPI_Fint weft_mpi_unweighted_;
extern MPI_Fint weft_mpi_weights_empty_;
extern char weft_mpi_argv_null_;
extern char weft_mpi_argvs_null_;
}

namespace weft::fortran {

// A choice buffer: MPI_BOTTOM and MPI_IN_PLACE become their C values.
inline void* choice(void* p) {
  if (p == &weft_mpi_bottom_) return MPI_BOTTOM;
  if (p == &weft_mpi_in_place_) return MPI_IN_PLACE;
  return p;
}

// An INTEGER array: MPI_UNWEIGHTED, MPI_WEIGHTS_EMPTY and MPI_ERRCODES_IGNORE become C's.
inline int* int_array(MPI_Fint* p) {
  if (p == &weft_mpi_unweighted_) return MPI_UNWEIGHTED;
  if (p == &weft_mpi_weights_empty_) return MPI_WEIGHTS_EMPTY;
  if (p == &weft_mpi_errcodes_ignore_) return MPI_ERRCODES_IGNORE;
  return p;
}

// A CHARACTER input: trailing blanks are not part of the value; leading ones are kept except in
// info keys and values, which lose blanks at both ends (MPI 4.1 §10.1).
class StringIn {
 public:
  StringIn(const char* text, size_t length, bool trim_leading = false);
  const char* c_str() const { return value_.c_str(); }

 private:
  std::string value_;
};

// A CHARACTER output: C writes into a buffer as long as any MPI string, then the value is copied
// into the Fortran variable, truncated to its length and padded with blanks (a variable C did
// not write keeps its value).
class StringOut {
 public:
  StringOut(char* text, size_t length);
  ~StringOut();
  char* c_str() { return buffer_.data(); }

 private:
  char* text_;
  size_t length_;
  std::vector<char> buffer_;
};

// One status the call writes (MPI_STATUS_IGNORE passes through), copied back on return.
class StatusOut {
 public:
  explicit StatusOut(MPI_Fint* f) : f_(f == weft_mpi_status_ignore_ ? nullptr : f) {}
  ~StatusOut() {
    if (f_) PMPI_Status_c2f(&c_, f_);
  }
  MPI_Status* c() { return f_ ? &c_ : MPI_STATUS_IGNORE; }

 private:
  MPI_Fint* f_;
  MPI_Status c_{};
};

// One status the call reads.
class StatusIn {
 public:
  explicit StatusIn(const MPI_Fint* f) { PMPI_Status_f2c(f, &c_); }
  const MPI_Status* c() const { return &c_; }

 private:
  MPI_Status c_{};
};

// An array of n statuses the call writes (MPI_STATUSES_IGNORE passes through).
class StatusesOut {
 public:
  StatusesOut(MPI_Fint* f, MPI_Fint n);
  ~StatusesOut();
  MPI_Status* c() { return f_ ? c_.data() : MPI_STATUSES_IGNORE; }

 private:
  MPI_Fint* f_;
  std::vector<MPI_Status> c_;
};

// A Fortran request handle as C's: false (and MPI_REQUEST_NULL) for an integer that names no
// request Weft handed out, which C's MPI_Request_f2c would take for the null request.
inline bool request_in(MPI_Fint f, MPI_Request* c) {
  *c = PMPI_Request_f2c(f);
  return f == 0 || *c != MPI_REQUEST_NULL;
}
// Raises MPI_ERR_REQUEST for such a handle on MPI_COMM_WORLD's error handler, into *ierror.
void bad_request(MPI_Fint* ierror);

// An array of n request handles: converted in, and back out on return, so the requests that
// completed read as MPI_REQUEST_NULL. ok() is false when one names no request (then nothing is
// written back).
class RequestsInOut {
 public:
  RequestsInOut(MPI_Fint* f, MPI_Fint n);
  ~RequestsInOut();
  MPI_Request* c() { return c_.data(); }
  bool ok() const { return ok_; }

 private:
  MPI_Fint* f_;
  std::vector<MPI_Request> c_;
  bool ok_ = true;
};

// C indices (from 0) as Fortran sees them (from 1); MPI_UNDEFINED stays.
inline MPI_Fint fortran_index(int c_index) {
  return c_index == MPI_UNDEFINED ? c_index : c_index + 1;
}
void fortran_indices(MPI_Fint* indices, const MPI_Fint* count);

inline void set_ierror(MPI_Fint* ierror, int rc) {
  if (ierror) *ierror = rc;
}

}  // namespace weft::fortran

// For glue written by hand: mpi_x_ (calling MPI_X), pmpi_x_ (calling PMPI_X) and their mpi_f08
// aliases, all running body<profiling>; WEFT_C picks MPI_X or PMPI_X in such a body.
#define WEFT_F_NAMES(lower, body, params, args)                                         \
  extern "C" void mpi_##lower##_ params { body<false> args; }                           \
  extern "C" void pmpi_##lower##_ params { body<true> args; }                           \
  extern "C" void mpi_##lower##_f08_ params __attribute__((alias("mpi_" #lower "_"))); \
  extern "C" void pmpi_##lower##_f08_ params __attribute__((alias("pmpi_" #lower "_")));
#define WEFT_C(profiling, name) ((profiling) ? P##name : name)
