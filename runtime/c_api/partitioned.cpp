// Partitioned communication chapter (MPI 4.1 chapter 4): MPI_Psend_init, MPI_Precv_init,
// MPI_Pready, MPI_Pready_range, MPI_Pready_list and MPI_Parrived. MPI_Start/Startall, the
// Wait/Test forms and MPI_Request_free (runtime/c_api/requests.cpp) work on these requests too.
#include "pt2pt/partitioned/partitioned.hpp"

#include <string>

#include "mpi.h"
#include "runtime/c_api/host_buffer.hpp"
#include "runtime/c_api/pt2pt_args.hpp"
#include "runtime/c_api/request_status.hpp"
#include "runtime/comm/info_objects.hpp"

using weft::Status;
using weft::world;
namespace capi = weft::capi;
namespace part = weft::partitioned;

namespace {

// The arguments both init calls share beyond check_send/check_recv's: the partition count and
// the info object (accepted, no hints are read), and no wildcards on a receive (§4.2.2).
Status check_partitioned(int partitions, MPI_Count count, MPI_Info info, bool send, int peer,
                         int tag) {
  if (partitions < 0) {
    return Status::error(MPI_ERR_ARG,
                         "invalid partitions=" + std::to_string(partitions) + " (must be >= 0)");
  }
  if (send && partitions > part::kMaxSendPartitions) {
    return Status::error(
        MPI_ERR_ARG, "invalid partitions=" + std::to_string(partitions) + " (Weft sends at most " +
                         std::to_string(part::kMaxSendPartitions) + " partitions per request)");
  }
  WEFT_TRY(capi::check_count(count, "count"));
  if (info != MPI_INFO_NULL) {
    const weft::InfoEntries* entries = nullptr;
    WEFT_TRY(weft::infos().entries(info, "info", &entries));
  }
  if (peer == MPI_ANY_SOURCE) {
    return Status::error(MPI_ERR_RANK,
                         "invalid source=MPI_ANY_SOURCE (a partitioned receive names its source)");
  }
  if (tag == MPI_ANY_TAG) {
    return Status::error(MPI_ERR_TAG,
                         "invalid tag=MPI_ANY_TAG (a partitioned receive names its tag)");
  }
  return Status::success();
}

// The partitioned send `request` is, started (active), for MPI_Pready and friends.
Status active_send(MPI_Request request, part::SendSide** out) {
  if (request == MPI_REQUEST_NULL)
    return Status::error(MPI_ERR_REQUEST, "invalid request=MPI_REQUEST_NULL");
  *out = part::send_side(request);
  if (*out == nullptr) {
    return Status::error(MPI_ERR_REQUEST, part::recv_side(request) != nullptr
                                              ? "invalid request: a partitioned receive (only a "
                                                "partitioned send has partitions to mark ready)"
                                              : "invalid request: not a partitioned send "
                                                "(from MPI_Psend_init)");
  }
  if (!request->active) {
    return Status::error(MPI_ERR_REQUEST,
                         "the partitioned send request is inactive (call MPI_Start first)");
  }
  return Status::success();
}

// Where errors about `request` are raised.
MPI_Comm comm_of(MPI_Request request) {
  return request == MPI_REQUEST_NULL ? MPI_COMM_WORLD : request->comm;
}

}  // namespace

