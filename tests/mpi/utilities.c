/* Small utilities: MPI_Alloc_mem/MPI_Free_mem, MPI_Request_get_status on an MPI_Irecv before
 * and after its message arrives (the request stays until MPI_Wait), MPI_Pcontrol,
 * MPI_Comm_get_parent, MPI_Status_set_elements/_x and MPI_Status_set_cancelled, and the error
 * paths. */
#include <sched.h>
#include <stdint.h>

#include "expect_error.h"

static void memory(void) {
  char* block = NULL;
  CHECK_MPI(MPI_Alloc_mem(1 << 20, MPI_INFO_NULL, &block));
  CHECK(block != NULL && (uintptr_t)block % 64 == 0);
  memset(block, 0x5a, 1 << 20);
  CHECK_MPI(MPI_Free_mem(block));
  EXPECT_ERROR(MPI_Free_mem(block), MPI_ERR_BASE, "MPI_Free_mem", "not a block from MPI_Alloc_mem");
  int on_stack = 0;
  EXPECT_ERROR(MPI_Free_mem(&on_stack), MPI_ERR_BASE, "MPI_Free_mem", "base=0x");
  EXPECT_ERROR(MPI_Free_mem(NULL), MPI_ERR_BASE, "MPI_Free_mem", "base=NULL");

  void* empty = NULL;
  MPI_Info hints;
  CHECK_MPI(MPI_Info_create(&hints));
  CHECK_MPI(MPI_Info_set(hints, "alloc_shared_noncontig", "true"));
  CHECK_MPI(MPI_Alloc_mem(0, hints, &empty));
  CHECK(empty != NULL);
  CHECK_MPI(MPI_Free_mem(empty));
  CHECK_MPI(MPI_Info_free(&hints));

  EXPECT_ERROR(MPI_Alloc_mem((MPI_Aint)1 << 62, MPI_INFO_NULL, &empty), MPI_ERR_NO_MEM,
               "MPI_Alloc_mem", "cannot allocate 4611686018427387904 bytes");
  EXPECT_ERROR(MPI_Alloc_mem(-8, MPI_INFO_NULL, &empty), MPI_ERR_ARG, "MPI_Alloc_mem", "size=-8");
  EXPECT_ERROR(MPI_Alloc_mem(8, 424242, &empty), MPI_ERR_INFO, "MPI_Alloc_mem", "info=424242");
  EXPECT_ERROR(MPI_Alloc_mem(8, MPI_INFO_NULL, NULL), MPI_ERR_ARG, "MPI_Alloc_mem", "baseptr=NULL");
}

/* Each rank receives from its left neighbour, which sends only after a barrier that follows the
 * first MPI_Request_get_status, so the message cannot have arrived then. */
static void request_status(int rank, int size) {
  const int left = (rank - 1 + size) % size, right = (rank + 1) % size;
  int in[4] = {0}, out[4] = {rank, rank + 1, rank + 2, rank + 3};
  MPI_Request request = MPI_REQUEST_NULL;
  CHECK_MPI(MPI_Irecv(in, 4, MPI_INT, left, 5, MPI_COMM_WORLD, &request));
  int flag = -1;
  MPI_Status status;
  CHECK_MPI(MPI_Request_get_status(request, &flag, &status));
  CHECK(flag == 0 && request != MPI_REQUEST_NULL);
  CHECK_MPI(MPI_Barrier(MPI_COMM_WORLD));
  CHECK_MPI(MPI_Send(out, 3, MPI_INT, right, 5, MPI_COMM_WORLD));
  do {
    CHECK_MPI(MPI_Request_get_status(request, &flag, &status));
    if (!flag) sched_yield();
  } while (!flag);
  int count = -1;
  CHECK(request != MPI_REQUEST_NULL); /* still to be completed */
  CHECK(status.MPI_SOURCE == left && status.MPI_TAG == 5);
  CHECK_MPI(MPI_Get_count(&status, MPI_INT, &count));
  CHECK(count == 3 && in[0] == left && in[2] == left + 2);
  CHECK_MPI(MPI_Request_get_status(request, &flag, MPI_STATUS_IGNORE)); /* again: still done */
  CHECK(flag == 1);
  CHECK_MPI(MPI_Wait(&request, &status));
  CHECK(request == MPI_REQUEST_NULL && status.MPI_SOURCE == left);
  status.MPI_SOURCE = status.MPI_TAG = 77;
  CHECK_MPI(MPI_Request_get_status(MPI_REQUEST_NULL, &flag, &status)); /* an empty status */
  CHECK(flag == 1 && status.MPI_SOURCE == MPI_ANY_SOURCE && status.MPI_TAG == MPI_ANY_TAG &&
        status.MPI_ERROR == MPI_SUCCESS);
  CHECK_MPI(MPI_Get_count(&status, MPI_INT, &count));
  CHECK(count == 0);
  EXPECT_ERROR(MPI_Request_get_status(MPI_REQUEST_NULL, NULL, &status), MPI_ERR_ARG,
               "MPI_Request_get_status", "flag=NULL");
}

