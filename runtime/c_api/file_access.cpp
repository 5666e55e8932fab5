// Data access (MPI 4.1 §14.4): every read and write entry point, in its int and large-count
// (_c) forms, as one line each naming its file pointer, direction and collectiveness; the work
// is file_access_call.cpp's and io/'s.
#include "mpi.h"
#include "runtime/c_api/file_access_call.hpp"
#include "runtime/c_api/guard.hpp"

using weft::capi::FileCall;
using weft::io::Pointer;

// Explicit-offset calls: (fh, offset, buf, count, datatype, status or request).
#define WEFT_FILE_AT(name, CV, CNT, LAST, call, write, coll)                                       \
  extern "C" int P##name(MPI_File fh, MPI_Offset offset, CV void* buf, CNT count,                  \
                         MPI_Datatype datatype, LAST last) {                                       \
    return weft::capi::call(                                                                       \
        FileCall{#name, fh, Pointer::kExplicit, write, coll, offset, buf, count, datatype}, last); \
  }                                                                                                \
  WEFT_MPI_ALIAS(name)
// File-pointer calls: (fh, buf, count, datatype, status or request).
#define WEFT_FILE_PTR(name, CV, CNT, LAST, call, where, write, coll)                               \
  extern "C" int P##name(MPI_File fh, CV void* buf, CNT count, MPI_Datatype datatype, LAST last) { \
    return weft::capi::call(                                                                       \
        FileCall{#name, fh, Pointer::where, write, coll, 0, buf, count, datatype}, last);          \
  }                                                                                                \
  WEFT_MPI_ALIAS(name)
// Both forms of each.
#define WEFT_FILE_AT2(name, CV, LAST, call, write, coll) \
  WEFT_FILE_AT(name, CV, int, LAST, call, write, coll)   \
  WEFT_FILE_AT(name##_c, CV, MPI_Count, LAST, call, write, coll)
#define WEFT_FILE_PTR2(name, CV, LAST, call, where, write, coll) \
  WEFT_FILE_PTR(name, CV, int, LAST, call, where, write, coll)   \
  WEFT_FILE_PTR(name##_c, CV, MPI_Count, LAST, call, where, write, coll)

WEFT_FILE_AT2(MPI_File_read_at, , MPI_Status*, file_blocking, false, false)
WEFT_FILE_AT2(MPI_File_read_at_all, , MPI_Status*, file_blocking, false, true)
WEFT_FILE_AT2(MPI_File_write_at, const, MPI_Status*, file_blocking, true, false)
WEFT_FILE_AT2(MPI_File_write_at_all, const, MPI_Status*, file_blocking, true, true)
WEFT_FILE_AT2(MPI_File_iread_at, , MPI_Request*, file_nonblocking, false, false)
WEFT_FILE_AT2(MPI_File_iread_at_all, , MPI_Request*, file_nonblocking, false, true)
WEFT_FILE_AT2(MPI_File_iwrite_at, const, MPI_Request*, file_nonblocking, true, false)
WEFT_FILE_AT2(MPI_File_iwrite_at_all, const, MPI_Request*, file_nonblocking, true, true)

WEFT_FILE_PTR2(MPI_File_read, , MPI_Status*, file_blocking, kIndividual, false, false)
WEFT_FILE_PTR2(MPI_File_read_all, , MPI_Status*, file_blocking, kIndividual, false, true)
WEFT_FILE_PTR2(MPI_File_write, const, MPI_Status*, file_blocking, kIndividual, true, false)
WEFT_FILE_PTR2(MPI_File_write_all, const, MPI_Status*, file_blocking, kIndividual, true, true)
WEFT_FILE_PTR2(MPI_File_iread, , MPI_Request*, file_nonblocking, kIndividual, false, false)
WEFT_FILE_PTR2(MPI_File_iread_all, , MPI_Request*, file_nonblocking, kIndividual, false, true)
WEFT_FILE_PTR2(MPI_File_iwrite, const, MPI_Request*, file_nonblocking, kIndividual, true, false)
WEFT_FILE_PTR2(MPI_File_iwrite_all, const, MPI_Request*, file_nonblocking, kIndividual, true, true)

WEFT_FILE_PTR2(MPI_File_read_shared, , MPI_Status*, file_blocking, kShared, false, false)
WEFT_FILE_PTR2(MPI_File_write_shared, const, MPI_Status*, file_blocking, kShared, true, false)
WEFT_FILE_PTR2(MPI_File_iread_shared, , MPI_Request*, file_nonblocking, kShared, false, false)
WEFT_FILE_PTR2(MPI_File_iwrite_shared, const, MPI_Request*, file_nonblocking, kShared, true, false)
WEFT_FILE_PTR2(MPI_File_read_ordered, , MPI_Status*, file_blocking, kOrdered, false, true)
WEFT_FILE_PTR2(MPI_File_write_ordered, const, MPI_Status*, file_blocking, kOrdered, true, true)

// Split collectives: NAME_begin (the call's arguments, no status), in both forms, and NAME_end
// (fh, buf, status).
#define WEFT_FILE_BEGIN_AT(name, CV, CNT, write, base)                                      \
  extern "C" int P##name(MPI_File fh, MPI_Offset offset, CV void* buf, CNT count,           \
                         MPI_Datatype datatype) {                                           \
    return weft::capi::file_begin(                                                          \
        FileCall{#name, fh, Pointer::kExplicit, write, true, offset, buf, count, datatype}, \
        #base "_end");                                                                      \
  }                                                                                         \
  WEFT_MPI_ALIAS(name)
#define WEFT_FILE_BEGIN_PTR(name, CV, CNT, where, write, base)                                    \
  extern "C" int P##name(MPI_File fh, CV void* buf, CNT count, MPI_Datatype datatype) {           \
    return weft::capi::file_begin(                                                                \
        FileCall{#name, fh, Pointer::where, write, true, 0, buf, count, datatype}, #base "_end"); \
  }                                                                                               \
  WEFT_MPI_ALIAS(name)
#define WEFT_FILE_END(base, CV)                                                 \
  extern "C" int P##base##_end(MPI_File fh, CV void* buf, MPI_Status* status) { \
    return weft::capi::file_end(#base "_end", fh, buf, status);                 \
  }                                                                             \
  WEFT_MPI_ALIAS(base##_end)
#define WEFT_FILE_SPLIT_AT(base, CV, write)                      \
  WEFT_FILE_BEGIN_AT(base##_begin, CV, int, write, base)         \
  WEFT_FILE_BEGIN_AT(base##_begin_c, CV, MPI_Count, write, base) \
  WEFT_FILE_END(base, CV)
#define WEFT_FILE_SPLIT_PTR(base, CV, where, write)                      \
  WEFT_FILE_BEGIN_PTR(base##_begin, CV, int, where, write, base)         \
  WEFT_FILE_BEGIN_PTR(base##_begin_c, CV, MPI_Count, where, write, base) \
  WEFT_FILE_END(base, CV)

WEFT_FILE_SPLIT_AT(MPI_File_read_at_all, , false)
WEFT_FILE_SPLIT_AT(MPI_File_write_at_all, const, true)
WEFT_FILE_SPLIT_PTR(MPI_File_read_all, , kIndividual, false)
WEFT_FILE_SPLIT_PTR(MPI_File_write_all, const, kIndividual, true)
WEFT_FILE_SPLIT_PTR(MPI_File_read_ordered, , kOrdered, false)
WEFT_FILE_SPLIT_PTR(MPI_File_write_ordered, const, kOrdered, true)