extern "C" {

int PMPI_Psend_init(const void* buf, int partitions, MPI_Count count, MPI_Datatype datatype,
                    int dest, int tag, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  constexpr const char* fn = "MPI_Psend_init";
  WEFT_REQUIRE_RUNNING(fn);
  capi::MessageArgs m;
  WEFT_CHECK(comm, fn, check_partitioned(partitions, count, info, true, dest, tag));
  WEFT_CHECK(comm, fn,
             capi::check_send(buf, MPI_Count(partitions) * count, datatype, dest, tag, comm,
                              capi::kArgs, "tag", &m));
  WEFT_CHECK(comm, fn, capi::check_host_buffer(buf, "buf", "partitioned calls"));
  WEFT_CHECK(comm, fn, capi::check_not_null(request, "request"));
  return capi::start_pooled(comm, fn, request, [&](weft::Request* r) {
    return part::init_send(*m.comm, buf, partitions, size_t(count), *m.type, dest, tag, r);
  });
}

int PMPI_Precv_init(void* buf, int partitions, MPI_Count count, MPI_Datatype datatype, int source,
                    int tag, MPI_Comm comm, MPI_Info info, MPI_Request* request) {
  constexpr const char* fn = "MPI_Precv_init";
  WEFT_REQUIRE_RUNNING(fn);
  capi::MessageArgs m;
  WEFT_CHECK(comm, fn, check_partitioned(partitions, count, info, false, source, tag));
  WEFT_CHECK(comm, fn,
             capi::check_recv(buf, MPI_Count(partitions) * count, datatype, source, tag, comm,
                              capi::kArgs, "tag", &m));
  WEFT_CHECK(comm, fn, capi::check_host_buffer(buf, "buf", "partitioned calls"));
  WEFT_CHECK(comm, fn, capi::check_not_null(request, "request"));
  return capi::start_pooled(comm, fn, request, [&](weft::Request* r) {
    return part::init_recv(*m.comm, buf, partitions, size_t(count), *m.type, source, tag, r);
  });
}

int PMPI_Pready(int partition, MPI_Request request) {
  constexpr const char* fn = "MPI_Pready";
  WEFT_REQUIRE_RUNNING(fn);
  part::SendSide* send = nullptr;
  WEFT_CHECK(comm_of(request), fn, active_send(request, &send));
  return capi::report(request->comm, fn, send->ready(partition, "partition"));
}

int PMPI_Pready_range(int partition_low, int partition_high, MPI_Request request) {
  constexpr const char* fn = "MPI_Pready_range";
  WEFT_REQUIRE_RUNNING(fn);
  part::SendSide* send = nullptr;
  WEFT_CHECK(comm_of(request), fn, active_send(request, &send));
  WEFT_CHECK(request->comm, fn, send->check_partition(partition_low, "partition_low"));
  WEFT_CHECK(request->comm, fn, send->check_partition(partition_high, "partition_high"));
  if (partition_high < partition_low) {
    return capi::report(
        request->comm, fn,
        Status::error(MPI_ERR_ARG, "invalid range partition_low=" + std::to_string(partition_low) +
                                       " > partition_high=" + std::to_string(partition_high)));
  }
  for (int p = partition_low; p <= partition_high; ++p)
    WEFT_CHECK(request->comm, fn, send->ready(p, "partition"));
  return MPI_SUCCESS;
}

int PMPI_Pready_list(int length, const int array_of_partitions[], MPI_Request request) {
  constexpr const char* fn = "MPI_Pready_list";
  WEFT_REQUIRE_RUNNING(fn);
  part::SendSide* send = nullptr;
  WEFT_CHECK(comm_of(request), fn, active_send(request, &send));
  WEFT_CHECK(request->comm, fn, capi::check_count(length, "length"));
  if (length > 0)
    WEFT_CHECK(request->comm, fn, capi::check_not_null(array_of_partitions, "array_of_partitions"));
  for (int i = 0; i < length; ++i) {
    const std::string arg = "array_of_partitions[" + std::to_string(i) + "]";
    WEFT_CHECK(request->comm, fn, send->ready(array_of_partitions[i], arg.c_str()));
  }
  return MPI_SUCCESS;
}

int PMPI_Parrived(MPI_Request request, int partition, int* flag) {
  constexpr const char* fn = "MPI_Parrived";
  WEFT_REQUIRE_RUNNING(fn);
  if (request == MPI_REQUEST_NULL) {
    return capi::report(MPI_COMM_WORLD, fn,
                        Status::error(MPI_ERR_REQUEST, "invalid request=MPI_REQUEST_NULL"));
  }
  part::RecvSide* recv = part::recv_side(request);
  if (recv == nullptr) {
    return capi::report(
        request->comm, fn,
        Status::error(MPI_ERR_REQUEST, part::send_side(request) != nullptr
                                           ? "invalid request: a partitioned send (MPI_Parrived "
                                             "takes a partitioned receive)"
                                           : "invalid request: not a partitioned receive (from "
                                             "MPI_Precv_init)"));
  }
  WEFT_CHECK(request->comm, fn, recv->check_partition(partition, "partition"));
  WEFT_CHECK(request->comm, fn, capi::check_not_null(flag, "flag"));
  if (!recv->arrived(partition)) {
    world().progress.poll();
    *flag = recv->arrived(partition);
  } else {
    *flag = 1;
  }
  return MPI_SUCCESS;
}

}  // extern "C"

// The profiling interface: each MPI_X is a weak alias of PMPI_X (runtime/c_api/guard.hpp).
WEFT_MPI_ALIAS(MPI_Psend_init)
WEFT_MPI_ALIAS(MPI_Precv_init)
WEFT_MPI_ALIAS(MPI_Pready)
WEFT_MPI_ALIAS(MPI_Pready_range)
WEFT_MPI_ALIAS(MPI_Pready_list)
WEFT_MPI_ALIAS(MPI_Parrived)
