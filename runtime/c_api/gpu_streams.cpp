// The stream-ordered extension, as MPICH spells it: MPIX_Stream objects naming a CUDA stream,
// communicators bound to one, and MPIX_*_enqueue calls ordered with the stream's work. Weft
// orders them by waiting: each call waits for the work queued on the stream so far, runs its
// operation to completion, and returns; later work queued on the stream therefore sees its
// result. (The host waits where MPICH's enqueue calls return at once.)
#include <cstdio>
#include <memory>
#include <string>

#include "gpu/memory.hpp"
#include "mpi.h"
#include "runtime/c_api/guard.hpp"

using weft::Status;
namespace capi = weft::capi;

struct weft_stream {
  bool cuda = false;            // a CUDA stream, or a host-only stream (made from MPI_INFO_NULL)
  void* cuda_stream = nullptr;  // the cudaStream_t (0: the legacy default stream)
};

namespace {

constexpr MPI_Comm kNoComm = MPI_COMM_SELF;  // errors without a communicator go to its handler

Status bad_info(const std::string& why) {
  return Status::error(MPI_ERR_INFO, "invalid info: " + why);
}

// The bytes MPIX_Info_set_hex wrote under `key`: two lowercase hex digits per byte, in memory
// order.
Status read_hex(MPI_Info info, const char* key, void* out, int size) {
  char text[2 * 64 + 1] = "";
  int flag = 0;
  PMPI_Info_get(info, key, int(sizeof text) - 1, text, &flag);
  if (flag == 0) return bad_info(std::string("no \"") + key + "\" key");
  if (std::string(text).size() != size_t(2 * size))
    return bad_info(std::string("\"") + key + "\"=\"" + text + "\" is not " + std::to_string(size) +
                    " bytes in hex (MPIX_Info_set_hex)");
  auto* bytes = static_cast<unsigned char*>(out);
  for (int i = 0; i < size; ++i) {
    unsigned value = 0;
    if (std::sscanf(text + 2 * i, "%2x", &value) != 1)
      return bad_info(std::string("\"") + key + "\"=\"" + text + "\" is not hexadecimal");
    bytes[i] = static_cast<unsigned char>(value);
  }
  return Status::success();
}

Status stream_of(MPI_Comm comm, weft::Comm** c) {
  WEFT_TRY(capi::comm_arg(comm, "comm", c));
  if (!(*c)->has_stream)
    return Status::error(MPI_ERR_COMM, "invalid comm: " + (*c)->display_name() +
                                           " is not a stream communicator "
                                           "(MPIX_Stream_comm_create)");
  return Status::success();
}

// Waits for the work queued so far on comm's stream: what the enqueued call runs after.
Status wait_for_stream(MPI_Comm comm) {
  weft::Comm* c = nullptr;
  WEFT_TRY(stream_of(comm, &c));
  if (!c->stream_is_cuda) return Status::success();
  weft::gpu::DeviceMemory* gpu = weft::gpu::device_memory();
  if (gpu == nullptr) return Status::error(MPI_ERR_OTHER, "CUDA is not in use in this process");
  return gpu->synchronize(c->gpu_stream);
}

}  // namespace

extern "C" {

int PMPIX_Info_set_hex(MPI_Info info, const char* key, const void* value, int value_size) {
  constexpr const char* fn = "MPIX_Info_set_hex";
  WEFT_LOCKED_CALL();
  if (value_size < 0 || value_size > 64)
    return capi::report(
        kNoComm, fn,
        Status::error(MPI_ERR_ARG,
                      "invalid value_size=" + std::to_string(value_size) + " (0 to 64 bytes)"));
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(value, "value"));
  std::string text;
  for (int i = 0; i < value_size; ++i) {
    char two[3];
    std::snprintf(two, sizeof two, "%02x", static_cast<const unsigned char*>(value)[i]);
    text += two;
  }
  return PMPI_Info_set(info, key, text.c_str());
}

int PMPIX_Stream_create(MPI_Info info, MPIX_Stream* stream) {
  constexpr const char* fn = "MPIX_Stream_create";
  WEFT_REQUIRE_RUNNING(fn);
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(stream, "stream"));
  auto made = std::make_unique<weft_stream>();
  if (info != MPI_INFO_NULL) {
    char type[64] = "";
    int flag = 0;
    WEFT_CHECK(kNoComm, fn,
               PMPI_Info_get(info, "type", int(sizeof type) - 1, type, &flag) == MPI_SUCCESS
                   ? Status::success()
                   : bad_info("not an info object"));
    if (flag != 0) {
      if (std::string(type) != "cudaStream_t")
        return capi::report(
            kNoComm, fn,
            bad_info(std::string("\"type\"=\"") + type + "\" (Weft knows \"cudaStream_t\")"));
      if (weft::gpu::usable_device_memory() == nullptr)
        return capi::report(kNoComm, fn,
                            Status::error(MPI_ERR_OTHER,
                                          "a cudaStream_t stream needs CUDA, which this process "
                                          "does not use (MPIX_Query_cuda_support is 0)"));
      WEFT_CHECK(kNoComm, fn,
                 read_hex(info, "value", &made->cuda_stream, int(sizeof made->cuda_stream)));
      made->cuda = true;
    }
  }
  *stream = made.release();
  return MPI_SUCCESS;
}

