/* MPI 3.1 compatibility calls: Fortran handle conversion (round trips of every handle kind,
 * null and stale handles, a live request waited on through its converted handle, a matched-
 * probe message, MPI_Status_c2f/f2c and the mpi_f08 status conversions) and the deprecated MPI-1 attribute calls (MPI_Keyval_create,
 * MPI_Attr_put/get/delete, MPI_Keyval_free) with copy and delete callbacks and error paths. */
#include <stdint.h>

#include "expect_error.h"

static int copies, deletes; /* calls of counting_copy / counting_delete */

static int counting_copy(MPI_Comm comm, int keyval, void* extra, void* in, void* out, int* flag) {
  (void)comm, (void)keyval;
  ++copies;
  CHECK(extra == (void*)&copies);
  *(void**)out = (void*)((intptr_t)in + 1); /* the copy's value is one more */
  *flag = 1;
  return MPI_SUCCESS;
}

static int counting_delete(MPI_Comm comm, int keyval, void* value, void* extra) {
  (void)comm, (void)keyval, (void)value;
  CHECK(extra == (void*)&copies);
  ++deletes;
  return MPI_SUCCESS;
}

static void integer_handles(void) {
  check_context("integer handle round trips");
  const MPI_Comm comms[] = {MPI_COMM_NULL, MPI_COMM_WORLD, MPI_COMM_SELF};
  for (int i = 0; i < 3; ++i) CHECK(MPI_Comm_f2c(MPI_Comm_c2f(comms[i])) == comms[i]);
  CHECK(MPI_Comm_c2f(MPI_COMM_NULL) == MPI_Comm_c2f(MPI_COMM_NULL));
  MPI_Comm dup;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
  const MPI_Fint fdup = MPI_Comm_c2f(dup);
  int size = -1;
  CHECK_MPI(MPI_Comm_size(MPI_Comm_f2c(fdup), &size));
  CHECK(MPI_Comm_f2c(fdup) == dup);
  CHECK_MPI(MPI_Comm_free(&dup));

  const MPI_Datatype types[] = {MPI_DATATYPE_NULL, MPI_INT, MPI_DOUBLE, MPI_BYTE};
  for (int i = 0; i < 4; ++i) CHECK(MPI_Type_f2c(MPI_Type_c2f(types[i])) == types[i]);
  MPI_Datatype vec;
  CHECK_MPI(MPI_Type_vector(2, 1, 3, MPI_INT, &vec));
  CHECK(MPI_Type_f2c(MPI_Type_c2f(vec)) == vec);
  CHECK_MPI(MPI_Type_free(&vec));

  MPI_Group group;
  CHECK_MPI(MPI_Comm_group(MPI_COMM_WORLD, &group));
  CHECK(MPI_Group_f2c(MPI_Group_c2f(group)) == group);
  CHECK(MPI_Group_f2c(MPI_Group_c2f(MPI_GROUP_NULL)) == MPI_GROUP_NULL);
  CHECK(MPI_Group_f2c(MPI_Group_c2f(MPI_GROUP_EMPTY)) == MPI_GROUP_EMPTY);
  CHECK_MPI(MPI_Group_free(&group));

  const MPI_Op ops[] = {MPI_OP_NULL, MPI_SUM, MPI_MAX, MPI_MAXLOC};
  for (int i = 0; i < 4; ++i) CHECK(MPI_Op_f2c(MPI_Op_c2f(ops[i])) == ops[i]);

  MPI_Info info;
  CHECK_MPI(MPI_Info_create(&info));
  CHECK(MPI_Info_f2c(MPI_Info_c2f(info)) == info);
  CHECK(MPI_Info_f2c(MPI_Info_c2f(MPI_INFO_NULL)) == MPI_INFO_NULL);
  CHECK_MPI(MPI_Info_free(&info));

  const MPI_Errhandler handlers[] = {MPI_ERRHANDLER_NULL, MPI_ERRORS_ARE_FATAL, MPI_ERRORS_RETURN};
  for (int i = 0; i < 3; ++i)
    CHECK(MPI_Errhandler_f2c(MPI_Errhandler_c2f(handlers[i])) == handlers[i]);
}

