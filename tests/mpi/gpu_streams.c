/* The stream-ordered extension's calls that need no GPU (MPIX_Stream_*, MPIX_*_enqueue and
 * their _c forms with a host-only stream, MPIX_Comm_get_stream, MPIX_Info_set_hex) and its
 * errors: an enqueue call on a communicator
 * without a stream, an unknown stream type, and a cudaStream_t stream where CUDA is not in use;
 * a stream freed while communicators use it lives on with them, but its handle is no longer the
 * application's to free or to make communicators on.
 * tests/gpu/gpu_streams.c runs the same calls ordered with a real CUDA stream. */
#include <stdlib.h>
#include <string.h>

#include "check.h"

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);

  check_context("MPIX_Info_set_hex");
  MPI_Info info;
  CHECK_MPI(MPI_Info_create(&info));
  const unsigned char bytes[3] = {0x01, 0x2a, 0xff};
  CHECK_MPI(MPIX_Info_set_hex(info, "value", bytes, 3));
  char text[16] = "";
  int flag = 0;
  CHECK_MPI(MPI_Info_get(info, "value", 15, text, &flag));
  CHECK(flag && strcmp(text, "012aff") == 0);

  check_context("a host-only stream (MPI_INFO_NULL) and enqueue calls on its communicator");
  MPIX_Stream stream = MPIX_STREAM_NULL;
  CHECK_MPI(MPIX_Stream_create(MPI_INFO_NULL, &stream));
  MPI_Comm scomm;
  CHECK_MPI(MPIX_Stream_comm_create(MPI_COMM_WORLD, stream, &scomm));
  int sum = 0, mine = rank + 1;
  CHECK_MPI(MPIX_Allreduce_enqueue(&mine, &sum, 1, MPI_INT, MPI_SUM, scomm));
  CHECK(sum == size * (size + 1) / 2);
  int got = -1;
  MPI_Request r[2];
  CHECK_MPI(MPIX_Irecv_enqueue(&got, 1, MPI_INT, (rank + size - 1) % size, 7, scomm, &r[0]));
  CHECK_MPI(MPIX_Isend_enqueue(&mine, 1, MPI_INT, (rank + 1) % size, 7, scomm, &r[1]));
  CHECK_MPI(MPIX_Waitall_enqueue(2, r, MPI_STATUSES_IGNORE));
  CHECK(got == (rank + size - 1) % size + 1);
  if (size > 1) {
    if (rank == 0) CHECK_MPI(MPIX_Send_enqueue(&mine, 1, MPI_INT, 1, 8, scomm));
    if (rank == 1) {
      CHECK_MPI(MPIX_Recv_enqueue(&got, 1, MPI_INT, 0, 8, scomm, MPI_STATUS_IGNORE));
      CHECK(got == 1);
    }
  }
  check_context("the large-count (_c) forms and MPIX_Comm_get_stream");
  sum = 0;
  CHECK_MPI(MPIX_Allreduce_enqueue_c(&mine, &sum, (MPI_Count)1, MPI_INT, MPI_SUM, scomm));
  CHECK(sum == size * (size + 1) / 2);
  got = -1;
  CHECK_MPI(MPIX_Irecv_enqueue_c(&got, 1, MPI_INT, (rank + size - 1) % size, 9, scomm, &r[0]));
  CHECK_MPI(MPIX_Isend_enqueue_c(&mine, 1, MPI_INT, (rank + 1) % size, 9, scomm, &r[1]));
  CHECK_MPI(MPIX_Waitall_enqueue(2, r, MPI_STATUSES_IGNORE));
  CHECK(got == (rank + size - 1) % size + 1);
  if (size > 1) {
    if (rank == 0) CHECK_MPI(MPIX_Send_enqueue_c(&mine, 1, MPI_INT, 1, 10, scomm));
    if (rank == 1) {
      got = -1;
      CHECK_MPI(MPIX_Recv_enqueue_c(&got, 1, MPI_INT, 0, 10, scomm, MPI_STATUS_IGNORE));
      CHECK(got == 1);
    }
  }
  MPIX_Stream bound = MPIX_STREAM_NULL;
  CHECK_MPI(MPIX_Comm_get_stream(scomm, 0, &bound));
  CHECK(bound == stream);
  CHECK_MPI(MPIX_Comm_get_stream(MPI_COMM_WORLD, 0, &bound));
  CHECK(bound == MPIX_STREAM_NULL);
  MPI_Comm twin; /* a duplicate of a stream communicator is one too, on the same stream */
  CHECK_MPI(MPI_Comm_dup(scomm, &twin));
  CHECK_MPI(MPIX_Comm_get_stream(twin, 0, &bound));
  CHECK(bound == stream);
  sum = 0;
  CHECK_MPI(MPIX_Allreduce_enqueue(&mine, &sum, 1, MPI_INT, MPI_SUM, twin));
  CHECK(sum == size * (size + 1) / 2);
  CHECK_MPI(MPI_Comm_free(&twin));

  check_context("errors");
  int rc = MPIX_Allreduce_enqueue(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  int cls = -1;
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_COMM);  /* MPI_COMM_WORLD has no stream */
  MPI_Error_class(MPIX_Comm_get_stream(scomm, 3, &bound), &cls);
  CHECK(cls == MPI_ERR_ARG);  /* one stream per communicator: idx 0 */
  MPI_Info typed;
  CHECK_MPI(MPI_Info_create(&typed));
  CHECK_MPI(MPI_Info_set(typed, "type", "hipStream_t"));
  MPIX_Stream other = MPIX_STREAM_NULL;
  rc = MPIX_Stream_create(typed, &other);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_INFO && other == MPIX_STREAM_NULL);
  CHECK_MPI(MPI_Info_set(typed, "type", "cudaStream_t"));
  void* no_stream = NULL;
  CHECK_MPI(MPIX_Info_set_hex(typed, "value", &no_stream, sizeof no_stream));
  rc = MPIX_Stream_create(typed, &other);
  /* How CUDA buffers are handled, in words: accepted exactly when MPIX_Query_cuda_support says. */
  char path[MPIX_MAX_CUDA_PATH_STRING];
  int path_len = -1;
  CHECK_MPI(MPIX_Query_cuda_path(path, &path_len));
  CHECK((int)strlen(path) == path_len);
  const char* said = MPIX_Query_cuda_support() ? "CUDA buffers: accepted" : "CUDA buffers: not accepted";
  CHECK(strncmp(path, said, strlen(said)) == 0);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  MPI_Error_class(MPIX_Query_cuda_path(NULL, &path_len), &cls);
  CHECK(cls == MPI_ERR_ARG);
  if (MPIX_Query_cuda_support()) {
    CHECK(rc == MPI_SUCCESS); /* the legacy default stream, as a cudaStream_t of 0 */
    CHECK_MPI(MPIX_Stream_free(&other));
  } else {
    MPI_Error_class(rc, &cls);
    CHECK(cls == MPI_ERR_OTHER);
  }
  rc = MPIX_Stream_free(&other);
  MPI_Error_class(rc, &cls);
  CHECK(cls == MPI_ERR_ARG);

  check_context("a stream freed while a communicator uses it");
  CHECK_MPI(MPIX_Stream_free(&stream));
  CHECK(stream == MPIX_STREAM_NULL);
  CHECK_MPI(MPIX_Comm_get_stream(scomm, 0, &bound)); /* the communicator keeps it */
  CHECK(bound != MPIX_STREAM_NULL);
  CHECK_MPI(MPI_Comm_dup(scomm, &twin));
  sum = 0;
  CHECK_MPI(MPIX_Allreduce_enqueue(&mine, &sum, 1, MPI_INT, MPI_SUM, twin));
  CHECK(sum == size * (size + 1) / 2);
  MPI_Error_class(MPIX_Stream_free(&bound), &cls); /* not the application's to free again */
  CHECK(cls == MPI_ERR_ARG && bound != MPIX_STREAM_NULL);
  MPI_Comm again;
  MPI_Error_class(MPIX_Stream_comm_create(MPI_COMM_WORLD, bound, &again), &cls);
  CHECK(cls == MPI_ERR_ARG);
  CHECK_MPI(MPI_Comm_free(&twin));
  CHECK_MPI(MPI_Comm_free(&scomm));
  MPI_Info_free(&info);
  MPI_Info_free(&typed);
  MPI_Finalize();
  return 0;
}
