// NCCL loaded with dlopen at run time: its types and values as nccl.h defines them (declared here,
// so the build needs no nccl.h), the table of entry points Weft calls, the loader, and which MPI
// datatypes and ops NCCL reduces.
#pragma once
#include <cstddef>
#include <string>

#include "mpi.h"

namespace weft::gpu {

// nccl.h's ncclResult_t, ncclDataType_t, ncclRedOp_t (enums of int size), ncclComm_t and
// ncclUniqueId (128 bytes, NCCL_UNIQUE_ID_BYTES), passed by value to ncclCommInitRank.
using NcclResult = int;
using NcclDataType = int;
using NcclRedOp = int;
using NcclComm = struct NcclCommOpaque*;
using CudaStreamHandle = void*;  // cudaStream_t
struct NcclUniqueId {
  char internal[128];
};
inline constexpr NcclResult kNcclSuccess = 0;
inline constexpr NcclResult kNcclInvalidUsage = 5;
inline constexpr NcclResult kNcclInProgress = 7;
inline constexpr NcclDataType kNcclInt8 = 0, kNcclUint8 = 1, kNcclInt32 = 2, kNcclUint32 = 3,
                              kNcclInt64 = 4, kNcclUint64 = 5, kNcclFloat16 = 6, kNcclFloat32 = 7,
                              kNcclFloat64 = 8, kNcclBfloat16 = 9;
inline constexpr NcclRedOp kNcclSum = 0, kNcclProd = 1, kNcclMax = 2, kNcclMin = 3;

// The entry points, named as in nccl.h; a plain table, so tests can fill it with fakes.
struct NcclLibrary {
  NcclResult (*get_version)(int* version) = nullptr;
  NcclResult (*get_unique_id)(NcclUniqueId* id) = nullptr;
  NcclResult (*comm_init_rank)(NcclComm* comm, int nranks, NcclUniqueId id, int rank) = nullptr;
  NcclResult (*comm_destroy)(NcclComm comm) = nullptr;
  NcclResult (*comm_abort)(NcclComm comm) = nullptr;
  NcclResult (*comm_get_async_error)(NcclComm comm, NcclResult* error) = nullptr;
  const char* (*get_error_string)(NcclResult result) = nullptr;
  NcclResult (*all_reduce)(const void* send, void* recv, size_t count, NcclDataType type,
                           NcclRedOp op, NcclComm comm, CudaStreamHandle stream) = nullptr;
  NcclResult (*broadcast)(const void* send, void* recv, size_t count, NcclDataType type, int root,
                          NcclComm comm, CudaStreamHandle stream) = nullptr;
  NcclResult (*reduce)(const void* send, void* recv, size_t count, NcclDataType type, NcclRedOp op,
                       int root, NcclComm comm, CudaStreamHandle stream) = nullptr;
  NcclResult (*all_gather)(const void* send, void* recv, size_t send_count, NcclDataType type,
                           NcclComm comm, CudaStreamHandle stream) = nullptr;
  NcclResult (*reduce_scatter)(const void* send, void* recv, size_t recv_count, NcclDataType type,
                               NcclRedOp op, NcclComm comm, CudaStreamHandle stream) = nullptr;
  NcclResult (*send)(const void* buf, size_t count, NcclDataType type, int peer, NcclComm comm,
                     CudaStreamHandle stream) = nullptr;
  NcclResult (*recv)(void* buf, size_t count, NcclDataType type, int peer, NcclComm comm,
                     CudaStreamHandle stream) = nullptr;
  NcclResult (*group_start)() = nullptr;
  NcclResult (*group_end)() = nullptr;
  int version = 0;   // ncclGetVersion's code: 22809 for 2.28.9
  std::string file;  // as loaded
};

// Loads NCCL from `file` (a path or a soname) into *out; false with the reason in *why when the
// file does not load or lacks an entry point. The library stays loaded while the process lives.
bool load_nccl_file(const std::string& file, NcclLibrary* out, std::string* why);

// The process's NCCL, loaded once. `setting` is WEFT_NCCL_LIBRARY: "auto" looks for
// libnccl.so.2 on the loader's path, then in the CUDA toolkit's library folders ($CUDA_HOME,
// $CUDA_PATH, /usr/local/cuda); "none" or "0" never loads it; anything else is the one file to
// load. Null with the reason in *why (the first call's setting decides for the process).
const NcclLibrary* nccl_library(const std::string& setting, std::string* why);

// "2.28.9" for a version code (2.9 and later: major*10000 + minor*100 + patch; before,
// major*1000 + minor*100 + patch).
std::string nccl_version_text(int code);
// "ncclInvalidUsage (5): ..." style text for an NCCL result.
std::string nccl_error_text(const NcclLibrary& nccl, NcclResult result);

// NCCL's type for elements of the predefined MPI `type` of `size` bytes (integers by their
// size and signedness, IEEE floats, and half/bfloat16 where Weft has them); false where NCCL has
// none (short ints, long double, complex, pair types, bool, ...).
bool nccl_datatype_of(MPI_Datatype type, size_t size, NcclDataType* out);
// NCCL's op for MPI_SUM, MPI_PROD, MPI_MAX, MPI_MIN; false for any other op.
bool nccl_op_of(MPI_Op op, NcclRedOp* out);
// Bytes of one element of an NCCL type.
size_t nccl_type_size(NcclDataType type);

}  // namespace weft::gpu
