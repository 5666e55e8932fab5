/* For the tests of attributes, info objects, error handlers and utilities: a call that must fail
 * (under MPI_ERRORS_RETURN or a handler that returns) with a given error class, and whose error
 * string names the MPI function and a fragment of the offending argument. */
#ifndef WEFT_TESTS_EXPECT_ERROR_H
#define WEFT_TESTS_EXPECT_ERROR_H
#include "check.h"

#define EXPECT_ERROR(call, cls, function, fragment) \
  expect_error_((call), (cls), (function), (fragment), #call, __LINE__)

static inline void expect_error_(int rc, int cls, const char* function, const char* fragment,
                                 const char* call, int line) {
  char text[MPI_MAX_ERROR_STRING] = "";
  int len = 0;
  MPI_Error_string(rc, text, &len);
  int got = -1;
  MPI_Error_class(rc, &got);
  const int bad_text = strstr(text, function) == NULL || strstr(text, fragment) == NULL;
  if (rc == MPI_SUCCESS || got != cls || bad_text || (int)strlen(text) != len) {
    fprintf(
        stderr,
        "line %d: %s returned %d (class %d, expected %d): '%s' (expected to name '%s' and '%s')\n",
        line, call, rc, got, cls, text, function, fragment);
    CHECK(0);
  }
}
#endif
