// The stream-ordered calls on a CUDA stream's queue (stream_queue.hpp), their arguments checked
// by the caller: each stages device data through the queue's pinned blocks, runs its MPI call on
// the queue's thread at its place in the stream, and copies results back on the stream. Requests
// of MPIX_Isend_enqueue and MPIX_Irecv_enqueue are generalized requests that their
// MPIX_Wait_enqueue completes on the queue's thread.
#pragma once
#include "mpi.h"
#include "runtime/status.hpp"
#include "runtime/streams/stream_queue.hpp"

namespace weft::streams {

Status send(StreamQueue& q, const void* buf, MPI_Count count, MPI_Datatype type, int dest, int tag,
            MPI_Comm comm);
Status recv(StreamQueue& q, void* buf, MPI_Count count, MPI_Datatype type, int source, int tag,
            MPI_Comm comm, MPI_Status* status);
Status isend(StreamQueue& q, const void* buf, MPI_Count count, MPI_Datatype type, int dest, int tag,
             MPI_Comm comm, MPI_Request* request);
Status irecv(StreamQueue& q, void* buf, MPI_Count count, MPI_Datatype type, int source, int tag,
             MPI_Comm comm, MPI_Request* request);
// Whether `request` came from isend or irecv (and is not yet waited for).
bool is_enqueued(MPI_Request request);
// Completes such a request at this point of its stream; *request becomes MPI_REQUEST_NULL now,
// *status (unless MPI_STATUS_IGNORE) is written when the stream gets here.
Status wait(MPI_Request* request, MPI_Status* status);
Status allreduce(StreamQueue& q, const void* sendbuf, void* recvbuf, MPI_Count count,
                 MPI_Datatype type, MPI_Op op, MPI_Comm comm);

}  // namespace weft::streams
