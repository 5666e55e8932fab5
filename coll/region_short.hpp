// The short paths of the small blocking collectives programs repeat most (barrier, bcast,
// reduce, allreduce, allgather, alltoall, reduce_scatter_block) on a communicator that has a node
// region (coll/node_region.hpp). Where the cost model gives the call to the region algorithm
// (coll/algorithms/*_shm.cpp) and the call is plainly valid (a predefined type without gaps, a
// predefined op, host buffers, the collective check off), the call runs here: the same posts and
// fetches, in the same slots with the same call numbers and the same fold order as the region
// schedules, so ranks on either path meet and get the same bits, but without a call spec, a
// prepared schedule or an executor pass. Anything else returns false having done nothing, and the
// call takes the general path, which checks everything and reports errors. They step aside whenever
// several threads may be in the library (MPI_THREAD_MULTIPLE, a library thread at work).
#pragma once
#include "mpi.h"
#include "runtime/status.hpp"

namespace weft::coll {

// Each returns true when it ran the call, with its outcome in *out.
bool short_barrier(MPI_Comm comm, Status* out);
bool short_bcast(void* buf, MPI_Count count, MPI_Datatype type, int root, MPI_Comm comm,
                 Status* out);
bool short_reduce(const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype type, MPI_Op op,
                  int root, MPI_Comm comm, Status* out);
bool short_allreduce(const void* sendbuf, void* recvbuf, MPI_Count count, MPI_Datatype type,
                     MPI_Op op, MPI_Comm comm, Status* out);
bool short_allgather(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                     MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, Status* out);
bool short_alltoall(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                    MPI_Count recvcount, MPI_Datatype recvtype, MPI_Comm comm, Status* out);
bool short_reduce_scatter_block(const void* sendbuf, void* recvbuf, MPI_Count recvcount,
                                MPI_Datatype type, MPI_Op op, MPI_Comm comm, Status* out);

}  // namespace weft::coll
