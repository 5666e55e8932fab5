// Loading NCCL with dlopen, its version and error texts, and the MPI datatypes and ops it takes.
#include "gpu/nccl_library.hpp"

#include <dlfcn.h>

#include <cstdlib>
#include <mutex>
#include <vector>

#include "gpu/dl_symbols.hpp"

namespace weft::gpu {
namespace {

// Where "auto" looks: the loader's own search first (LD_LIBRARY_PATH, the system's folders,
// where distribution packages put libnccl.so.2), then the toolkit's folders, where the CUDA
// toolkit ships NCCL beside cudart.
std::vector<std::string> auto_candidates() {
  std::vector<std::string> files = {"libnccl.so.2"};
  for (const char* variable : {"CUDA_HOME", "CUDA_PATH"}) {
    const char* root = std::getenv(variable);
    if (root != nullptr && *root != '\0')
      files.push_back(std::string(root) + "/lib64/libnccl.so.2");
  }
  files.push_back("/usr/local/cuda/lib64/libnccl.so.2");
  files.push_back("/usr/local/cuda/lib/libnccl.so.2");
  return files;
}

}  // namespace

bool load_nccl_file(const std::string& file, NcclLibrary* out, std::string* why) {
  void* library = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    const char* error = dlerror();
    *why = "cannot load " + file + " (" + (error != nullptr ? error : "dlopen failed") + ")";
    return false;
  }
  NcclLibrary n;
  std::string missing;
  resolve_symbol(library, "ncclGetVersion", &n.get_version, &missing);
  resolve_symbol(library, "ncclGetUniqueId", &n.get_unique_id, &missing);
  resolve_symbol(library, "ncclCommInitRank", &n.comm_init_rank, &missing);
  resolve_symbol(library, "ncclCommDestroy", &n.comm_destroy, &missing);
  resolve_symbol(library, "ncclCommAbort", &n.comm_abort, &missing);
  resolve_symbol(library, "ncclCommGetAsyncError", &n.comm_get_async_error, &missing);
  resolve_symbol(library, "ncclGetErrorString", &n.get_error_string, &missing);
  resolve_symbol(library, "ncclAllReduce", &n.all_reduce, &missing);
  resolve_symbol(library, "ncclBroadcast", &n.broadcast, &missing);
  resolve_symbol(library, "ncclReduce", &n.reduce, &missing);
  resolve_symbol(library, "ncclAllGather", &n.all_gather, &missing);
  resolve_symbol(library, "ncclReduceScatter", &n.reduce_scatter, &missing);
  resolve_symbol(library, "ncclSend", &n.send, &missing);
  resolve_symbol(library, "ncclRecv", &n.recv, &missing);
  resolve_symbol(library, "ncclGroupStart", &n.group_start, &missing);
  resolve_symbol(library, "ncclGroupEnd", &n.group_end, &missing);
  if (!missing.empty()) {
    *why = file + " is not NCCL: it lacks " + missing;
    dlclose(library);
    return false;
  }
  const NcclResult got = n.get_version(&n.version);
  if (got != kNcclSuccess) {
    *why = "ncclGetVersion failed in " + file + ": " + nccl_error_text(n, got);
    dlclose(library);
    return false;
  }
  n.file = file;
  *out = n;  // loaded for good: communicators built from it live until MPI_Finalize
  return true;
}

const NcclLibrary* nccl_library(const std::string& setting, std::string* why) {
  static std::once_flag once;
  static NcclLibrary library;
  static bool loaded = false;
  static std::string reason;
  std::call_once(once, [&setting] {
    if (setting == "none" || setting == "0") {
      reason = "disabled by WEFT_NCCL_LIBRARY=" + setting;
      return;
    }
    if (setting != "auto" && !setting.empty()) {
      loaded = load_nccl_file(setting, &library, &reason);
      if (!loaded) reason = "WEFT_NCCL_LIBRARY: " + reason;
      return;
    }
    std::string first_failure;
    for (const std::string& file : auto_candidates()) {
      std::string failure;
      if (load_nccl_file(file, &library, &failure)) {
        loaded = true;
        return;
      }
      if (first_failure.empty()) first_failure = failure;
    }
    reason = "no NCCL found (" + first_failure + "; nor in the CUDA toolkit's lib64)";
  });
  if (!loaded) *why = reason;
  return loaded ? &library : nullptr;
}

