// Whether the UCX transport takes device buffers as they are (pt2pt/ucx_transport.hpp): a UCX
// built with CUDA, by its context's memory types. Debian's UCX has none, and in a process without
// a CUDA driver (this one) its transport takes no device buffer and says so; with a driver it
// would pack them itself (pt2pt/ucx_device_memory.hpp, tested by gpu.fake.ipc_ucx).
#include <ucp/api/ucp.h>

#include <catch2/catch.hpp>
#include <memory>
#include <string>

#include "pt2pt/ucx_device_memory.hpp"
#include "pt2pt/ucx_transport.hpp"

using namespace weft;

TEST_CASE("ucx memory types: device buffers only to a UCX that lists CUDA memory") {
  const uint64_t host = UCS_BIT(UCS_MEMORY_TYPE_HOST);
  CHECK_FALSE(ucx_moves_cuda_memory(host));
  CHECK(ucx_moves_cuda_memory(host | UCS_BIT(UCS_MEMORY_TYPE_CUDA)));
  CHECK(ucx_moves_cuda_memory(host | UCS_BIT(UCS_MEMORY_TYPE_CUDA) |
                              UCS_BIT(UCS_MEMORY_TYPE_CUDA_MANAGED)));
  CHECK_FALSE(ucx_moves_cuda_memory(host | UCS_BIT(UCS_MEMORY_TYPE_ROCM)));
}

TEST_CASE("ucx memory types: the transport asks its own context") {
  std::unique_ptr<Transport> t;
  REQUIRE(make_ucx_transport(UcxOptions{}, &t).ok());
  // A context of its own, as weft_info makes, decides the same; Debian's UCX has no CUDA.
  const bool cuda = ucx_library_moves_cuda_memory();
  CHECK(t->takes_device_memory(0, 1 << 20) == cuda);
  CHECK(t->device_memory_path() == (cuda ? "network (UCX): as they are (this UCX moves CUDA memory)"
                                         : "network (UCX): through host memory (this UCX has no "
                                           "CUDA support)"));
}
