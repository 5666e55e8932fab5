// The RMA part of Transport for transports that have none: every call says so (rma_capable()
// is false, so callers take another path and these answers are never expected).
#include "pt2pt/transport.hpp"

#include <string>

#include "mpi.h"

namespace weft {
namespace {

Status no_rma(const Transport& t, const char* what) {
  return Status::error(MPI_ERR_UNSUPPORTED_OPERATION,
                       std::string(what) + ": transport " + t.name() + " has no RMA");
}

}  // namespace

Status Transport::register_memory(void*, size_t, MemoryRegistration**, std::vector<uint8_t>*) {
  return no_rma(*this, "register_memory");
}
Status Transport::unpack_key(int, const std::vector<uint8_t>&, RemoteKey**) {
  return no_rma(*this, "unpack_key");
}
Status Transport::put(int, const void*, size_t, uint64_t, RemoteKey*, Completion*) {
  return no_rma(*this, "put");
}
Status Transport::get(int, void*, size_t, uint64_t, RemoteKey*, Completion*) {
  return no_rma(*this, "get");
}
Status Transport::flush_peer(int, Completion*) { return no_rma(*this, "flush_peer"); }
Status Transport::atomic(int, const AtomicAccess&, Completion*) { return no_rma(*this, "atomic"); }

}  // namespace weft