static void requests_and_messages(int rank, int size) {
  check_context("request and message conversion");
  CHECK(MPI_Request_c2f(MPI_REQUEST_NULL) == 0);
  CHECK(MPI_Request_f2c(0) == MPI_REQUEST_NULL);
  CHECK(MPI_Request_f2c(12345) == MPI_REQUEST_NULL); /* never handed out */
  CHECK(MPI_Request_f2c(-7) == MPI_REQUEST_NULL);
  CHECK(MPI_Message_f2c(MPI_Message_c2f(MPI_MESSAGE_NULL)) == MPI_MESSAGE_NULL);
  CHECK(MPI_Message_f2c(MPI_Message_c2f(MPI_MESSAGE_NO_PROC)) == MPI_MESSAGE_NO_PROC);
  CHECK(MPI_Message_f2c(12345) == MPI_MESSAGE_NULL);

  /* A live receive from the right neighbour, waited on through its converted handle. */
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  int in = -1, out = 100 + rank;
  MPI_Request recv;
  CHECK_MPI(MPI_Irecv(&in, 1, MPI_INT, right, 5, MPI_COMM_WORLD, &recv));
  const MPI_Fint frecv = MPI_Request_c2f(recv);
  CHECK(frecv != 0);
  CHECK(MPI_Request_c2f(recv) == frecv); /* stable */
  CHECK(MPI_Request_f2c(frecv) == recv);
  MPI_Request send;
  CHECK_MPI(MPI_Isend(&out, 1, MPI_INT, left, 5, MPI_COMM_WORLD, &send));
  const MPI_Fint fsend = MPI_Request_c2f(send);
  CHECK(fsend != 0 && fsend != frecv);
  MPI_Request back = MPI_Request_f2c(frecv);
  MPI_Status status;
  CHECK_MPI(MPI_Wait(&back, &status));
  CHECK(back == MPI_REQUEST_NULL);
  CHECK(in == 100 + right && status.MPI_SOURCE == right && status.MPI_TAG == 5);
  CHECK(MPI_Request_f2c(frecv) == MPI_REQUEST_NULL); /* released: the integer is stale */
  CHECK_MPI(MPI_Wait(&send, MPI_STATUS_IGNORE));
  CHECK(MPI_Request_f2c(fsend) == MPI_REQUEST_NULL);

  /* A persistent request keeps its integer across starts until MPI_Request_free. */
  MPI_Request persist;
  CHECK_MPI(MPI_Send_init(&out, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD, &persist));
  const MPI_Fint fpersist = MPI_Request_c2f(persist);
  for (int i = 0; i < 2; ++i) {
    CHECK_MPI(MPI_Start(&persist));
    CHECK_MPI(MPI_Wait(&persist, MPI_STATUS_IGNORE));
    CHECK(MPI_Request_f2c(fpersist) == persist);
  }
  MPI_Request freed = MPI_Request_f2c(fpersist);
  CHECK_MPI(MPI_Request_free(&freed));
  CHECK(MPI_Request_f2c(fpersist) == MPI_REQUEST_NULL);

  /* A matched-probe message, received through its converted handle. */
  MPI_Request self_send;
  CHECK_MPI(MPI_Isend(&out, 1, MPI_INT, 0, 6, MPI_COMM_SELF, &self_send));
  MPI_Message msg;
  CHECK_MPI(MPI_Mprobe(0, 6, MPI_COMM_SELF, &msg, MPI_STATUS_IGNORE));
  const MPI_Fint fmsg = MPI_Message_c2f(msg);
  CHECK(fmsg > 1 && MPI_Message_c2f(msg) == fmsg);
  MPI_Message again = MPI_Message_f2c(fmsg);
  CHECK(again == msg);
  in = -1;
  CHECK_MPI(MPI_Mrecv(&in, 1, MPI_INT, &again, MPI_STATUS_IGNORE));
  CHECK(in == out && again == MPI_MESSAGE_NULL);
  CHECK_MPI(MPI_Wait(&self_send, MPI_STATUS_IGNORE));
  CHECK(MPI_Message_f2c(fmsg) == MPI_MESSAGE_NULL);
}

