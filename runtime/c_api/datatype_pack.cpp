// Packing (MPI 4.0 §5.2-5.3): MPI_Pack, MPI_Unpack, MPI_Pack_size in the native representation
// and their "external32" forms; addresses: MPI_Get_address, MPI_Aint_add, MPI_Aint_diff.
#include <climits>
#include <cstring>
#include <string>

#include "runtime/c_api/datatype_args.hpp"
#include "runtime/datatype_external32.hpp"

using weft::Status;
using weft::capi::kTypeErrors;
namespace capi = weft::capi;

namespace {

unsigned char* at_offset(const void* base, long long offset) {
  return static_cast<unsigned char*>(const_cast<void*>(base)) + offset;
}

// A buffer of `count` elements of a committed type; MPI_BOTTOM (NULL) only with derived types.
Status check_typed(const void* buf, int count, MPI_Datatype datatype, const char* buf_arg,
                   const char* count_arg, const weft::Datatype** t) {
  WEFT_TRY(capi::check_count(count, count_arg));
  WEFT_TRY(weft::find_committed_datatype(datatype, "datatype", t));
  if ((*t)->is_predefined()) WEFT_TRY(capi::check_buffer(buf, count, buf_arg));
  return Status::success();
}

// The packed side: `need` bytes from *position must lie within `size` bytes at `buf`.
Status check_packed(const void* buf, long long size, const long long position, long long need,
                    const char* buf_arg, const char* size_arg) {
  if (size < 0) {
    return Status::error(MPI_ERR_ARG, std::string("invalid ") + size_arg + "=" +
                                          std::to_string(size) + " (must be >= 0)");
  }
  if (position < 0 || position > size) {
    return Status::error(MPI_ERR_ARG, "invalid position=" + std::to_string(position) +
                                          " (must be in 0.." + size_arg + "=" +
                                          std::to_string(size) + ")");
  }
  if (need > size - position) {
    return Status::error(MPI_ERR_TRUNCATE, std::to_string(need) + " bytes from position " +
                                               std::to_string(position) + " do not fit in " +
                                               size_arg + "=" + std::to_string(size));
  }
  if (need > 0) WEFT_TRY(capi::check_not_null(buf, buf_arg));
  return Status::success();
}

Status check_datarep(const char* datarep) {
  WEFT_TRY(capi::check_not_null(datarep, "datarep"));
  if (std::strcmp(datarep, "external32") == 0) return Status::success();
  return Status::error(MPI_ERR_ARG, std::string("invalid datarep=\"") + datarep +
                                        "\" (only \"external32\" is defined)");
}

Status check_comm(MPI_Comm comm) {
  weft::Comm* c = nullptr;
  return weft::lookup_comm(weft::world().comms, comm, "comm", &c);
}

}  // namespace

extern "C" {

int PMPI_Pack(const void* inbuf, int incount, MPI_Datatype datatype, void* outbuf, int outsize,
              int* position, MPI_Comm comm) {
  constexpr const char* fn = "MPI_Pack";
  WEFT_REQUIRE_RUNNING(fn);
  const weft::Datatype* t = nullptr;
  WEFT_CHECK(comm, fn, check_comm(comm));
  WEFT_CHECK(comm, fn, check_typed(inbuf, incount, datatype, "inbuf", "incount", &t));
  WEFT_CHECK(comm, fn, capi::check_not_null(position, "position"));
  const long long bytes = (long long)incount * (long long)t->size();
  WEFT_CHECK(comm, fn, check_packed(outbuf, outsize, *position, bytes, "outbuf", "outsize"));
  t->pack(inbuf, size_t(incount), at_offset(outbuf, *position));
  *position += int(bytes);
  return MPI_SUCCESS;
}

int PMPI_Unpack(const void* inbuf, int insize, int* position, void* outbuf, int outcount,
                MPI_Datatype datatype, MPI_Comm comm) {
  constexpr const char* fn = "MPI_Unpack";
  WEFT_REQUIRE_RUNNING(fn);
  const weft::Datatype* t = nullptr;
  WEFT_CHECK(comm, fn, check_comm(comm));
  WEFT_CHECK(comm, fn, check_typed(outbuf, outcount, datatype, "outbuf", "outcount", &t));
  WEFT_CHECK(comm, fn, capi::check_not_null(position, "position"));
  const long long bytes = (long long)outcount * (long long)t->size();
  WEFT_CHECK(comm, fn, check_packed(inbuf, insize, *position, bytes, "inbuf", "insize"));
  t->unpack(at_offset(inbuf, *position), size_t(outcount), outbuf);
  *position += int(bytes);
  return MPI_SUCCESS;
}

int PMPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int* size) {
  constexpr const char* fn = "MPI_Pack_size";
  WEFT_REQUIRE_RUNNING(fn);
  const weft::Datatype* t = nullptr;
  WEFT_CHECK(comm, fn, check_comm(comm));
  WEFT_CHECK(comm, fn, capi::check_count(incount, "incount"));
  WEFT_CHECK(comm, fn, weft::find_committed_datatype(datatype, "datatype", &t));
  WEFT_CHECK(comm, fn, capi::check_not_null(size, "size"));
  const long long bytes = (long long)incount * (long long)t->size();
  if (bytes > INT_MAX) {
    return capi::report(comm, fn,
                        Status::error(MPI_ERR_COUNT, "incount=" + std::to_string(incount) +
                                                         " packs to " + std::to_string(bytes) +
                                                         " bytes, more than an int can hold"));
  }
  *size = int(bytes);  // the native packed form has no header
  return MPI_SUCCESS;
}

