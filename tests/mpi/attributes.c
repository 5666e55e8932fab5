/* Attributes on MPI_COMM_WORLD, MPI_COMM_SELF and datatypes: the predefined attributes, user
 * keyvals with copy and delete callbacks, replacing and deleting values, MPI_Type_dup copying
 * and MPI_Type_free deleting, a failing copy callback failing MPI_Type_dup, error classes and
 * messages, and MPI_Finalize running MPI_COMM_SELF's delete callbacks, last set first, even for
 * a keyval the program had freed. */
#include <stdint.h>
#include <stdlib.h>

#include "expect_error.h"

static int deletes; /* calls of count_delete */
static char finalize_order[8];

static int count_delete(MPI_Comm comm, int keyval, void* value, void* extra) {
  (void)comm, (void)keyval, (void)value, (void)extra;
  ++deletes;
  return MPI_SUCCESS;
}

static int count_type_delete(MPI_Datatype type, int keyval, void* value, void* extra) {
  (void)type, (void)keyval, (void)value;
  ++*(int*)extra;
  return MPI_SUCCESS;
}

static int failing_copy(MPI_Datatype type, int keyval, void* extra, void* in, void* out,
                        int* flag) {
  (void)type, (void)keyval, (void)extra, (void)in, (void)out, (void)flag;
  return MPI_ERR_OTHER;
}

static int failing_delete(MPI_Comm comm, int keyval, void* value, void* extra) {
  (void)comm, (void)keyval, (void)value, (void)extra;
  return MPI_ERR_OTHER;
}

/* Appends the attribute's value (a letter) to finalize_order; runs inside MPI_Finalize. */
static int record_delete(MPI_Comm comm, int keyval, void* value, void* extra) {
  (void)keyval, (void)extra;
  const size_t n = strlen(finalize_order);
  if (comm == MPI_COMM_SELF && n + 1 < sizeof finalize_order)
    finalize_order[n] = (char)(intptr_t)value;
  return MPI_SUCCESS;
}

static void* get_comm_attr(MPI_Comm comm, int keyval) {
  void* value = NULL;
  int flag = -1;
  CHECK_MPI(MPI_Comm_get_attr(comm, keyval, &value, &flag));
  CHECK(flag == 0 || flag == 1);
  return flag ? value : NULL;
}

static void check_predefined(MPI_Comm comm, int size) {
  const int keys[] = {MPI_TAG_UB,        MPI_HOST,   MPI_IO,          MPI_WTIME_IS_GLOBAL,
                      MPI_UNIVERSE_SIZE, MPI_APPNUM, MPI_LASTUSEDCODE};
  for (int i = 0; i < 7; ++i) CHECK(get_comm_attr(comm, keys[i]) != NULL);
  CHECK(*(int*)get_comm_attr(comm, MPI_TAG_UB) >= 32767);
  const int host = *(int*)get_comm_attr(comm, MPI_HOST);
  CHECK(host == MPI_PROC_NULL || (host >= 0 && host < size));
  const int io = *(int*)get_comm_attr(comm, MPI_IO);
  CHECK(io == MPI_ANY_SOURCE || io == MPI_PROC_NULL || (io >= 0 && io < size));
  const int global = *(int*)get_comm_attr(comm, MPI_WTIME_IS_GLOBAL);
  CHECK(global == 0 || global == 1);
  CHECK(*(int*)get_comm_attr(comm, MPI_UNIVERSE_SIZE) >= size);
  CHECK(*(int*)get_comm_attr(comm, MPI_APPNUM) >= 0);
  CHECK(*(int*)get_comm_attr(comm, MPI_LASTUSEDCODE) >= MPI_ERR_LASTCODE);
}

static void user_attributes(void) {
  int keyval = MPI_KEYVAL_INVALID;
  CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, count_delete, &keyval, NULL));
  CHECK(keyval != MPI_KEYVAL_INVALID);
  int x = 1, y = 2, z = 3;
  CHECK(get_comm_attr(MPI_COMM_WORLD, keyval) == NULL);
  CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, &x));
  CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, keyval, &y));
  CHECK(get_comm_attr(MPI_COMM_WORLD, keyval) == &x);
  CHECK(get_comm_attr(MPI_COMM_SELF, keyval) == &y);
  deletes = 0;
  CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, &z)); /* replacing deletes the old value */
  CHECK(deletes == 1 && get_comm_attr(MPI_COMM_WORLD, keyval) == &z);
  CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_WORLD, keyval));
  CHECK(deletes == 2 && get_comm_attr(MPI_COMM_WORLD, keyval) == NULL);
  CHECK(get_comm_attr(MPI_COMM_SELF, keyval) == &y);
  CHECK_MPI(MPI_Comm_delete_attr(MPI_COMM_SELF, keyval));
  CHECK_MPI(MPI_Comm_free_keyval(&keyval));
  CHECK(keyval == MPI_KEYVAL_INVALID && deletes == 3);

  /* Keyvals made with the null callbacks hold values all the same. */
  int plain = MPI_KEYVAL_INVALID;
  CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &plain, NULL));
  CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, plain, (void*)(intptr_t)42));
  CHECK(get_comm_attr(MPI_COMM_WORLD, plain) == (void*)(intptr_t)42);
  CHECK_MPI(MPI_Comm_free_keyval(&plain)); /* the attribute stays on MPI_COMM_WORLD */
}