std::string nccl_version_text(int code) {
  const bool new_scheme = code >= 10000;  // NCCL_VERSION of 2.9 and later
  const int major = new_scheme ? code / 10000 : code / 1000;
  const int minor = new_scheme ? code % 10000 / 100 : code % 1000 / 100;
  return std::to_string(major) + "." + std::to_string(minor) + "." + std::to_string(code % 100);
}

std::string nccl_error_text(const NcclLibrary& nccl, NcclResult result) {
  const char* text = nccl.get_error_string != nullptr ? nccl.get_error_string(result) : nullptr;
  return std::string(text != nullptr ? text : "NCCL error") + " (" + std::to_string(result) + ")";
}

bool nccl_datatype_of(MPI_Datatype type, size_t size, NcclDataType* out) {
  static constexpr MPI_Datatype kSigned[] = {
      MPI_SIGNED_CHAR, MPI_INT,      MPI_LONG,     MPI_LONG_LONG_INT, MPI_INT8_T,
      MPI_INT32_T,     MPI_INT64_T,  MPI_AINT,     MPI_OFFSET,        MPI_COUNT,
      MPI_INTEGER,     MPI_INTEGER1, MPI_INTEGER4, MPI_INTEGER8};
  static constexpr MPI_Datatype kUnsigned[] = {
      MPI_UNSIGNED_CHAR, MPI_UNSIGNED, MPI_UNSIGNED_LONG, MPI_UNSIGNED_LONG_LONG,
      MPI_UINT8_T,       MPI_UINT32_T, MPI_UINT64_T};
  auto among = [type](const auto& list) {
    for (MPI_Datatype t : list)
      if (t == type) return true;
    return false;
  };
  const bool is_signed = among(kSigned);
  if (is_signed || among(kUnsigned)) {
    switch (size) {  // NCCL has no 16-bit integers
      case 1:
        *out = is_signed ? kNcclInt8 : kNcclUint8;
        return true;
      case 4:
        *out = is_signed ? kNcclInt32 : kNcclUint32;
        return true;
      case 8:
        *out = is_signed ? kNcclInt64 : kNcclUint64;
        return true;
      default:
        return false;
    }
  }
  if (type == MPI_FLOAT || type == MPI_REAL || type == MPI_REAL4) {
    *out = kNcclFloat32;
    return true;
  }
  if (type == MPI_DOUBLE || type == MPI_DOUBLE_PRECISION || type == MPI_REAL8) {
    *out = kNcclFloat64;
    return true;
  }
#ifdef MPIX_C_FLOAT16
  if (type == MPIX_C_FLOAT16) {
    *out = kNcclFloat16;
    return true;
  }
#endif
#ifdef MPIX_BFLOAT16
  if (type == MPIX_BFLOAT16) {
    *out = kNcclBfloat16;
    return true;
  }
#endif
  return false;
}

bool nccl_op_of(MPI_Op op, NcclRedOp* out) {
  if (op == MPI_SUM)
    *out = kNcclSum;
  else if (op == MPI_PROD)
    *out = kNcclProd;
  else if (op == MPI_MAX)
    *out = kNcclMax;
  else if (op == MPI_MIN)
    *out = kNcclMin;
  else
    return false;
  return true;
}

size_t nccl_type_size(NcclDataType type) {
  switch (type) {
    case kNcclInt8:
    case kNcclUint8:
      return 1;
    case kNcclFloat16:
    case kNcclBfloat16:
      return 2;
    case kNcclInt32:
    case kNcclUint32:
    case kNcclFloat32:
      return 4;
    default:
      return 8;
  }
}

}  // namespace weft::gpu