int PMPI_Pack_external(const char datarep[], const void* inbuf, int incount, MPI_Datatype datatype,
                       void* outbuf, MPI_Aint outsize, MPI_Aint* position) {
  constexpr const char* fn = "MPI_Pack_external";
  WEFT_REQUIRE_RUNNING(fn);
  const weft::Datatype* t = nullptr;
  WEFT_CHECK(kTypeErrors, fn, check_datarep(datarep));
  WEFT_CHECK(kTypeErrors, fn, check_typed(inbuf, incount, datatype, "inbuf", "incount", &t));
  WEFT_CHECK(kTypeErrors, fn, capi::check_not_null(position, "position"));
  const long long bytes = (long long)incount * (long long)weft::external32_size(*t);
  WEFT_CHECK(kTypeErrors, fn, check_packed(outbuf, outsize, *position, bytes, "outbuf", "outsize"));
  WEFT_CHECK(kTypeErrors, fn,
             weft::pack_external32(*t, inbuf, size_t(incount), at_offset(outbuf, *position)));
  *position += MPI_Aint(bytes);
  return MPI_SUCCESS;
}

int PMPI_Unpack_external(const char datarep[], const void* inbuf, MPI_Aint insize,
                         MPI_Aint* position, void* outbuf, int outcount, MPI_Datatype datatype) {
  constexpr const char* fn = "MPI_Unpack_external";
  WEFT_REQUIRE_RUNNING(fn);
  const weft::Datatype* t = nullptr;
  WEFT_CHECK(kTypeErrors, fn, check_datarep(datarep));
  WEFT_CHECK(kTypeErrors, fn, check_typed(outbuf, outcount, datatype, "outbuf", "outcount", &t));
  WEFT_CHECK(kTypeErrors, fn, capi::check_not_null(position, "position"));
  const long long bytes = (long long)outcount * (long long)weft::external32_size(*t);
  WEFT_CHECK(kTypeErrors, fn, check_packed(inbuf, insize, *position, bytes, "inbuf", "insize"));
  weft::unpack_external32(*t, at_offset(inbuf, *position), size_t(outcount), outbuf);
  *position += MPI_Aint(bytes);
  return MPI_SUCCESS;
}

int PMPI_Pack_external_size(const char datarep[], int incount, MPI_Datatype datatype,
                            MPI_Aint* size) {
  constexpr const char* fn = "MPI_Pack_external_size";
  WEFT_REQUIRE_RUNNING(fn);
  const weft::Datatype* t = nullptr;
  WEFT_CHECK(kTypeErrors, fn, check_datarep(datarep));
  WEFT_CHECK(kTypeErrors, fn, capi::check_count(incount, "incount"));
  WEFT_CHECK(kTypeErrors, fn, weft::find_committed_datatype(datatype, "datatype", &t));
  WEFT_CHECK(kTypeErrors, fn, capi::check_not_null(size, "size"));
  *size = MPI_Aint(incount) * MPI_Aint(weft::external32_size(*t));
  return MPI_SUCCESS;
}

// Addresses are plain byte addresses, so MPI_BOTTOM (0) plus an address is the address itself.
int PMPI_Get_address(const void* location, MPI_Aint* address) {
  WEFT_CHECK(kTypeErrors, "MPI_Get_address", capi::check_not_null(address, "address"));
  *address = reinterpret_cast<MPI_Aint>(location);
  return MPI_SUCCESS;
}

MPI_Aint PMPI_Aint_add(MPI_Aint base, MPI_Aint disp) {
  return MPI_Aint(uintptr_t(base) + uintptr_t(disp));
}

MPI_Aint PMPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2) {
  return MPI_Aint(uintptr_t(addr1) - uintptr_t(addr2));
}

}  // extern "C"

// The profiling interface: each MPI_X is a weak alias of PMPI_X (runtime/c_api/guard.hpp).
WEFT_MPI_ALIAS(MPI_Pack)
WEFT_MPI_ALIAS(MPI_Unpack)
WEFT_MPI_ALIAS(MPI_Pack_size)
WEFT_MPI_ALIAS(MPI_Pack_external)
WEFT_MPI_ALIAS(MPI_Unpack_external)
WEFT_MPI_ALIAS(MPI_Pack_external_size)
WEFT_MPI_ALIAS(MPI_Get_address)
WEFT_MPI_ALIAS(MPI_Aint_add)
WEFT_MPI_ALIAS(MPI_Aint_diff)