int PMPIX_Stream_free(MPIX_Stream* stream) {
  constexpr const char* fn = "MPIX_Stream_free";
  WEFT_REQUIRE_RUNNING(fn);
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(stream, "stream"));
  if (*stream == MPIX_STREAM_NULL)
    return capi::report(kNoComm, fn,
                        Status::error(MPI_ERR_ARG, "invalid *stream=MPIX_STREAM_NULL"));
  delete *stream;
  *stream = MPIX_STREAM_NULL;
  return MPI_SUCCESS;
}

int PMPIX_Stream_comm_create(MPI_Comm comm, MPIX_Stream stream, MPI_Comm* newcomm) {
  constexpr const char* fn = "MPIX_Stream_comm_create";
  WEFT_REQUIRE_RUNNING(fn);
  weft::Comm* parent = nullptr;
  WEFT_CHECK(comm, fn, capi::intra_comm_arg(comm, "comm", &parent));
  WEFT_CHECK(comm, fn, capi::check_not_null(newcomm, "newcomm"));
  if (const int rc = PMPI_Comm_dup(comm, newcomm); rc != MPI_SUCCESS) return rc;
  weft::Comm* made = nullptr;
  WEFT_CHECK(comm, fn, capi::comm_arg(*newcomm, "newcomm", &made));
  made->has_stream = true;
  made->stream_is_cuda = stream != MPIX_STREAM_NULL && stream->cuda;
  made->gpu_stream = made->stream_is_cuda ? stream->cuda_stream : nullptr;
  return MPI_SUCCESS;
}

int PMPIX_Send_enqueue(const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
                       MPI_Comm comm) {
  WEFT_REQUIRE_RUNNING("MPIX_Send_enqueue");
  WEFT_CHECK(comm, "MPIX_Send_enqueue", wait_for_stream(comm));
  return PMPI_Send(buf, count, datatype, dest, tag, comm);
}

int PMPIX_Recv_enqueue(void* buf, int count, MPI_Datatype datatype, int source, int tag,
                       MPI_Comm comm, MPI_Status* status) {
  WEFT_REQUIRE_RUNNING("MPIX_Recv_enqueue");
  WEFT_CHECK(comm, "MPIX_Recv_enqueue", wait_for_stream(comm));
  return PMPI_Recv(buf, count, datatype, source, tag, comm, status);
}

int PMPIX_Isend_enqueue(const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
                        MPI_Comm comm, MPI_Request* request) {
  WEFT_REQUIRE_RUNNING("MPIX_Isend_enqueue");
  WEFT_CHECK(comm, "MPIX_Isend_enqueue", wait_for_stream(comm));
  return PMPI_Isend(buf, count, datatype, dest, tag, comm, request);
}

int PMPIX_Irecv_enqueue(void* buf, int count, MPI_Datatype datatype, int source, int tag,
                        MPI_Comm comm, MPI_Request* request) {
  WEFT_REQUIRE_RUNNING("MPIX_Irecv_enqueue");
  WEFT_CHECK(comm, "MPIX_Irecv_enqueue", wait_for_stream(comm));
  return PMPI_Irecv(buf, count, datatype, source, tag, comm, request);
}

// The requests' data is in place when these return, before any later work on the stream.
int PMPIX_Wait_enqueue(MPI_Request* request, MPI_Status* status) {
  return PMPI_Wait(request, status);
}

int PMPIX_Waitall_enqueue(int count, MPI_Request array_of_requests[],
                          MPI_Status array_of_statuses[]) {
  return PMPI_Waitall(count, array_of_requests, array_of_statuses);
}

int PMPIX_Allreduce_enqueue(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                            MPI_Op op, MPI_Comm comm) {
  WEFT_REQUIRE_RUNNING("MPIX_Allreduce_enqueue");
  WEFT_CHECK(comm, "MPIX_Allreduce_enqueue", wait_for_stream(comm));
  return PMPI_Allreduce(sendbuf, recvbuf, count, datatype, op, comm);
}

}  // extern "C"

WEFT_MPI_ALIAS(MPIX_Info_set_hex)
WEFT_MPI_ALIAS(MPIX_Stream_create)
WEFT_MPI_ALIAS(MPIX_Stream_free)
WEFT_MPI_ALIAS(MPIX_Stream_comm_create)
WEFT_MPI_ALIAS(MPIX_Send_enqueue)
WEFT_MPI_ALIAS(MPIX_Recv_enqueue)
WEFT_MPI_ALIAS(MPIX_Isend_enqueue)
WEFT_MPI_ALIAS(MPIX_Irecv_enqueue)
WEFT_MPI_ALIAS(MPIX_Wait_enqueue)
WEFT_MPI_ALIAS(MPIX_Waitall_enqueue)
WEFT_MPI_ALIAS(MPIX_Allreduce_enqueue)
