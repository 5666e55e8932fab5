// The stream-ordered extension, as MPICH spells it: MPIX_Stream objects naming a CUDA stream,
// communicators bound to one, and MPIX_*_enqueue calls ordered with the stream's work. On a CUDA
// stream a call checks its arguments, queues its work at its place in the stream
// (runtime/streams/) and returns at once; the stream's later work sees its result. On a
// host-only stream (made from MPI_INFO_NULL) there is nothing to order with: the calls run at
// once, as their plain forms.
#include <cstdio>
#include <map>
#include <memory>
#include <string>

#include "gpu/memory.hpp"
#include "mpi.h"
#include "runtime/c_api/coll_call.hpp"
#include "runtime/c_api/guard.hpp"
#include "runtime/c_api/pt2pt_args.hpp"
#include "runtime/streams/enqueued_calls.hpp"
#include "runtime/streams/enqueued_nccl.hpp"
#include "runtime/world.hpp"

using weft::Status;
namespace capi = weft::capi;
namespace streams = weft::streams;

struct weft_stream {
  // The queue of a CUDA stream's enqueued calls; null for a host-only stream.
  std::shared_ptr<streams::StreamQueue> queue;
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

// The streams MPIX_Stream_create made and MPIX_Stream_free has not freed, by handle; the
// communicators made on one hold it too (weft::Comm::stream).
// Never destroyed: streams the application did not free stay until the process ends, as their
// queues may not be torn down after the CUDA driver.
std::map<MPIX_Stream, std::shared_ptr<weft_stream>>& user_streams() {
  static auto* streams = new std::map<MPIX_Stream, std::shared_ptr<weft_stream>>;
  return *streams;
}

// The stream behind a handle the application holds; MPI_ERR_ARG for one that is not (made
// elsewhere, or freed).
Status user_stream(MPIX_Stream stream, std::shared_ptr<weft_stream>* out) {
  auto found = user_streams().find(stream);
  if (found == user_streams().end()) {
    char text[32];
    std::snprintf(text, sizeof text, "%p", static_cast<void*>(stream));
    return Status::error(MPI_ERR_ARG, std::string("invalid stream=") + text +
                                          " (not made by MPIX_Stream_create, or freed)");
  }
  *out = found->second;
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

// comm's CUDA stream queue (null for a host-only stream), once a failure of its earlier work,
// if any, is reported.
Status queue_of(MPI_Comm comm, streams::StreamQueue** queue) {
  weft::Comm* c = nullptr;
  WEFT_TRY(stream_of(comm, &c));
  *queue = c->stream_queue.get();
  return *queue != nullptr ? (*queue)->take_failure() : Status::success();
}

// The bodies of each enqueue call's int and large-count (_c) forms. On a host-only stream the
// plain call runs now.
int send_enqueue(const char* fn, const void* buf, MPI_Count count, MPI_Datatype datatype, int dest,
                 int tag, MPI_Comm comm) {
  WEFT_REQUIRE_RUNNING(fn);
  streams::StreamQueue* q = nullptr;
  WEFT_CHECK(comm, fn, queue_of(comm, &q));
  if (q == nullptr) return PMPI_Send_c(buf, count, datatype, dest, tag, comm);
  capi::MessageArgs m;
  WEFT_CHECK(comm, fn,
             capi::check_send(buf, count, datatype, dest, tag, comm, capi::kArgs, "tag", &m));
  return capi::report(comm, fn, streams::send(*q, buf, count, datatype, dest, tag, comm));
}

int recv_enqueue(const char* fn, void* buf, MPI_Count count, MPI_Datatype datatype, int source,
                 int tag, MPI_Comm comm, MPI_Status* status) {
  WEFT_REQUIRE_RUNNING(fn);
  streams::StreamQueue* q = nullptr;
  WEFT_CHECK(comm, fn, queue_of(comm, &q));
  if (q == nullptr) return PMPI_Recv_c(buf, count, datatype, source, tag, comm, status);
  capi::MessageArgs m;
  WEFT_CHECK(comm, fn,
             capi::check_recv(buf, count, datatype, source, tag, comm, capi::kArgs, "tag", &m));
  return capi::report(comm, fn, streams::recv(*q, buf, count, datatype, source, tag, comm, status));
}

int isend_enqueue(const char* fn, const void* buf, MPI_Count count, MPI_Datatype datatype, int dest,
                  int tag, MPI_Comm comm, MPI_Request* request) {
  WEFT_REQUIRE_RUNNING(fn);
  streams::StreamQueue* q = nullptr;
  WEFT_CHECK(comm, fn, queue_of(comm, &q));
  if (q == nullptr) return PMPI_Isend_c(buf, count, datatype, dest, tag, comm, request);
  capi::MessageArgs m;
  WEFT_CHECK(comm, fn,
             capi::check_send(buf, count, datatype, dest, tag, comm, capi::kArgs, "tag", &m));
  WEFT_CHECK(comm, fn, capi::check_not_null(request, "request"));
  return capi::report(comm, fn, streams::isend(*q, buf, count, datatype, dest, tag, comm, request));
}

int irecv_enqueue(const char* fn, void* buf, MPI_Count count, MPI_Datatype datatype, int source,
                  int tag, MPI_Comm comm, MPI_Request* request) {
  WEFT_REQUIRE_RUNNING(fn);
  streams::StreamQueue* q = nullptr;
  WEFT_CHECK(comm, fn, queue_of(comm, &q));
  if (q == nullptr) return PMPI_Irecv_c(buf, count, datatype, source, tag, comm, request);
  capi::MessageArgs m;
  WEFT_CHECK(comm, fn,
             capi::check_recv(buf, count, datatype, source, tag, comm, capi::kArgs, "tag", &m));
  WEFT_CHECK(comm, fn, capi::check_not_null(request, "request"));
  return capi::report(comm, fn,
                      streams::irecv(*q, buf, count, datatype, source, tag, comm, request));
}

int allreduce_enqueue(const char* fn, const void* sendbuf, void* recvbuf, MPI_Count count,
                      MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  WEFT_REQUIRE_RUNNING(fn);
  streams::StreamQueue* q = nullptr;
  WEFT_CHECK(comm, fn, queue_of(comm, &q));
  if (q == nullptr) return PMPI_Allreduce_c(sendbuf, recvbuf, count, datatype, op, comm);
  const weft::Datatype* type = nullptr;
  WEFT_CHECK(
      comm, fn,
      capi::check_typed(sendbuf, count, datatype, "sendbuf", "count", "datatype", true, &type));
  WEFT_CHECK(
      comm, fn,
      capi::check_typed(recvbuf, count, datatype, "recvbuf", "count", "datatype", false, &type));
  weft::Reduction reduction;  // checks op and whether it applies to the datatype
  WEFT_CHECK(comm, fn, weft::world().ops.bind(op, *type, &reduction));
  bool through_nccl = false;
  const weft::Status s = streams::allreduce_on_nccl(*q, sendbuf, recvbuf, count, datatype, *type,
                                                    reduction, comm, &through_nccl);
  if (!s.ok() || through_nccl) return capi::report(comm, fn, s);
  return capi::report(comm, fn,
                      streams::allreduce(*q, sendbuf, recvbuf, count, datatype, op, comm));
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
  auto made = std::make_shared<weft_stream>();
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
      void* cuda_stream = nullptr;
      WEFT_CHECK(kNoComm, fn, read_hex(info, "value", &cuda_stream, int(sizeof cuda_stream)));
      made->queue = std::make_shared<streams::StreamQueue>(cuda_stream);
    }
  }
  *stream = made.get();
  user_streams()[made.get()] = std::move(made);
  return MPI_SUCCESS;
}