static void statuses(int rank) {
  check_context("MPI_Status_c2f / MPI_Status_f2c");
  double data[3] = {1, 2, 3}, got[3];
  MPI_Status status, back;
  CHECK_MPI(
      MPI_Sendrecv(data, 3, MPI_DOUBLE, 0, 9, got, 3, MPI_DOUBLE, 0, 9, MPI_COMM_SELF, &status));
  status.MPI_ERROR = MPI_ERR_TRUNCATE; /* any value survives the trip */
  MPI_Fint f[MPI_F_STATUS_SIZE];
  CHECK_MPI(MPI_Status_c2f(&status, f));
  CHECK(f[MPI_F_SOURCE] == 0 && f[MPI_F_TAG] == 9 && f[MPI_F_ERROR] == MPI_ERR_TRUNCATE);
  memset(&back, 0xff, sizeof back);
  CHECK_MPI(MPI_Status_f2c(f, &back));
  CHECK(back.MPI_SOURCE == 0 && back.MPI_TAG == 9 && back.MPI_ERROR == MPI_ERR_TRUNCATE);
  int count = -1, cancelled = -1;
  CHECK_MPI(MPI_Get_count(&back, MPI_DOUBLE, &count));
  CHECK(count == 3);
  CHECK_MPI(MPI_Test_cancelled(&back, &cancelled));
  CHECK(cancelled == 0);
  /* A count beyond 32 bits and a cancelled flag. */
  CHECK_MPI(MPI_Status_set_elements_x(&status, MPI_BYTE, (MPI_Count)5 << 32 | 7));
  CHECK_MPI(MPI_Status_set_cancelled(&status, 1));
  CHECK_MPI(MPI_Status_c2f(&status, f));
  CHECK_MPI(MPI_Status_f2c(f, &back));
  MPI_Count big = -1;
  CHECK_MPI(MPI_Get_elements_x(&back, MPI_BYTE, &big));
  CHECK(big == ((MPI_Count)5 << 32 | 7));
  CHECK_MPI(MPI_Test_cancelled(&back, &cancelled));
  CHECK(cancelled == 1);
  /* The ignore values are not statuses. */
  EXPECT_ERROR(MPI_Status_c2f(MPI_STATUS_IGNORE, f), MPI_ERR_ARG, "MPI_Status_c2f", "c_status");
  EXPECT_ERROR(MPI_Status_f2c(MPI_F_STATUS_IGNORE, &back), MPI_ERR_ARG, "MPI_Status_f2c",
               "f_status");

  check_context("MPI_Status_c2f08 / f082c / f2f08 / f082f");
  MPI_F08_status f08, f08_again;
  MPI_Fint f_again[MPI_F_STATUS_SIZE];
  CHECK_MPI(MPI_Status_c2f08(&status, &f08));
  CHECK(f08.MPI_SOURCE == 0 && f08.MPI_TAG == 9 && f08.MPI_ERROR == MPI_ERR_TRUNCATE);
  CHECK_MPI(MPI_Status_f082f(&f08, f_again));
  CHECK(memcmp(f_again, f, sizeof f) == 0);
  CHECK_MPI(MPI_Status_f2f08(f, &f08_again));
  CHECK(memcmp(&f08_again, &f08, sizeof f08) == 0);
  memset(&back, 0xff, sizeof back);
  CHECK_MPI(MPI_Status_f082c(&f08, &back));
  CHECK(back.MPI_SOURCE == 0 && back.MPI_TAG == 9);
  CHECK_MPI(MPI_Get_elements_x(&back, MPI_BYTE, &big));
  CHECK(big == ((MPI_Count)5 << 32 | 7));
  CHECK_MPI(MPI_Test_cancelled(&back, &cancelled));
  CHECK(cancelled == 1);
  EXPECT_ERROR(MPI_Status_c2f08(&status, MPI_F08_STATUS_IGNORE), MPI_ERR_ARG, "MPI_Status_c2f08",
               "f08_status");
  EXPECT_ERROR(MPI_Status_f082f(MPI_F08_STATUS_IGNORE, f), MPI_ERR_ARG, "MPI_Status_f082f",
               "f08_status");
  (void)rank;
}

