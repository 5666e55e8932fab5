// Whether the UCX transport takes device buffers as they are (pt2pt/ucx_transport.hpp): only a
// UCX built with CUDA, by its context's memory types; Debian's UCX has none, and its transport
// says so (device buffers are staged through host memory then).
#include <ucp/api/ucp.h>

#include <catch2/catch.hpp>
#include <memory>

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
  // This process's UCX, asked directly, decides the same.
  ucp_params_t params{};
  params.field_mask = UCP_PARAM_FIELD_FEATURES;
  params.features = UCP_FEATURE_TAG;
  ucp_context_h context = nullptr;
  REQUIRE(ucp_init(&params, nullptr, &context) == UCS_OK);
  ucp_context_attr_t attr{};
  attr.field_mask = UCP_ATTR_FIELD_MEMORY_TYPES;
  REQUIRE(ucp_context_query(context, &attr) == UCS_OK);
  ucp_cleanup(context);
  CHECK(t->takes_device_memory(0, 1 << 20) == ucx_moves_cuda_memory(attr.memory_types));
}
