// The fake NCCL's arithmetic: NCCL's element types (ncclDataType_t) and reduction ops
// (ncclRedOp_t) folded element by element on the host, half and bfloat16 through float.
#pragma once
#include <cstddef>

namespace fake_nccl {

// Bytes of one element of NCCL type `type`; 0 for a type NCCL does not have.
size_t element_size(int type);
// acc[i] = acc[i] op in[i] for i < n; false for an op or type NCCL does not have.
bool fold(int op, int type, void* acc, const void* in, size_t n);

}  // namespace fake_nccl