static void deprecated_attributes(void) {
  check_context("MPI_Keyval_create / MPI_Attr_*");
  int keyval = MPI_KEYVAL_INVALID, flag = -1;
  void* value = NULL;
  CHECK_MPI(MPI_Keyval_create(counting_copy, counting_delete, &keyval, &copies));
  CHECK(keyval != MPI_KEYVAL_INVALID);
  MPI_Comm comm;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &comm));
  CHECK_MPI(MPI_Attr_get(comm, keyval, &value, &flag));
  CHECK(flag == 0);
  CHECK_MPI(MPI_Attr_put(comm, keyval, (void*)(intptr_t)40));
  CHECK_MPI(MPI_Attr_get(comm, keyval, &value, &flag));
  CHECK(flag == 1 && (intptr_t)value == 40);
  /* The MPI-2 calls see the same attribute. */
  CHECK_MPI(MPI_Comm_get_attr(comm, keyval, &value, &flag));
  CHECK(flag == 1 && (intptr_t)value == 40);

  /* MPI_Comm_dup runs the copy callback. */
  MPI_Comm copy;
  CHECK_MPI(MPI_Comm_dup(comm, &copy));
  CHECK(copies == 1);
  CHECK_MPI(MPI_Attr_get(copy, keyval, &value, &flag));
  CHECK(flag == 1 && (intptr_t)value == 41);

  /* Replacing runs the delete callback on the old value; MPI_Attr_delete and MPI_Comm_free do. */
  CHECK_MPI(MPI_Attr_put(comm, keyval, (void*)(intptr_t)50));
  CHECK(deletes == 1);
  CHECK_MPI(MPI_Attr_delete(comm, keyval));
  CHECK(deletes == 2);
  CHECK_MPI(MPI_Attr_get(comm, keyval, &value, &flag));
  CHECK(flag == 0);
  CHECK_MPI(MPI_Comm_free(&copy));
  CHECK(deletes == 3);

  /* The predefined callbacks under their MPI-1 names; predefined attributes read as before. */
  int dupkey = MPI_KEYVAL_INVALID, nullkey = MPI_KEYVAL_INVALID;
  CHECK_MPI(MPI_Keyval_create(MPI_DUP_FN, MPI_NULL_DELETE_FN, &dupkey, NULL));
  CHECK_MPI(MPI_Keyval_create(MPI_NULL_COPY_FN, MPI_NULL_DELETE_FN, &nullkey, NULL));
  CHECK_MPI(MPI_Attr_put(comm, dupkey, (void*)(intptr_t)7));
  CHECK_MPI(MPI_Attr_put(comm, nullkey, (void*)(intptr_t)8));
  CHECK_MPI(MPI_Comm_dup(comm, &copy));
  CHECK_MPI(MPI_Attr_get(copy, dupkey, &value, &flag));
  CHECK(flag == 1 && (intptr_t)value == 7);
  CHECK_MPI(MPI_Attr_get(copy, nullkey, &value, &flag));
  CHECK(flag == 0);
  int* tag_ub = NULL;
  CHECK_MPI(MPI_Attr_get(copy, MPI_TAG_UB, &tag_ub, &flag));
  CHECK(flag == 1 && *tag_ub >= 32767);
  CHECK_MPI(MPI_Comm_free(&copy));

  /* Error paths: invalid and freed keyvals, predefined ones read-only, bad communicator. */
  EXPECT_ERROR(MPI_Attr_get(comm, 9999, &value, &flag), MPI_ERR_KEYVAL, "MPI_Attr_get", "9999");
  EXPECT_ERROR(MPI_Attr_put(comm, 9999, NULL), MPI_ERR_KEYVAL, "MPI_Attr_put", "9999");
  EXPECT_ERROR(MPI_Attr_delete(comm, 9999), MPI_ERR_KEYVAL, "MPI_Attr_delete", "9999");
  EXPECT_ERROR(MPI_Attr_put(comm, MPI_TAG_UB, NULL), MPI_ERR_KEYVAL, "MPI_Attr_put", "MPI_TAG_UB");
  EXPECT_ERROR(MPI_Attr_get(MPI_COMM_NULL, keyval, &value, &flag), MPI_ERR_COMM, "MPI_Attr_get",
               "comm");
  EXPECT_ERROR(MPI_Keyval_create(counting_copy, counting_delete, NULL, NULL), MPI_ERR_ARG,
               "MPI_Keyval_create", "keyval");
  int bad = 9999;
  EXPECT_ERROR(MPI_Keyval_free(&bad), MPI_ERR_KEYVAL, "MPI_Keyval_free", "9999");

  const int freed = keyval;
  CHECK_MPI(MPI_Keyval_free(&keyval));
  CHECK(keyval == MPI_KEYVAL_INVALID);
  EXPECT_ERROR(MPI_Attr_get(comm, freed, &value, &flag), MPI_ERR_KEYVAL, "MPI_Attr_get", "keyval");
  CHECK_MPI(MPI_Keyval_free(&dupkey));
  CHECK_MPI(MPI_Keyval_free(&nullkey));
  CHECK_MPI(MPI_Comm_free(&comm)); /* its dupkey/nullkey values: nothing to count */
  CHECK(deletes == 3 && copies == 1);
}

int main(int argc, char** argv) {
  /* Conversion works before MPI_Init too. */
  CHECK(MPI_Comm_f2c(MPI_Comm_c2f(MPI_COMM_WORLD)) == MPI_COMM_WORLD);
  CHECK(MPI_Request_f2c(3) == MPI_REQUEST_NULL);
  MPI_Init(&argc, &argv);
  errors_return();
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  integer_handles();
  requests_and_messages(rank, size);
  statuses(rank);
  deprecated_attributes();
  MPI_Finalize();
  if (rank == 0) printf("compat: ok\n");
  return 0;
}