static void type_attributes(void) {
  int type_deletes = 0;
  int keyval = MPI_KEYVAL_INVALID;
  CHECK_MPI(MPI_Type_create_keyval(MPI_TYPE_DUP_FN, count_type_delete, &keyval, &type_deletes));
  int v = 7;
  CHECK_MPI(MPI_Type_set_attr(MPI_INT, keyval, &v));
  void* got = NULL;
  int flag = 0;
  CHECK_MPI(MPI_Type_get_attr(MPI_INT, keyval, &got, &flag));
  CHECK(flag && got == &v);
  CHECK_MPI(MPI_Type_get_attr(MPI_DOUBLE, keyval, &got, &flag));
  CHECK(!flag);
  MPI_Datatype copy = MPI_DATATYPE_NULL;
  CHECK_MPI(MPI_Type_dup(MPI_INT, &copy));
  CHECK_MPI(MPI_Type_get_attr(copy, keyval, &got, &flag));
  CHECK(flag && got == &v);
  CHECK_MPI(MPI_Type_free_keyval(&keyval)); /* both attributes keep it alive */
  CHECK_MPI(MPI_Type_free(&copy));
  CHECK(type_deletes == 1);

  int refuses = MPI_KEYVAL_INVALID;
  CHECK_MPI(MPI_Type_create_keyval(failing_copy, MPI_TYPE_NULL_DELETE_FN, &refuses, NULL));
  CHECK_MPI(MPI_Type_set_attr(MPI_DOUBLE, refuses, &v));
  copy = MPI_DATATYPE_NULL;
  EXPECT_ERROR(MPI_Type_dup(MPI_DOUBLE, &copy), MPI_ERR_OTHER, "MPI_Type_dup", "copy callback");
  CHECK(copy == MPI_DATATYPE_NULL);
  CHECK_MPI(MPI_Type_delete_attr(MPI_DOUBLE, refuses));
  CHECK_MPI(MPI_Type_free_keyval(&refuses));
}