int PMPIX_Stream_free(MPIX_Stream* stream) {
  constexpr const char* fn = "MPIX_Stream_free";
  WEFT_REQUIRE_RUNNING(fn);
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(stream, "stream"));
  if (*stream == MPIX_STREAM_NULL)
    return capi::report(kNoComm, fn,
                        Status::error(MPI_ERR_ARG, "invalid *stream=MPIX_STREAM_NULL"));
  std::shared_ptr<weft_stream> held;
  WEFT_CHECK(kNoComm, fn, user_stream(*stream, &held));
  if (held->queue) WEFT_CHECK(kNoComm, fn, held->queue->drain());
  user_streams().erase(*stream);  // communicators made on it keep it
  *stream = MPIX_STREAM_NULL;
  return MPI_SUCCESS;
}

int PMPIX_Stream_comm_create(MPI_Comm comm, MPIX_Stream stream, MPI_Comm* newcomm) {
  constexpr const char* fn = "MPIX_Stream_comm_create";
  WEFT_REQUIRE_RUNNING(fn);
  weft::Comm* parent = nullptr;
  WEFT_CHECK(comm, fn, capi::intra_comm_arg(comm, "comm", &parent));
  WEFT_CHECK(comm, fn, capi::check_not_null(newcomm, "newcomm"));
  std::shared_ptr<weft_stream> held;
  if (stream != MPIX_STREAM_NULL) WEFT_CHECK(comm, fn, user_stream(stream, &held));
  if (const int rc = PMPI_Comm_dup(comm, newcomm); rc != MPI_SUCCESS) return rc;
  weft::Comm* made = nullptr;
  WEFT_CHECK(comm, fn, capi::comm_arg(*newcomm, "newcomm", &made));
  made->has_stream = true;
  made->stream = held;
  if (held) made->stream_queue = held->queue;
  return MPI_SUCCESS;
}

int PMPIX_Send_enqueue(const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
                       MPI_Comm comm) {
  return send_enqueue("MPIX_Send_enqueue", buf, count, datatype, dest, tag, comm);
}
int PMPIX_Send_enqueue_c(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                         MPI_Comm comm) {
  return send_enqueue("MPIX_Send_enqueue_c", buf, count, datatype, dest, tag, comm);
}

