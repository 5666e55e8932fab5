// How the libfabric transport treats a device buffer (pt2pt/ofi_hmem.hpp): passed as it is,
// registered as CUDA memory, only where the provider grants FI_HMEM and the message fits in one
// operation that uses the user's buffer; otherwise staged; host memory always as it is. And the
// transport's own answer (takes_device_memory) for tcp;ofi_rxm here, which has no FI_HMEM in
// Debian's libfabric 1.17 (no CUDA compiled in).
#ifdef WEFT_HAVE_OFI
#include <catch2/catch.hpp>

#include <cstdlib>
#include <memory>

#include "pt2pt/ofi_hmem.hpp"
#include "pt2pt/ofi_provider.hpp"
#include "pt2pt/ofi_transport.hpp"

using namespace weft;
using gpu::MemoryKind;
using ofi::DeviceLimits;
using ofi::device_path;
using ofi::DevicePath;

TEST_CASE("ofi hmem: device buffers registered only with FI_HMEM and within one operation") {
  const DeviceLimits with{true, 16384, 1 << 20};
  const DeviceLimits without{false, 16384, 1 << 20};
  CHECK(device_path(with, MemoryKind::kDevice, 65536) == DevicePath::kRegistered);
  CHECK(device_path(with, MemoryKind::kDevice, 16384) == DevicePath::kRegistered);
  CHECK(device_path(with, MemoryKind::kDevice, 1 << 20) == DevicePath::kRegistered);
  // Landing in a host bounce buffer, or going as pieces: staged.
  CHECK(device_path(with, MemoryKind::kDevice, 16383) == DevicePath::kStaged);
  CHECK(device_path(with, MemoryKind::kDevice, (1 << 20) + 1) == DevicePath::kStaged);
  // No FI_HMEM: always staged.
  CHECK(device_path(without, MemoryKind::kDevice, 65536) == DevicePath::kStaged);
  // Host memory: as it is, whatever the provider.
  for (const DeviceLimits& l : {with, without})
    for (size_t bytes : {size_t(0), size_t(8), size_t(65536), size_t(1) << 30})
      CHECK(device_path(l, MemoryKind::kHost, bytes) == DevicePath::kHost);
}

TEST_CASE("ofi hmem: tcp;ofi_rxm here has no FI_HMEM, so the transport takes no device buffer") {
  setenv("FI_TCP_IFACE", "lo", 0);
  bool have_tcp = false;
  for (const ofi::Provider& p : ofi::list_providers())
    have_tcp = have_tcp || (p.name == "tcp;ofi_rxm" && p.refused.empty());
  if (!have_tcp) return;
  const bool hmem = ofi::offers("tcp;ofi_rxm", FI_HMEM);
  OfiOptions o;
  o.provider = "tcp;ofi_rxm";
  std::unique_ptr<Transport> t;
  REQUIRE(make_ofi_transport(o, &t).ok());
  // Without the capability (Debian's libfabric) no device buffer is taken: pt2pt stages them.
  if (!hmem) CHECK_FALSE(t->takes_device_memory(0, 65536));
  CHECK_FALSE(t->takes_device_memory(0, 8));  // in a bounce buffer whatever the provider
}
#endif
