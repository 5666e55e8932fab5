/* User-defined error classes, codes and strings: MPI_Add_error_class/_code/_string round trips
 * through MPI_Error_class and MPI_Error_string, MPI_LASTUSEDCODE following them, the same values
 * on every rank, a user code raised through MPI_Comm_call_errhandler, and the error paths. Then
 * MPI 4.1's MPI_Remove_error_class/_code/_string (§9.5): a class goes only once its codes are
 * gone, a code only once its string is gone, a string only where one was set; removed values are
 * no longer error codes, and MPI_LASTUSEDCODE falls back when the largest ones go. */
#include "expect_error.h"

static int handled_code = MPI_SUCCESS;

static void record(MPI_Comm* comm, int* code, ...) {
  (void)comm;
  handled_code = *code;
}

static int last_used_code(void) {
  int* value = NULL;
  int flag = 0;
  CHECK_MPI(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_LASTUSEDCODE, &value, &flag));
  CHECK(flag);
  return *value;
}

static void check_string(int code, const char* want) {
  char text[MPI_MAX_ERROR_STRING];
  int len = -1;
  CHECK_MPI(MPI_Error_string(code, text, &len));
  if (strcmp(text, want) != 0 || len != (int)strlen(want)) {
    fprintf(stderr, "MPI_Error_string(%d) is '%s' (%d), expected '%s'\n", code, text, len, want);
    CHECK(0);
  }
}

static int class_of(int code) {
  int cls = -1;
  CHECK_MPI(MPI_Error_class(code, &cls));
  return cls;
}

static int is_error_code(int code) {
  int cls = -1;
  return MPI_Error_class(code, &cls) == MPI_SUCCESS;
}

/* Removes the string, the codes and the class made above, in the order the standard asks. */
static void removal_order(int cls, int code, int arg_code) {
  check_context("removal: a class with codes and strings, what must go first");
  int second = -1;
  CHECK_MPI(MPI_Add_error_code(cls, &second));
  EXPECT_ERROR(MPI_Remove_error_class(cls), MPI_ERR_ARG, "MPI_Remove_error_class",
               "still has 2 error codes");
  EXPECT_ERROR(MPI_Remove_error_code(code), MPI_ERR_ARG, "MPI_Remove_error_code",
               "still has its string");
  EXPECT_ERROR(MPI_Remove_error_code(cls), MPI_ERR_ARG, "MPI_Remove_error_code",
               "a user-defined error class, not a code");
  EXPECT_ERROR(MPI_Remove_error_class(code), MPI_ERR_ARG, "MPI_Remove_error_class",
               "a user-defined error code, not a class");
  EXPECT_ERROR(MPI_Remove_error_string(second), MPI_ERR_ARG, "MPI_Remove_error_string",
               "it has no string");
  CHECK(is_error_code(code) && is_error_code(second) && is_error_code(cls));

  check_context("removal: the string, then the codes, then the class");
  CHECK_MPI(MPI_Remove_error_string(code));
  check_string(code, "");
  EXPECT_ERROR(MPI_Remove_error_string(code), MPI_ERR_ARG, "MPI_Remove_error_string",
               "it has no string");
  CHECK_MPI(MPI_Remove_error_code(code));
  CHECK(!is_error_code(code) && is_error_code(second));
  EXPECT_ERROR(MPI_Remove_error_code(code), MPI_ERR_ARG, "MPI_Remove_error_code",
               "removed already");
  EXPECT_ERROR(MPI_Remove_error_class(cls), MPI_ERR_ARG, "MPI_Remove_error_class",
               "still has 1 error code");
  CHECK(last_used_code() == second);
  CHECK_MPI(MPI_Remove_error_code(second));
  check_string(cls, "storage trouble");
  CHECK_MPI(MPI_Remove_error_class(cls)); /* its string goes with it */
  CHECK(!is_error_code(cls) && is_error_code(arg_code));
  CHECK(last_used_code() == arg_code); /* the removed values lie below one still in use */
  int unused = 0;
  EXPECT_ERROR(MPI_Add_error_code(cls, &unused), MPI_ERR_ARG, "MPI_Add_error_code", "errorclass=");
  CHECK_MPI(MPI_Remove_error_string(arg_code));
  CHECK_MPI(MPI_Remove_error_code(arg_code));
  CHECK(!is_error_code(arg_code));
}

/* A gap below a value in use stays; a new class takes a value above; once the top values go,
 * the gap goes with them. */
