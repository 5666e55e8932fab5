// What every collective entry point shares: the three forms of a call (blocking, MPI_I*,
// MPI_*_init), argument checks that collectives add to point-to-point's, and the hand-over of a
// checked call to coll/.
#pragma once
#include <vector>

#include "coll/coll.hpp"
#include "coll/region_short.hpp"
#include "coll/regular_call.hpp"
#include "mpi.h"
#include "runtime/c_api/guard.hpp"
#include "runtime/datatype/count_array.hpp"
#include "runtime/datatype/datatype.hpp"

namespace weft::capi {

using weft::CountArray;

enum class Form { kBlocking, kNonblocking, kPersistent };

// Runs, starts or prepares the call per `form`; returns the MPI code, with errors raised on
// `comm`. `request` must be non-null for the nonblocking and persistent forms (checked here).
int launch(const char* fn, MPI_Comm comm, Comm& c, coll::CallSpec& spec, Form form,
           MPI_Request* request);

// What the collective check (WEFT_CHECK_COLLECTIVES=1) shows of a call and compares beyond its
// CollArgs; nothing while the check is off. A negative count or a null type is not shown;
// MPI_OP_NULL: not a reduction.
void describe(coll::CallSpec& spec, MPI_Count count, const Datatype* type, MPI_Op op,
              bool in_place);

// The communicator behind `comm`, or an error naming it.
Status collective_comm(MPI_Comm comm, Comm** out);
// A root: a rank of `c`; on an intercommunicator MPI_ROOT, MPI_PROC_NULL or a remote rank.
Status check_root(const Comm& c, int root);
// Whether this rank is the root of a rooted call (MPI_ROOT on an intercommunicator).
inline bool is_root(const Comm& c, int root) {
  return c.is_inter() ? root == MPI_ROOT : c.rank == root;
}
// A rooted call on an intercommunicator at a rank that passed MPI_PROC_NULL (the root is another
// rank of its group): it takes part, moving nothing; its other arguments are not significant.
inline bool sits_out(const Comm& c, int root) { return c.is_inter() && root == MPI_PROC_NULL; }
int launch_idle(const char* fn, MPI_Comm comm, Comm& c, coll::CollKind kind, Form form,
                MPI_Request* request);
// A buffer argument: NULL only with count 0 (or a derived type, whose displacements may be
// absolute: MPI_BOTTOM); MPI_IN_PLACE only where `in_place_ok`.
Status check_coll_buffer(const void* buf, size_t count, const Datatype* type, const char* arg,
                         bool in_place_ok);
// count, committed datatype and buffer of one side of a collective. For MPI_IN_PLACE where it
// is allowed, count and type are ignored and *type is null.
Status check_typed(const void* buf, MPI_Count count, MPI_Datatype type, const char* buf_arg,
                   const char* count_arg, const char* type_arg, bool in_place_ok,
                   const Datatype** out);

// One block of a collective buffer as the user describes it: `count` elements of `type` starting
// `displacement` bytes from the buffer.
struct UserBlock {
  ptrdiff_t displacement = 0;
  MPI_Count count = 0;
  const Datatype* type = nullptr;
  size_t bytes() const { return size_t(count) * type->size(); }
};
// `n` blocks of `count` elements of `type`, one after another (the regular collectives).
std::vector<UserBlock> regular_side(int n, MPI_Count count, const Datatype* type);
// `n` blocks from counts and displacements (each >= 0): in extents of `type` (the v-variants),
// or, with `types` non-null (alltoallw and its neighbourhood form), in bytes with a type per
// block. A block of count 0 may have MPI_DATATYPE_NULL (see find_message_datatype). The *_arg
// names are the user's argument names (type_arg: `type`'s or `types`'), used in error messages.
Status vector_side(int n, CountArray counts, CountArray displs, MPI_Datatype type,
                   const MPI_Datatype* types, const char* counts_arg, const char* displs_arg,
                   const char* type_arg, std::vector<UserBlock>* out);
// The buffer of a side given block by block (the v and w forms, neighbourhood collectives
// included): not MPI_IN_PLACE; NULL is MPI_BOTTOM, whose displacements are absolute addresses, so
// it fails only where a non-empty block of a predefined type would start in the first page
// (where no process has data: a NULL buffer passed by mistake).
Status check_side_buffer(const void* buf, const std::vector<UserBlock>& side, const char* arg);
// Where the schedule finds a side's blocks: in the user's buffer (offsets from it) when every
// block's data is contiguous, else packed one after another into `typed`.
std::vector<coll::Block> place_blocks(const std::vector<UserBlock>& side, coll::TypedBuffer* typed);
// A one-block side (broadcast, the reductions): the address to bind, the data's start when it is
// contiguous, else the user's buffer, whose block then packs into `typed`.
void* place_single(const void* buf, MPI_Count count, const Datatype* type,
                   coll::TypedBuffer* typed);
// Bytes from a placed side's start to the end of its last block.
size_t placed_extent(const std::vector<coll::Block>& blocks);

// MPI_ERR_TRUNCATE unless the two sides of a collective carry the same number of bytes.
Status check_same_bytes(size_t send_bytes, size_t recv_bytes, const char* what);
// MPI_ERR_BUFFER when sendbuf and recvbuf are the same non-empty buffer (use MPI_IN_PLACE).
Status check_not_aliased(const void* sendbuf, const void* recvbuf, size_t bytes);

}  // namespace weft::capi
