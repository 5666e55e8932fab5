// How the libfabric transport treats a device buffer (pt2pt/ofi_hmem.hpp): passed as it is,
// registered as CUDA memory, only where the provider grants FI_HMEM and the message fits in one
// operation that uses the user's buffer; otherwise staged; host memory always as it is. And the
// transport's own answer (takes_device_memory) for tcp;ofi_rxm here, which has no FI_HMEM in
// Debian's libfabric 1.17 (no CUDA compiled in). And where the pieces of a segmented message land
// in a device buffer registered whole, which such a message always overflows: through host
// memory and the device's copy, checked on a guarded stand-in for device memory.
#ifdef WEFT_HAVE_OFI
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include "guarded_device_memory.hpp"

#include "pt2pt/ofi_hmem.hpp"
#include "pt2pt/ofi_provider.hpp"
#include "pt2pt/ofi_transport.hpp"

using namespace weft;
using gpu::MemoryKind;
using ofi::DeviceLimits;
using ofi::device_path;
using ofi::DevicePath;
using ofi::PieceLanding;
using ofi::piece_landing;

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

TEST_CASE("ofi hmem: pieces land in the buffer, through host memory, or are dropped") {
  // Host buffer of 100 bytes, pieces of 64: inside, across the end, past it.
  CHECK(piece_landing(0, 64, 100, MemoryKind::kHost) == PieceLanding::kInBuffer);
  CHECK(piece_landing(36, 64, 100, MemoryKind::kHost) == PieceLanding::kInBuffer);
  CHECK(piece_landing(64, 64, 100, MemoryKind::kHost) == PieceLanding::kBounced);
  CHECK(piece_landing(100, 64, 100, MemoryKind::kHost) == PieceLanding::kDropped);
  CHECK(piece_landing(128, 64, 100, MemoryKind::kHost) == PieceLanding::kDropped);
  // Device buffer: nothing is received into it directly (a piece's receive registers nothing).
  CHECK(piece_landing(0, 64, 100, MemoryKind::kDevice) == PieceLanding::kBounced);
  CHECK(piece_landing(64, 64, 100, MemoryKind::kDevice) == PieceLanding::kBounced);
  CHECK(piece_landing(128, 64, 100, MemoryKind::kDevice) == PieceLanding::kDropped);
}

// The transport's steps for a segmented message of 250 bytes (pieces of 64) matched by a device
// receive of 100 bytes: read the announcement out of the device buffer, land each piece as
// piece_landing says, copy what fits. The guarded memory faults on any direct touch.
TEST_CASE("ofi hmem: a truncated device receive of a segmented message gets what fits") {
  test::GuardedDeviceMemory fake(false, size_t(1) << 20);
  gpu::set_device_memory(&fake);
  const size_t capacity = 100, length = 250, piece = 64;
  std::vector<unsigned char> message(length);
  for (size_t i = 0; i < length; ++i) message[i] = static_cast<unsigned char>(i * 7 + 1);
  auto* device = static_cast<unsigned char*>(fake.allocate_device(capacity));
  // The announcement arrived in the device buffer; it is read out through the device's copy.
  const unsigned char announce[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
  REQUIRE(ofi::copy_for_receive(MemoryKind::kDevice, device, announce, sizeof announce).ok());
  unsigned char read_back[16] = {};
  REQUIRE(ofi::copy_for_receive(MemoryKind::kDevice, read_back, device, sizeof read_back).ok());
  CHECK(std::memcmp(read_back, announce, sizeof announce) == 0);
  size_t dropped = 0;
  for (size_t offset = 0; offset < length; offset += piece) {
    const size_t n = std::min(piece, length - offset);
    switch (piece_landing(offset, n, capacity, MemoryKind::kDevice)) {
      case PieceLanding::kInBuffer:
        FAIL("a piece was received straight into device memory");
        break;
      case PieceLanding::kBounced:
        REQUIRE(ofi::copy_for_receive(MemoryKind::kDevice, device + offset, &message[offset],
                                      std::min(n, capacity - offset))
                    .ok());
        break;
      case PieceLanding::kDropped:
        dropped += n;
        break;
    }
  }
  CHECK(dropped == length - 128);  // the pieces at 128 and 192
  std::vector<unsigned char> got(capacity);
  fake.download(got.data(), device, capacity);
  CHECK(std::equal(got.begin(), got.end(), message.begin()));
  gpu::set_device_memory(nullptr);
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