static void removal_gaps(int base) {
  check_context("removal: values below others still in use");
  int first, second, third;
  CHECK_MPI(MPI_Add_error_class(&first));
  CHECK_MPI(MPI_Add_error_class(&second));
  CHECK_MPI(MPI_Remove_error_class(first));
  CHECK(last_used_code() == second && !is_error_code(first) && is_error_code(second));
  CHECK_MPI(MPI_Add_error_class(&third));
  CHECK(third > second && last_used_code() == third);
  CHECK_MPI(MPI_Remove_error_class(third));
  CHECK_MPI(MPI_Remove_error_class(second));
  CHECK(last_used_code() == base);

  check_context("removal: predefined classes and codes stay");
  EXPECT_ERROR(MPI_Remove_error_class(MPI_ERR_ARG), MPI_ERR_ARG, "MPI_Remove_error_class",
               "errorclass=13 (a predefined value");
  EXPECT_ERROR(MPI_Remove_error_code(MPI_ERR_TRUNCATE), MPI_ERR_ARG, "MPI_Remove_error_code",
               "predefined value");
  EXPECT_ERROR(MPI_Remove_error_string(MPI_ERR_OTHER), MPI_ERR_ARG, "MPI_Remove_error_string",
               "errorcode=16");
  EXPECT_ERROR(MPI_Remove_error_class(base + 1000), MPI_ERR_ARG, "MPI_Remove_error_class",
               "not a user-defined error class or code");
  CHECK(class_of(MPI_ERR_ARG) == MPI_ERR_ARG);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  world_ring(&rank, &size, NULL, NULL);
  errors_return();

  check_context("classes and codes round trip");
  CHECK(last_used_code() >= MPI_ERR_LASTCODE);
  int cls = -1, code = -1, arg_code = -1;
  CHECK_MPI(MPI_Add_error_class(&cls));
  CHECK(cls > MPI_ERR_LASTCODE);
  CHECK(last_used_code() == cls);
  CHECK_MPI(MPI_Add_error_code(cls, &code));
  CHECK(code != cls && last_used_code() == code);
  CHECK_MPI(MPI_Add_error_code(MPI_ERR_ARG, &arg_code));
  CHECK(class_of(cls) == cls);
  CHECK(class_of(code) == cls);
  CHECK(class_of(arg_code) == MPI_ERR_ARG);
  check_string(code, ""); /* empty until a string is added */
  CHECK_MPI(MPI_Add_error_string(cls, "storage trouble"));
  CHECK_MPI(MPI_Add_error_string(code, "the disk is full"));
  CHECK_MPI(MPI_Add_error_string(arg_code, "a bad argument of the application's"));
  check_string(cls, "storage trouble");
  check_string(code, "the disk is full");
  check_string(arg_code, "a bad argument of the application's");
  CHECK_MPI(MPI_Add_error_string(code, "the disk is really full")); /* replaces */
  check_string(code, "the disk is really full");

  check_context("every rank gets the same values");
  int values[3] = {cls, code, arg_code}, lowest[3], highest[3];
  CHECK_MPI(MPI_Allreduce(values, lowest, 3, MPI_INT, MPI_MIN, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Allreduce(values, highest, 3, MPI_INT, MPI_MAX, MPI_COMM_WORLD));
  check_ints(lowest, highest, 3, "user error values across ranks");

  check_context("a user code raised through MPI_Comm_call_errhandler");
  MPI_Errhandler handler;
  CHECK_MPI(MPI_Comm_create_errhandler(record, &handler));
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, handler));
  CHECK_MPI(MPI_Errhandler_free(&handler));
  CHECK_MPI(MPI_Comm_call_errhandler(MPI_COMM_WORLD, code));
  CHECK(handled_code == code && class_of(handled_code) == cls);
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));

  check_context("error paths");
  int unused = 0;
  EXPECT_ERROR(MPI_Add_error_code(12345678, &unused), MPI_ERR_ARG, "MPI_Add_error_code",
               "errorclass=12345678");
  EXPECT_ERROR(MPI_Add_error_code(code, &unused), MPI_ERR_ARG, "MPI_Add_error_code", "not a class");
  EXPECT_ERROR(MPI_Add_error_code(MPI_SUCCESS, &unused), MPI_ERR_ARG, "MPI_Add_error_code",
               "errorclass=0");
  EXPECT_ERROR(MPI_Add_error_code(cls, NULL), MPI_ERR_ARG, "MPI_Add_error_code", "errorcode=NULL");
  EXPECT_ERROR(MPI_Add_error_class(NULL), MPI_ERR_ARG, "MPI_Add_error_class", "errorclass=NULL");
  EXPECT_ERROR(MPI_Add_error_string(MPI_ERR_ARG, "mine now"), MPI_ERR_ARG, "MPI_Add_error_string",
               "errorcode=13");
  EXPECT_ERROR(MPI_Add_error_string(code, NULL), MPI_ERR_ARG, "MPI_Add_error_string",
               "string=NULL");
  char too_long[MPI_MAX_ERROR_STRING + 1];
  memset(too_long, 'x', MPI_MAX_ERROR_STRING);
  too_long[MPI_MAX_ERROR_STRING] = '\0';
  EXPECT_ERROR(MPI_Add_error_string(code, too_long), MPI_ERR_ARG, "MPI_Add_error_string",
               "MPI_MAX_ERROR_STRING");
  EXPECT_ERROR(MPI_Error_class(-3, &unused), MPI_ERR_ARG, "MPI_Error_class", "errorcode=-3");
  EXPECT_ERROR(MPI_Error_class(last_used_code() + 1, &unused), MPI_ERR_ARG, "MPI_Error_class",
               "not an error code");
  EXPECT_ERROR(MPI_Error_class(MPI_ERR_ARG, NULL), MPI_ERR_ARG, "MPI_Error_class",
               "errorclass=NULL");
  check_string(code, "the disk is really full"); /* failures changed nothing */
  CHECK(last_used_code() == arg_code);

  const int base = last_used_code() - 3; /* before the class and its two codes */
  removal_order(cls, code, arg_code);
  CHECK(last_used_code() == base);
  removal_gaps(base);
  MPI_Finalize();
  return 0;
}
