// Small utilities: MPI_Pcontrol, MPI_Status_set_elements(_x/_c)/_cancelled and
// MPI_Alloc_mem/MPI_Free_mem.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unordered_set>

#include "mpi.h"
#include "runtime/c_api/guard.hpp"
#include "runtime/comm/info_objects.hpp"
#include "runtime/datatype/datatype.hpp"

using weft::Status;
using weft::world;
namespace capi = weft::capi;

namespace {

// MPI 4.0 raises errors that concern no communicator on MPI_COMM_SELF.
constexpr MPI_Comm kNoComm = MPI_COMM_SELF;
// MPI_Alloc_mem's blocks start on a cache line.
constexpr size_t kAllocAlignment = 64;

// Blocks handed out by MPI_Alloc_mem and not yet freed.
std::unordered_set<void*>& allocated_blocks() {
  static std::unordered_set<void*> blocks;
  return blocks;
}

std::string pointer_text(const void* p) {
  char text[32];
  std::snprintf(text, sizeof text, "%p", p);
  return p == nullptr ? "NULL" : text;
}

// Bytes of packed data holding the first `count` basic elements of a sequence of `type`.
Status bytes_of_elements(const weft::Datatype& type, long long count, long long* bytes) {
  const long long per_element = type.elements(type.size());
  if (count == 0 || per_element <= 0) {
    *bytes = 0;
    return count == 0 ? Status::success()
                      : Status::error(MPI_ERR_COUNT, "invalid count=" + std::to_string(count) +
                                                         " (datatype=" + type.label() +
                                                         " holds no basic elements)");
  }
  *bytes = count / per_element * (long long)type.size();
  const long long rest = count % per_element;
  // The shortest prefix of one element that holds `rest` basic elements (or, where a pair type
  // counts two at once, just more).
  size_t within = 0;
  while (rest > 0 && within < type.size() && type.elements(within) < rest) ++within;
  *bytes += (long long)within;
  return Status::success();
}

// MPI_Status_set_elements: MPI_Get_elements with `datatype` then returns `count`.
Status set_elements(MPI_Status* status, MPI_Datatype datatype, long long count) {
  WEFT_LOCKED_CALL();  // the datatype table may change in another thread's call
  WEFT_TRY(capi::check_not_null(status, "status"));
  const weft::Datatype* type = nullptr;
  WEFT_TRY(weft::find_datatype(datatype, "datatype", &type));
  if (count < 0) {
    return Status::error(MPI_ERR_COUNT,
                         "invalid count=" + std::to_string(count) + " (must be >= 0)");
  }
  long long bytes = 0;
  WEFT_TRY(bytes_of_elements(*type, count, &bytes));
  status->weft_bytes = bytes;
  return Status::success();
}

}  // namespace

extern "C" {

int PMPI_Pcontrol(const int, ...) { return MPI_SUCCESS; }

int PMPI_Status_set_elements(MPI_Status* status, MPI_Datatype datatype, int count) {
  return capi::report(kNoComm, "MPI_Status_set_elements", set_elements(status, datatype, count));
}

int PMPI_Status_set_elements_x(MPI_Status* status, MPI_Datatype datatype, MPI_Count count) {
  return capi::report(kNoComm, "MPI_Status_set_elements_x", set_elements(status, datatype, count));
}

int PMPI_Status_set_elements_c(MPI_Status* status, MPI_Datatype datatype, MPI_Count count) {
  return capi::report(kNoComm, "MPI_Status_set_elements_c", set_elements(status, datatype, count));
}

int PMPI_Status_set_cancelled(MPI_Status* status, int flag) {
  constexpr const char* fn = "MPI_Status_set_cancelled";
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(status, "status"));
  status->weft_cancelled = flag != 0;
  return MPI_SUCCESS;
}

int PMPI_Alloc_mem(MPI_Aint size, MPI_Info info, void* baseptr) {
  constexpr const char* fn = "MPI_Alloc_mem";
  WEFT_REQUIRE_RUNNING(fn);
  if (size < 0) {
    return capi::report(
        kNoComm, fn,
        Status::error(MPI_ERR_ARG, "invalid size=" + std::to_string(size) + " (must be >= 0)"));
  }
  if (info != MPI_INFO_NULL) {
    const weft::InfoEntries* hints = nullptr;
    WEFT_CHECK(kNoComm, fn, weft::infos().entries(info, "info", &hints));
  }
  WEFT_CHECK(kNoComm, fn, capi::check_not_null(baseptr, "baseptr"));
  void* block = nullptr;
  if (posix_memalign(&block, kAllocAlignment, size > 0 ? size_t(size) : 1) != 0) {
    return capi::report(
        kNoComm, fn,
        Status::error(MPI_ERR_NO_MEM, "cannot allocate " + std::to_string(size) + " bytes"));
  }
  allocated_blocks().insert(block);
  *static_cast<void**>(baseptr) = block;
  return MPI_SUCCESS;
}

int PMPI_Free_mem(void* base) {
  constexpr const char* fn = "MPI_Free_mem";
  WEFT_REQUIRE_RUNNING(fn);
  if (allocated_blocks().erase(base) == 0) {
    return capi::report(kNoComm, fn,
                        Status::error(MPI_ERR_BASE, "invalid base=" + pointer_text(base) +
                                                        " (not a block from "
                                                        "MPI_Alloc_mem, or freed)"));
  }
  std::free(base);
  return MPI_SUCCESS;
}

}  // extern "C"

// The profiling interface: each MPI_X is a weak alias of PMPI_X (runtime/c_api/guard.hpp).
WEFT_MPI_ALIAS(MPI_Pcontrol)
WEFT_MPI_ALIAS(MPI_Status_set_elements)
WEFT_MPI_ALIAS(MPI_Status_set_elements_x)
WEFT_MPI_ALIAS(MPI_Status_set_elements_c)
WEFT_MPI_ALIAS(MPI_Status_set_cancelled)
WEFT_MPI_ALIAS(MPI_Alloc_mem)
WEFT_MPI_ALIAS(MPI_Free_mem)
