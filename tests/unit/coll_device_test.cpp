// Collectives on GPU buffers, without a GPU: every algorithm runs with its user buffers in a
// guarded stand-in for device memory (guarded_device_memory.hpp) and must give the bytes the
// same call gives on host buffers, never touching device memory except through the copy and
// reduce operations of gpu::DeviceMemory; both with device reduction kernels and without them
// (the host fallback).
#include <catch2/catch.hpp>

#include "coll/registry.hpp"
#include "coll_cases.hpp"
#include "guarded_device_memory.hpp"

using namespace weft;
using namespace weft::test;
using coll::CollKind;

namespace {

// Where `p` lies in one of the rank's vectors, the same place in that vector's device copy.
unsigned char* moved(const void* p, const RankState& s, unsigned char* send, unsigned char* recv,
                     unsigned char* stage) {
  const auto* b = static_cast<const unsigned char*>(p);
  auto inside = [b](const std::vector<unsigned char>& v) {
    return !v.empty() && b >= v.data() && b <= v.data() + v.size();
  };
  if (inside(s.send)) return send + (b - s.send.data());
  if (inside(s.recv)) return recv + (b - s.recv.data());
  if (inside(s.stage)) return stage + (b - s.stage.data());
  return const_cast<unsigned char*>(b);  // null, or nothing the call reads
}

// run_algorithm with every rank's buffers on the "device".
SimOutcome run_on_device(const Problem& pb, const coll::Algorithm& a, const SimRun& run,
                         GuardedDeviceMemory& memory, size_t mirror_limit,
                         std::vector<std::vector<unsigned char>>* out) {
  std::vector<RankState> states = set_up(pb);
  std::vector<coll::Schedule> schedules(states.size());
  std::vector<coll::Binding> bindings;
  struct Copies {
    unsigned char *send, *recv, *stage;
  };
  std::vector<Copies> copies;
  for (size_t r = 0; r < states.size(); ++r) {
    RankState& s = states[r];
    a.build(s.args, schedules[r]);
    Copies c{memory.upload(s.send.data(), s.send.size()),
             memory.upload(s.recv.data(), s.recv.size()),
             memory.upload(s.stage.data(), s.stage.size())};
    copies.push_back(c);
    coll::Binding b;
    b.send = moved(s.binding.send, s, c.send, c.recv, c.stage);
    b.recv = moved(s.binding.recv, s, c.send, c.recv, c.stage);
    b.send_on_device = memory.kind_of(b.send) == gpu::MemoryKind::kDevice;
    b.recv_on_device = memory.kind_of(b.recv) == gpu::MemoryKind::kDevice;
    b.device_mirror_limit = mirror_limit;
    bindings.push_back(b);
  }
  const Reduction reduction = reduction_for(pb.values);
  const SimOutcome outcome =
      simulate(schedules, bindings, reduction.elem_size > 0 ? &reduction : nullptr, run);
  out->clear();
  for (size_t r = 0; r < states.size(); ++r) {
    RankState& s = states[r];
    if (!s.recv.empty()) memory.download(s.recv.data(), copies[r].recv, s.recv.size());
    if (!s.send.empty()) memory.download(s.send.data(), copies[r].send, s.send.size());
    std::vector<unsigned char> all = s.recv;
    all.insert(all.end(), s.send.begin(), s.send.end());
    out->push_back(std::move(all));
  }
  return outcome;
}

bool reduction(CollKind k) {
  return k == CollKind::kReduce || k == CollKind::kAllreduce || k == CollKind::kReduceScatter ||
         k == CollKind::kScan || k == CollKind::kExscan;
}

}  // namespace

TEST_CASE("collectives on device buffers give the host results without touching the device",
          "[coll][gpu]") {
  // Device runs (mirror limit 0), with and without device kernels; then mirrored runs (every
  // call small enough), which copy each side in and out once and never reduce on the device.
  struct Mode {
    bool device_kernels;
    size_t mirror_limit;
  };
  for (Mode mode : {Mode{true, 0}, Mode{false, 0}, Mode{true, SIZE_MAX}}) {
    const bool device_kernels = mode.device_kernels;
    GuardedDeviceMemory memory(device_kernels);
    gpu::set_device_memory(&memory);
    for (int k = 0; k < coll::kNumCollKinds; ++k) {
      const CollKind kind = CollKind(k);
      for (const coll::Algorithm* a : coll::algorithms_for(kind)) {
        if (a->node_aware) continue;  // the same steps as the others, run per node
        for (int p : {1, 2, 3, 5, 8}) {
          for (size_t count : {size_t(1), size_t(2 * p + 3)}) {
            for (bool in_place : {false, true}) {
              Problem pb;
              pb.kind = kind;
              pb.size = p;
              pb.root = p - 1;
              pb.count = count;
              pb.in_place = in_place && kind != CollKind::kBarrier && kind != CollKind::kBcast &&
                            kind != CollKind::kNeighborAllgather &&
                            kind != CollKind::kNeighborAlltoall;
              pb.values = reduction(kind) ? Values::kAffine : Values::kBytes;
              pb.segment_bytes = count % 2 == 1 ? 16 : 64 * 1024;
              pb.seed = uint64_t(p) * 7 + count;
              if (a->accepts != nullptr) {
                bool all = true;
                for (const RankState& s : set_up(pb)) all = all && a->accepts(s.args);
                if (!all) continue;
              }
              std::vector<std::vector<unsigned char>> host, device;
              REQUIRE(run_algorithm(pb, *a, SimRun{pb.seed, false}, &host).ok());
              memory.reset();
              const int reductions_before = memory.reductions;
              const SimOutcome run =
                  run_on_device(pb, *a, SimRun{pb.seed, false}, memory, mode.mirror_limit, &device);
              INFO(pb.describe() << " algorithm " << a->name
                                 << (mode.mirror_limit > 0 ? " (mirrored)"
                                     : device_kernels      ? " (device kernels)"
                                                           : " (host fallback)")
                                 << (run.error.empty() ? "" : ": " + run.error));
              REQUIRE(run.ok());
              REQUIRE(device == host);
              if (mode.mirror_limit > 0) REQUIRE(memory.reductions == reductions_before);
            }
          }
        }
      }
    }
    gpu::set_device_memory(nullptr);
    CHECK(memory.copies > 0);
    if (device_kernels && mode.mirror_limit == 0) CHECK(memory.reductions > 0);
    if (!device_kernels || mode.mirror_limit > 0) CHECK(memory.reductions == 0);
  }
}
