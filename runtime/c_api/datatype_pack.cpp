// Packing (MPI 4.0 §5.2-5.3): MPI_Pack, MPI_Unpack, MPI_Pack_size in the native representation
// and their "external32" forms, each also in its large-count (_c) form through the same path;
// addresses: MPI_Get_address (and MPI_Address, its MPI-1 name), MPI_Aint_add, MPI_Aint_diff.
#include <climits>
#include <cstring>
#include <string>
#include <type_traits>

#include "gpu/typed_copy.hpp"
#include "runtime/c_api/datatype_args.hpp"
#include "runtime/datatype/external32.hpp"

using weft::Status;
using weft::capi::kTypeErrors;
namespace capi = weft::capi;

namespace {

// MPI_Get_address and MPI_Address. Addresses are plain byte addresses, so MPI_BOTTOM (0) plus an
// address is the address itself.
int get_address(const char* fn, const void* location, MPI_Aint* address) {
  WEFT_CHECK(kTypeErrors, fn, capi::check_not_null(address, "address"));
  *address = reinterpret_cast<MPI_Aint>(location);
  return MPI_SUCCESS;
}

unsigned char* at_offset(const void* base, long long offset) {
  return static_cast<unsigned char*>(const_cast<void*>(base)) + offset;
}

// A buffer of `count` elements of a committed type; MPI_BOTTOM (NULL) only with derived types.
Status check_typed(const void* buf, MPI_Count count, MPI_Datatype datatype, const char* buf_arg,
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

// Bytes of one element packed: its size natively, its external32 size with a `datarep`.
// What the data is packed for: "external32" (`datarep`, the _external forms) or `comm`.
Status check_representation(const char* datarep, MPI_Comm comm) {
  return datarep != nullptr ? check_datarep(datarep) : check_comm(comm);
}

size_t packed_size(const char* datarep, const weft::Datatype& t) {
  return datarep != nullptr ? weft::external32_size(t) : t.size();
}

// MPI_Pack (native representation, errors on `comm`) or MPI_Pack_external ("external32", `datarep`
// non-null, errors on MPI_COMM_SELF); `Pos` is the position's type in the form called (int,
// MPI_Aint or MPI_Count).
template <typename Pos>
int pack(const char* fn, const char* datarep, const void* inbuf, MPI_Count incount,
         MPI_Datatype datatype, void* outbuf, MPI_Count outsize, Pos* position, MPI_Comm comm) {
  WEFT_REQUIRE_RUNNING(fn);
  const weft::Datatype* t = nullptr;
  const MPI_Comm errors = datarep != nullptr ? kTypeErrors : comm;
  WEFT_CHECK(errors, fn, check_representation(datarep, comm));
  WEFT_CHECK(errors, fn, check_typed(inbuf, incount, datatype, "inbuf", "incount", &t));
  WEFT_CHECK(errors, fn, capi::check_not_null(position, "position"));
  const long long bytes = incount * (long long)packed_size(datarep, *t);
  WEFT_CHECK(errors, fn, check_packed(outbuf, outsize, *position, bytes, "outbuf", "outsize"));
  if (datarep != nullptr) {
    WEFT_CHECK(errors, fn,
               weft::pack_external32(*t, inbuf, size_t(incount), at_offset(outbuf, *position)));
  } else {
    WEFT_CHECK(errors, fn,
               weft::gpu::pack_typed(inbuf, size_t(incount), *t, at_offset(outbuf, *position)));
  }
  *position += Pos(bytes);
  return MPI_SUCCESS;
}

// MPI_Unpack and MPI_Unpack_external, as pack() above.
template <typename Pos>
int unpack(const char* fn, const char* datarep, const void* inbuf, MPI_Count insize, Pos* position,
           void* outbuf, MPI_Count outcount, MPI_Datatype datatype, MPI_Comm comm) {
  WEFT_REQUIRE_RUNNING(fn);
  const weft::Datatype* t = nullptr;
  const MPI_Comm errors = datarep != nullptr ? kTypeErrors : comm;
  WEFT_CHECK(errors, fn, check_representation(datarep, comm));
  WEFT_CHECK(errors, fn, check_typed(outbuf, outcount, datatype, "outbuf", "outcount", &t));
  WEFT_CHECK(errors, fn, capi::check_not_null(position, "position"));
  const long long bytes = outcount * (long long)packed_size(datarep, *t);
  WEFT_CHECK(errors, fn, check_packed(inbuf, insize, *position, bytes, "inbuf", "insize"));
  if (datarep != nullptr) {
    weft::unpack_external32(*t, at_offset(inbuf, *position), size_t(outcount), outbuf);
  } else {
    WEFT_CHECK(errors, fn, weft::gpu::unpack_typed(at_offset(inbuf, *position), size_t(outcount),
                                                   size_t(bytes), *t, outbuf));
  }
  *position += Pos(bytes);
  return MPI_SUCCESS;
}

// MPI_Pack_size and MPI_Pack_external_size (`datarep` non-null). The int form of MPI_Pack_size
// fails with MPI_ERR_COUNT for a size no int holds (MPI_Pack_size_c answers it).
template <typename Size>
int pack_size(const char* fn, const char* datarep, MPI_Count incount, MPI_Datatype datatype,
              MPI_Comm comm, Size* size) {
  WEFT_REQUIRE_RUNNING(fn);
  const weft::Datatype* t = nullptr;
  const MPI_Comm errors = datarep != nullptr ? kTypeErrors : comm;
  WEFT_CHECK(errors, fn, check_representation(datarep, comm));
  WEFT_CHECK(errors, fn, capi::check_count(incount, "incount"));
  WEFT_CHECK(errors, fn, weft::find_committed_datatype(datatype, "datatype", &t));
  WEFT_CHECK(errors, fn, capi::check_not_null(size, "size"));
  const long long bytes = incount * (long long)packed_size(datarep, *t);
  if (std::is_same_v<Size, int> && bytes > INT_MAX) {
    return capi::report(errors, fn,
                        Status::error(MPI_ERR_COUNT, "incount=" + std::to_string(incount) +
                                                         " packs to " + std::to_string(bytes) +
                                                         " bytes, more than an int can hold"));
  }
  *size = Size(bytes);  // the native packed form has no header
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int PMPI_Pack(const void* inbuf, int incount, MPI_Datatype datatype, void* outbuf, int outsize,
              int* position, MPI_Comm comm) {
  return pack("MPI_Pack", nullptr, inbuf, incount, datatype, outbuf, outsize, position, comm);
}
int PMPI_Pack_c(const void* inbuf, MPI_Count incount, MPI_Datatype datatype, void* outbuf,
                MPI_Count outsize, MPI_Count* position, MPI_Comm comm) {
  return pack("MPI_Pack_c", nullptr, inbuf, incount, datatype, outbuf, outsize, position, comm);
}

int PMPI_Unpack(const void* inbuf, int insize, int* position, void* outbuf, int outcount,
                MPI_Datatype datatype, MPI_Comm comm) {
  return unpack("MPI_Unpack", nullptr, inbuf, insize, position, outbuf, outcount, datatype, comm);
}
int PMPI_Unpack_c(const void* inbuf, MPI_Count insize, MPI_Count* position, void* outbuf,
                  MPI_Count outcount, MPI_Datatype datatype, MPI_Comm comm) {
  return unpack("MPI_Unpack_c", nullptr, inbuf, insize, position, outbuf, outcount, datatype, comm);
}

int PMPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int* size) {
  return pack_size("MPI_Pack_size", nullptr, incount, datatype, comm, size);
}
int PMPI_Pack_size_c(MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count* size) {
  return pack_size("MPI_Pack_size_c", nullptr, incount, datatype, comm, size);
}

int PMPI_Pack_external(const char datarep[], const void* inbuf, int incount, MPI_Datatype datatype,
                       void* outbuf, MPI_Aint outsize, MPI_Aint* position) {
  return pack("MPI_Pack_external", datarep, inbuf, incount, datatype, outbuf, outsize, position,
              kTypeErrors);
}
int PMPI_Pack_external_c(const char datarep[], const void* inbuf, MPI_Count incount,
                         MPI_Datatype datatype, void* outbuf, MPI_Count outsize,
                         MPI_Count* position) {
  return pack("MPI_Pack_external_c", datarep, inbuf, incount, datatype, outbuf, outsize, position,
              kTypeErrors);
}

int PMPI_Unpack_external(const char datarep[], const void* inbuf, MPI_Aint insize,
                         MPI_Aint* position, void* outbuf, int outcount, MPI_Datatype datatype) {
  return unpack("MPI_Unpack_external", datarep, inbuf, insize, position, outbuf, outcount, datatype,
                kTypeErrors);
}
int PMPI_Unpack_external_c(const char datarep[], const void* inbuf, MPI_Count insize,
                           MPI_Count* position, void* outbuf, MPI_Count outcount,
                           MPI_Datatype datatype) {
  return unpack("MPI_Unpack_external_c", datarep, inbuf, insize, position, outbuf, outcount,
                datatype, kTypeErrors);
}

int PMPI_Pack_external_size(const char datarep[], int incount, MPI_Datatype datatype,
                            MPI_Aint* size) {
  return pack_size("MPI_Pack_external_size", datarep, incount, datatype, kTypeErrors, size);
}
int PMPI_Pack_external_size_c(const char datarep[], MPI_Count incount, MPI_Datatype datatype,
                              MPI_Count* size) {
  return pack_size("MPI_Pack_external_size_c", datarep, incount, datatype, kTypeErrors, size);
}

int PMPI_Get_address(const void* location, MPI_Aint* address) {
  return get_address("MPI_Get_address", location, address);
}
// The MPI-1 name, removed in MPI 3.0 (mpi.h declares it deprecated).
int PMPI_Address(void* location, MPI_Aint* address) {
  return get_address("MPI_Address", location, address);
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
WEFT_MPI_ALIAS(MPI_Pack_c)
WEFT_MPI_ALIAS(MPI_Unpack_c)
WEFT_MPI_ALIAS(MPI_Pack_size_c)
WEFT_MPI_ALIAS(MPI_Pack_external_c)
WEFT_MPI_ALIAS(MPI_Unpack_external_c)
WEFT_MPI_ALIAS(MPI_Pack_external_size_c)
WEFT_MPI_ALIAS(MPI_Get_address)
WEFT_MPI_ALIAS(MPI_Aint_add)
WEFT_MPI_ALIAS(MPI_Aint_diff)
WEFT_MPI_ALIAS(MPI_Address)
