// What the point-to-point entry points share: the checks of one message's arguments (buffer,
// count, datatype, peer, tag, communicator), with counts as MPI_Count so that the int forms and
// the large-count (_c) forms go through the same checks.
#pragma once
#include <cstddef>

#include "mpi.h"
#include "runtime/c_api/guard.hpp"
#include "runtime/datatype/datatype.hpp"

namespace weft::capi {

// The argument names of one side of a call, for error messages.
struct ArgNames {
  const char* buf;
  const char* count;
  const char* datatype;
};
inline constexpr ArgNames kArgs{"buf", "count", "datatype"};
inline constexpr ArgNames kSendArgs{"sendbuf", "sendcount", "sendtype"};
inline constexpr ArgNames kRecvArgs{"recvbuf", "recvcount", "recvtype"};

// A checked message: its communicator, committed datatype and element count.
struct MessageArgs {
  Comm* comm = nullptr;
  const Datatype* type = nullptr;
  size_t count = 0;
};

// Buffer, count and datatype only (the communicator is not looked up).
Status check_message(const void* buf, MPI_Count count, MPI_Datatype datatype, const ArgNames& args,
                     MessageArgs* m);
Status check_send(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                  MPI_Comm comm, const ArgNames& args, const char* tag_arg, MessageArgs* m);
Status check_recv(const void* buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                  MPI_Comm comm, const ArgNames& args, const char* tag_arg, MessageArgs* m);
// The envelope of a probe or matched probe.
Status check_probe(int source, int tag, MPI_Comm comm, Comm** c);

}  // namespace weft::capi