static void error_paths(void) {
  int keyval = MPI_KEYVAL_INVALID, type_keyval = MPI_KEYVAL_INVALID, v = 0, flag = 0;
  void* got = NULL;
  CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, failing_delete, &keyval, NULL));
  CHECK_MPI(
      MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &type_keyval, NULL));
  EXPECT_ERROR(MPI_Comm_create_keyval(MPI_COMM_DUP_FN, MPI_COMM_NULL_DELETE_FN, NULL, NULL),
               MPI_ERR_ARG, "MPI_Comm_create_keyval", "comm_keyval=NULL");
  EXPECT_ERROR(MPI_Comm_set_attr(MPI_COMM_NULL, keyval, &v), MPI_ERR_COMM, "MPI_Comm_set_attr",
               "MPI_COMM_NULL");
  EXPECT_ERROR(MPI_Comm_set_attr(MPI_COMM_WORLD, MPI_TAG_UB, &v), MPI_ERR_KEYVAL,
               "MPI_Comm_set_attr", "comm_keyval=MPI_TAG_UB");
  EXPECT_ERROR(MPI_Comm_delete_attr(MPI_COMM_WORLD, MPI_APPNUM), MPI_ERR_KEYVAL,
               "MPI_Comm_delete_attr", "MPI_APPNUM");
  EXPECT_ERROR(MPI_Comm_get_attr(MPI_COMM_WORLD, 123456, &got, &flag), MPI_ERR_KEYVAL,
               "MPI_Comm_get_attr", "comm_keyval=123456");
  EXPECT_ERROR(MPI_Comm_get_attr(MPI_COMM_WORLD, keyval, NULL, &flag), MPI_ERR_ARG,
               "MPI_Comm_get_attr", "attribute_val=NULL");
  EXPECT_ERROR(MPI_Comm_get_attr(MPI_COMM_WORLD, keyval, &got, NULL), MPI_ERR_ARG,
               "MPI_Comm_get_attr", "flag=NULL");
  EXPECT_ERROR(MPI_Comm_set_attr(MPI_COMM_WORLD, type_keyval, &v), MPI_ERR_KEYVAL,
               "MPI_Comm_set_attr", "created for datatype attributes");
  EXPECT_ERROR(MPI_Type_set_attr(MPI_INT, keyval, &v), MPI_ERR_KEYVAL, "MPI_Type_set_attr",
               "created for communicator attributes");
  EXPECT_ERROR(MPI_Type_set_attr(MPI_DATATYPE_NULL, type_keyval, &v), MPI_ERR_TYPE,
               "MPI_Type_set_attr", "MPI_DATATYPE_NULL");
  EXPECT_ERROR(MPI_Type_get_attr(MPI_INT, type_keyval, &got, NULL), MPI_ERR_ARG,
               "MPI_Type_get_attr", "flag=NULL");
  EXPECT_ERROR(MPI_Type_delete_attr((MPI_Datatype)99999, type_keyval), MPI_ERR_TYPE,
               "MPI_Type_delete_attr", "99999");
  int invalid = MPI_KEYVAL_INVALID;
  EXPECT_ERROR(MPI_Comm_free_keyval(&invalid), MPI_ERR_KEYVAL, "MPI_Comm_free_keyval",
               "MPI_KEYVAL_INVALID");
  int predefined = MPI_TAG_UB;
  EXPECT_ERROR(MPI_Comm_free_keyval(&predefined), MPI_ERR_KEYVAL, "MPI_Comm_free_keyval",
               "MPI_TAG_UB");
  EXPECT_ERROR(MPI_Type_free_keyval(NULL), MPI_ERR_ARG, "MPI_Type_free_keyval", "type_keyval=NULL");

  /* A delete callback that fails fails the call and leaves the attribute in place. */
  CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, &v));
  EXPECT_ERROR(MPI_Comm_delete_attr(MPI_COMM_WORLD, keyval), MPI_ERR_OTHER, "MPI_Comm_delete_attr",
               "delete callback of comm_keyval=");
  EXPECT_ERROR(MPI_Comm_set_attr(MPI_COMM_WORLD, keyval, &flag), MPI_ERR_OTHER, "MPI_Comm_set_attr",
               "delete callback");
  CHECK(get_comm_attr(MPI_COMM_WORLD, keyval) == &v);
  const int freed = keyval;
  CHECK_MPI(MPI_Comm_free_keyval(&keyval));
  EXPECT_ERROR(MPI_Comm_get_attr(MPI_COMM_WORLD, freed, &got, &flag), MPI_ERR_KEYVAL,
               "MPI_Comm_get_attr", "comm_keyval=");
  CHECK_MPI(MPI_Type_free_keyval(&type_keyval));
}

/* Three attributes on MPI_COMM_SELF for MPI_Finalize to delete: set B, C, A; freed keyval C. */
static void attributes_for_finalize(void) {
  int keys[3];
  for (int i = 0; i < 3; ++i)
    CHECK_MPI(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, record_delete, &keys[i], NULL));
  CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, keys[1], (void*)(intptr_t)'B'));
  CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, keys[2], (void*)(intptr_t)'C'));
  CHECK_MPI(MPI_Comm_set_attr(MPI_COMM_SELF, keys[0], (void*)(intptr_t)'A'));
  CHECK_MPI(MPI_Comm_free_keyval(&keys[2]));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  world_ring(&rank, &size, NULL, NULL);
  errors_return();
  check_context("predefined attributes");
  check_predefined(MPI_COMM_WORLD, size);
  check_predefined(MPI_COMM_SELF, size);
  check_context("user attributes on MPI_COMM_WORLD and MPI_COMM_SELF");
  user_attributes();
  check_context("datatype attributes");
  type_attributes();
  check_context("error paths");
  error_paths();
  check_context("attributes on MPI_COMM_SELF for MPI_Finalize");
  attributes_for_finalize();
  CHECK(finalize_order[0] == '\0');
  MPI_Finalize();
  if (strcmp(finalize_order, "ACB") != 0) {
    fprintf(stderr,
            "rank %d: MPI_Finalize deleted MPI_COMM_SELF's attributes in the order '%s', "
            "expected 'ACB' (last set first)\n",
            rank, finalize_order);
    return 1;
  }
  return 0;
}