int PMPIX_Recv_enqueue(void* buf, int count, MPI_Datatype datatype, int source, int tag,
                       MPI_Comm comm, MPI_Status* status) {
  return recv_enqueue("MPIX_Recv_enqueue", buf, count, datatype, source, tag, comm, status);
}
int PMPIX_Recv_enqueue_c(void* buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                         MPI_Comm comm, MPI_Status* status) {
  return recv_enqueue("MPIX_Recv_enqueue_c", buf, count, datatype, source, tag, comm, status);
}

int PMPIX_Isend_enqueue(const void* buf, int count, MPI_Datatype datatype, int dest, int tag,
                        MPI_Comm comm, MPI_Request* request) {
  return isend_enqueue("MPIX_Isend_enqueue", buf, count, datatype, dest, tag, comm, request);
}
int PMPIX_Isend_enqueue_c(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest,
                          int tag, MPI_Comm comm, MPI_Request* request) {
  return isend_enqueue("MPIX_Isend_enqueue_c", buf, count, datatype, dest, tag, comm, request);
}

int PMPIX_Irecv_enqueue(void* buf, int count, MPI_Datatype datatype, int source, int tag,
                        MPI_Comm comm, MPI_Request* request) {
  return irecv_enqueue("MPIX_Irecv_enqueue", buf, count, datatype, source, tag, comm, request);
}
int PMPIX_Irecv_enqueue_c(void* buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                          MPI_Comm comm, MPI_Request* request) {
  return irecv_enqueue("MPIX_Irecv_enqueue_c", buf, count, datatype, source, tag, comm, request);
}

// A request of MPIX_Isend_enqueue or MPIX_Irecv_enqueue on a CUDA stream completes at this
// point of its stream; any other request is waited for now, before the stream's later work.
int PMPIX_Wait_enqueue(MPI_Request* request, MPI_Status* status) {
  constexpr const char* fn = "MPIX_Wait_enqueue";
  WEFT_REQUIRE_RUNNING(fn);
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(request, "request"));
  if (!streams::is_enqueued(*request)) return PMPI_Wait(request, status);
  return capi::report(kNoComm, fn, streams::wait(request, status));
}

int PMPIX_Waitall_enqueue(int count, MPI_Request array_of_requests[],
                          MPI_Status array_of_statuses[]) {
  constexpr const char* fn = "MPIX_Waitall_enqueue";
  WEFT_REQUIRE_RUNNING(fn);
  if (count < 0)
    return capi::report(kNoComm, fn,
                        Status::error(MPI_ERR_COUNT, "invalid count=" + std::to_string(count)));
  if (count > 0) WEFT_CHECK(kNoComm, fn, capi::check_not_null(array_of_requests, "requests"));
  for (int i = 0; i < count; ++i) {
    MPI_Status* status =
        array_of_statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &array_of_statuses[i];
    if (const int rc = PMPIX_Wait_enqueue(&array_of_requests[i], status); rc != MPI_SUCCESS)
      return rc;
  }
  return MPI_SUCCESS;
}

int PMPIX_Allreduce_enqueue(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype,
                            MPI_Op op, MPI_Comm comm) {
  return allreduce_enqueue("MPIX_Allreduce_enqueue", sendbuf, recvbuf, count, datatype, op, comm);
}
int PMPIX_Allreduce_enqueue_c(const void* sendbuf, void* recvbuf, MPI_Count count,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm) {
  return allreduce_enqueue("MPIX_Allreduce_enqueue_c", sendbuf, recvbuf, count, datatype, op, comm);
}

// The stream a stream communicator was made with (MPIX_STREAM_NULL for any other communicator);
// `idx` picks one of several streams in MPICH's multiplexed communicators, which Weft does not
// make: 0 or -1.
int PMPIX_Comm_get_stream(MPI_Comm comm, int idx, MPIX_Stream* stream) {
  constexpr const char* fn = "MPIX_Comm_get_stream";
  WEFT_REQUIRE_RUNNING(fn);
  weft::Comm* c = nullptr;
  WEFT_CHECK(comm, fn, capi::comm_arg(comm, "comm", &c));
  WEFT_CHECK(comm, fn, capi::check_not_null(stream, "stream"));
  if (idx != 0 && idx != -1)
    return capi::report(comm, fn,
                        Status::error(MPI_ERR_ARG, "invalid idx=" + std::to_string(idx) +
                                                       " (a communicator has one stream: 0)"));
  *stream = c->has_stream ? c->stream.get() : MPIX_STREAM_NULL;
  return MPI_SUCCESS;
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
WEFT_MPI_ALIAS(MPIX_Send_enqueue_c)
WEFT_MPI_ALIAS(MPIX_Recv_enqueue_c)
WEFT_MPI_ALIAS(MPIX_Isend_enqueue_c)
WEFT_MPI_ALIAS(MPIX_Irecv_enqueue_c)
WEFT_MPI_ALIAS(MPIX_Allreduce_enqueue_c)
WEFT_MPI_ALIAS(MPIX_Comm_get_stream)