static void statuses(void) {
  MPI_Status status;
  int count = -1, flag = -1;
  CHECK_MPI(MPI_Status_set_elements(&status, MPI_INT, 7));
  CHECK_MPI(MPI_Get_elements(&status, MPI_INT, &count));
  CHECK(count == 7);
  CHECK_MPI(MPI_Get_count(&status, MPI_INT, &count));
  CHECK(count == 7);
  CHECK_MPI(MPI_Get_count(&status, MPI_DOUBLE, &count));
  CHECK(count == MPI_UNDEFINED);
  CHECK_MPI(MPI_Status_set_elements_x(&status, MPI_DOUBLE, 3));
  CHECK_MPI(MPI_Get_count(&status, MPI_DOUBLE, &count));
  CHECK(count == 3);
  MPI_Datatype triple;
  CHECK_MPI(MPI_Type_contiguous(3, MPI_INT, &triple));
  CHECK_MPI(MPI_Type_commit(&triple));
  CHECK_MPI(MPI_Status_set_elements(&status, triple, 7)); /* 2 whole triples and one int */
  CHECK_MPI(MPI_Get_elements(&status, triple, &count));
  CHECK(count == 7);
  CHECK_MPI(MPI_Get_count(&status, triple, &count));
  CHECK(count == MPI_UNDEFINED);
  CHECK_MPI(MPI_Status_set_elements(&status, triple, 6));
  CHECK_MPI(MPI_Get_count(&status, triple, &count));
  CHECK(count == 2);
  CHECK_MPI(MPI_Type_free(&triple));
  CHECK_MPI(MPI_Status_set_cancelled(&status, 1));
  CHECK_MPI(MPI_Test_cancelled(&status, &flag));
  CHECK(flag == 1);
  CHECK_MPI(MPI_Status_set_cancelled(&status, 0));
  CHECK_MPI(MPI_Test_cancelled(&status, &flag));
  CHECK(flag == 0);
  EXPECT_ERROR(MPI_Status_set_elements(&status, MPI_INT, -1), MPI_ERR_COUNT,
               "MPI_Status_set_elements", "count=-1");
  EXPECT_ERROR(MPI_Status_set_elements(&status, MPI_DATATYPE_NULL, 1), MPI_ERR_TYPE,
               "MPI_Status_set_elements", "MPI_DATATYPE_NULL");
  EXPECT_ERROR(MPI_Status_set_elements_x(NULL, MPI_INT, 1), MPI_ERR_ARG,
               "MPI_Status_set_elements_x", "status=NULL");
  EXPECT_ERROR(MPI_Status_set_cancelled(NULL, 1), MPI_ERR_ARG, "MPI_Status_set_cancelled",
               "status=NULL");
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  world_ring(&rank, &size, NULL, NULL);
  errors_return();
  check_context("MPI_Alloc_mem and MPI_Free_mem");
  memory();
  check_context("MPI_Request_get_status");
  request_status(rank, size);
  check_context("MPI_Status_set_elements and MPI_Status_set_cancelled");
  statuses();
  check_context("MPI_Pcontrol and MPI_Comm_get_parent");
  CHECK_MPI(MPI_Pcontrol(0));
  CHECK_MPI(MPI_Pcontrol(2, "phase", 1.5));
  MPI_Comm parent = MPI_COMM_WORLD;
  CHECK_MPI(MPI_Comm_get_parent(&parent));
  CHECK(parent == MPI_COMM_NULL);
  EXPECT_ERROR(MPI_Comm_get_parent(NULL), MPI_ERR_ARG, "MPI_Comm_get_parent", "parent=NULL");
  MPI_Finalize();
  return 0;
}
