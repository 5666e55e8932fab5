// What every collective entry point shares: the three forms of a call (blocking, MPI_I*,
// MPI_*_init), argument checks that collectives add to point-to-point's, and the hand-over of a
// checked call to coll/.
#pragma once
#include <vector>

#include "coll/coll.hpp"
#include "coll/regular_call.hpp"
#include "mpi.h"
#include "runtime/c_api/count_array.hpp"
#include "runtime/c_api/guard.hpp"

namespace weft::capi {

enum class Form { kBlocking, kNonblocking, kPersistent };

// Runs, starts or prepares the call per `form`; returns the MPI code, with errors raised on
// `comm`. `request` must be non-null for the nonblocking and persistent forms (checked here).
int launch(const char* fn, MPI_Comm comm, Comm& c, coll::CallSpec& spec, Form form,
           MPI_Request* request);

// The communicator behind `comm`, or an error naming it.
Status collective_comm(MPI_Comm comm, Comm** out);
// Bytes of one element of `type`, or MPI_ERR_TYPE naming `arg`.
Status element_size(MPI_Datatype type, const char* arg, size_t* out);
// A buffer argument: NULL only with count 0; MPI_IN_PLACE only where `in_place_ok`.
Status check_coll_buffer(const void* buf, size_t count, const char* arg, bool in_place_ok);
// count, datatype and buffer of one side of a collective; *bytes = count × element size.
Status check_side(const void* buf, MPI_Count count, MPI_Datatype type, const char* buf_arg,
                  const char* count_arg, const char* type_arg, bool in_place_ok, size_t* bytes,
                  size_t* elem_size);
Status check_root(const Comm& c, int root);
// Per-rank counts and displacements (in elements of `elem_size` bytes) as byte blocks.
Status vector_blocks(int n, CountArray counts, CountArray displs, size_t elem_size,
                     const char* counts_arg, const char* displs_arg, std::vector<coll::Block>* out);
// Binds `op` to `type` for a reduction; MPI_ERR_OP if it is not defined for the type.
Status bind_op(MPI_Op op, MPI_Datatype type, size_t elem_size, Reduction* out);
// MPI_ERR_TRUNCATE unless the two sides of a collective carry the same number of bytes.
Status check_same_bytes(size_t send_bytes, size_t recv_bytes, const char* what);
// MPI_ERR_BUFFER when sendbuf and recvbuf are the same non-empty buffer (use MPI_IN_PLACE).
Status check_not_aliased(const void* sendbuf, const void* recvbuf, size_t bytes);

}  // namespace weft::capi
