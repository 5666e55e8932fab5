/* Shared by the tests/mpi programs: CHECK stops the whole job with a message naming the failed
 * condition, the rank, file and line, and what the program was checking (check_context). */
#ifndef WEFT_TESTS_CHECK_H
#define WEFT_TESTS_CHECK_H
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

/* What the program is checking right now, printed with every failure; set with check_context. */
static char check_context_[400] __attribute__((unused));

#define CHECK(cond)                                                                             \
  do {                                                                                          \
    if (!(cond)) {                                                                              \
      int check_rank_ = -1;                                                                     \
      MPI_Comm_rank(MPI_COMM_WORLD, &check_rank_);                                              \
      fprintf(stderr, "CHECK failed on rank %d at %s:%d: %s%s%s\n", check_rank_, __FILE__,      \
              __LINE__, #cond, check_context_[0] ? " | while checking: " : "", check_context_); \
      MPI_Abort(MPI_COMM_WORLD, 1);                                                             \
    }                                                                                           \
  } while (0)

/* Stops the job unless an MPI call returned MPI_SUCCESS, printing the call's error string. The
 * collective tests set MPI_ERRORS_RETURN (errors_return) so that a failing call is reported
 * together with what was being checked, instead of ending the job inside the library. */
#define CHECK_MPI(call)                     \
  do {                                      \
    const int check_rc_ = (call);           \
    if (check_rc_ != MPI_SUCCESS) {         \
      check_failed_call_(check_rc_, #call); \
      CHECK(check_rc_ == MPI_SUCCESS);      \
    }                                       \
  } while (0)
static inline void check_failed_call_(int rc, const char* call) {
  char text[MPI_MAX_ERROR_STRING] = "";
  int len = 0, rank = -1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Error_string(rc, text, &len);
  fprintf(stderr, "rank %d: %.*s returned error %d: %s\n", rank, (int)strcspn(call, "("), call, rc,
          text);
}
static inline void errors_return(void) {
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
}

static inline __attribute__((format(printf, 1, 2))) void check_context(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(check_context_, sizeof check_context_, fmt, ap);
  va_end(ap);
}

/* MPI_Error_class of a return code. */
static inline int error_class(int code) {
  int cls = -1;
  MPI_Error_class(code, &cls);
  return cls;
}
/* This rank, the world's size and the ring neighbours (left/right may be NULL). */
static inline void world_ring(int* rank, int* size, int* left, int* right) {
  MPI_Comm_rank(MPI_COMM_WORLD, rank);
  MPI_Comm_size(MPI_COMM_WORLD, size);
  if (left != NULL) *left = (*rank - 1 + *size) % *size;
  if (right != NULL) *right = (*rank + 1) % *size;
}

/* Stops the job unless got[0..n) equals want[0..n), naming the first differing element. */
static inline void check_ints(const int* got, const int* want, long n, const char* what) {
  for (long i = 0; i < n; ++i) {
    if (got[i] != want[i]) {
      int rank = -1;
      MPI_Comm_rank(MPI_COMM_WORLD, &rank);
      fprintf(stderr, "rank %d: %s[%ld] is %d, expected %d (%s)\n", rank, what, i, got[i], want[i],
              check_context_);
      CHECK(got[i] == want[i]);
    }
  }
}

/* A reproducible pseudo-random 31-bit value of (a, b, c), so that every rank can compute what
 * every other rank sends. */
static inline int mix3(int a, int b, int c) {
  unsigned x = (unsigned)a * 0x9E3779B1u ^ (unsigned)b * 0x85EBCA77u ^ (unsigned)c * 0xC2B2AE3Du;
  x ^= x >> 15;
  x *= 0x2C1B3C6Du;
  x ^= x >> 12;
  x *= 0x297A2D39u;
  x ^= x >> 15;
  return (int)(x & 0x7fffffff);
}

#endif
