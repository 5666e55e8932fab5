/* What communicators created from others inherit, and what freeing them runs: at MPI_Comm_dup,
 * the copy callbacks in keyval creation order (MPI_COMM_DUP_FN copies the value,
 * MPI_COMM_NULL_COPY_FN nothing, a callback may change it), the parent's error handler and info
 * hints; a failing copy callback failing the dup; at MPI_Comm_free, the delete callbacks, last
 * set first, even of a keyval freed by the program meanwhile. */
#include <stdint.h>

#include "expect_error.h"

static char log_text[64]; /* one letter per callback: lower case copy, upper case delete */

static void note(char c) {
  const size_t n = strlen(log_text);
  if (n + 1 < sizeof log_text) log_text[n] = c;
}

/* extra_state holds the keyval's letter; the value is copied plus 100 when the letter is 'c'. */
static int noting_copy(MPI_Comm comm, int keyval, void* extra, void* in, void* out, int* flag) {
  (void)comm, (void)keyval;
  const char letter = (char)(intptr_t)extra;
  note(letter);
  *(void**)out = letter == 'c' ? (void*)((intptr_t)in + 100) : in;
  *flag = letter != 'b';
  return MPI_SUCCESS;
}

static int noting_delete(MPI_Comm comm, int keyval, void* value, void* extra) {
  (void)comm, (void)keyval, (void)value;
  note((char)((intptr_t)extra - 'a' + 'A'));
  return MPI_SUCCESS;
}

static int failing_copy(MPI_Comm comm, int keyval, void* extra, void* in, void* out, int* flag) {
  (void)comm, (void)keyval, (void)extra, (void)in, (void)out, (void)flag;
  return MPI_ERR_OTHER;
}

static int handler_calls;
static void count_handler(MPI_Comm* comm, int* code, ...) {
  (void)comm, (void)code;
  ++handler_calls;
}

static void* attr(MPI_Comm comm, int keyval) {
  void* value = NULL;
  int flag = 0;
  CHECK_MPI(MPI_Comm_get_attr(comm, keyval, &value, &flag));
  return flag ? value : NULL;
}

static void check_log(const char* want) {
  if (strcmp(log_text, want) != 0) {
    fprintf(stderr, "callbacks ran as '%s', expected '%s'\n", log_text, want);
    CHECK(0);
  }
  memset(log_text, 0, sizeof log_text);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();

  check_context("copy callbacks at MPI_Comm_dup, delete callbacks at MPI_Comm_free");
  int a, b, c;
  CHECK_MPI(MPI_Comm_create_keyval(noting_copy, noting_delete, &a, (void*)(intptr_t)'a'));
  CHECK_MPI(MPI_Comm_create_keyval(noting_copy, noting_delete, &b, (void*)(intptr_t)'b'));
  CHECK_MPI(MPI_Comm_create_keyval(noting_copy, noting_delete, &c, (void*)(intptr_t)'c'));
  CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, c, (void*)(intptr_t)3));
  CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, a, (void*)(intptr_t)1));
  CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, b, (void*)(intptr_t)2));
  MPI_Comm dup = MPI_COMM_NULL;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
  check_log("abc"); /* keyval creation order, not the order the values were set in */
  CHECK(attr(dup, a) == (void*)(intptr_t)1);
  CHECK(attr(dup, b) == NULL); /* its copy callback declined */
  CHECK(attr(dup, c) == (void*)(intptr_t)103);
  CHECK_MPI(MPI_Comm_set_attr(dup, b, (void*)(intptr_t)20));
  CHECK_MPI(MPI_Comm_free_keyval(&a)); /* the attributes keep it alive */
  CHECK_MPI(MPI_Comm_free(&dup));
  check_log("BCA"); /* last set first: a and c were copied in that order, then b set */
  CHECK(attr(MPI_COMM_WORLD, c) == (void*)(intptr_t)3);

  check_context("the predefined copy callbacks");
  int copied, not_copied;
  CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, &copied, NULL));
  CHECK_MPI(
      MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &not_copied, NULL));
  CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, copied, &copied));
  CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, not_copied, &not_copied));
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_SELF, &dup));
  CHECK(attr(dup, copied) == &copied && attr(dup, not_copied) == NULL);
  MPI_Comm dup_of_dup = MPI_COMM_NULL;
  CHECK_MPI(MPI_Comm_dup(dup, &dup_of_dup));
  CHECK(attr(dup_of_dup, copied) == &copied);
  CHECK_MPI(MPI_Comm_free(&dup_of_dup));
  CHECK_MPI(MPI_Comm_free(&dup));

  check_context("a failing copy callback fails MPI_Comm_dup");
  int refuses;
  CHECK_MPI(MPI_Comm_create_keyval(failing_copy, MPI_COMM_NULL_DELETE_FN, &refuses, NULL));
  CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, refuses, &refuses));
  EXPECT_ERROR(MPI_Comm_dup(MPI_COMM_WORLD, &dup), MPI_ERR_OTHER, "MPI_Comm_dup",
               "copy callback of comm_keyval=");
  CHECK(dup == MPI_COMM_NULL || dup == MPI_COMM_WORLD /* untouched */);
  memset(log_text, 0, sizeof log_text);
  CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_WORLD, refuses));
  CHECK_MPI(MPI_Comm_free_keyval(&refuses));

  check_context("the error handler and the info hints are inherited");
  MPI_Errhandler handler;
  CHECK_MPI(MPI_Comm_create_errhandler(count_handler, &handler));
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, handler));
  MPI_Info hints, used;
  CHECK_MPI(MPI_Info_create(&hints));
  CHECK_MPI(MPI_Info_set(hints, "mpi_assert_no_any_source", "true"));
  CHECK_MPI(MPI_Comm_set_info(MPI_COMM_WORLD, hints));
  CHECK_MPI(MPI_Info_free(&hints));
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
  check_log("abc"); /* a, though freed, still has its value on MPI_COMM_WORLD */
  CHECK_MPI(MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN));
  CHECK_MPI(MPI_Errhandler_free(&handler)); /* the dup still holds it */
  MPI_Errhandler inherited;
  CHECK_MPI(MPI_Comm_get_errhandler(dup, &inherited));
  CHECK(inherited != MPI_ERRORS_RETURN && inherited != MPI_ERRORS_ARE_FATAL);
  CHECK_MPI(MPI_Errhandler_free(&inherited));
  int buf = 0;
  CHECK(MPI_Send(&buf, 1, MPI_INT, 0, -3, dup) != MPI_SUCCESS && handler_calls == 1);
  CHECK_MPI(MPI_Comm_get_info(dup, &used));
  char value[8];
  int flag = 0;
  CHECK_MPI(MPI_Info_get(used, "mpi_assert_no_any_source", 7, value, &flag));
  CHECK(flag && strcmp(value, "true") == 0);
  CHECK_MPI(MPI_Info_free(&used));
  CHECK_MPI(MPI_Comm_free(&dup));
  check_log("CA");

  CHECK_MPI(MPI_Comm_free_keyval(&b));
  CHECK_MPI(MPI_Comm_free_keyval(&c));
  CHECK_MPI(MPI_Comm_free_keyval(&copied));
  CHECK_MPI(MPI_Comm_free_keyval(&not_copied));
  MPI_Finalize();
  return 0;
}
