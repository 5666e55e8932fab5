// The α-β-γ cost model's parameters and the tuning file weft_tune writes and Weft reads at
// start-up (built-in defaults otherwise). Format: one "name value" per line, '#' comments:
//   alpha_us 0.45                latency of one message between ranks of one node, microseconds
//   alpha_oversubscribed_us 5    the same when ranks outnumber cores (a context switch each)
//   beta_ns_per_byte 0.07        time per byte moved within a node, nanoseconds
//   alpha_inter_us 3             latency of one message to another node, microseconds
//   beta_inter_ns_per_byte 0.2   time per byte moved to another node, nanoseconds
//   gamma_ns_per_byte 0.05       time per byte reduced, nanoseconds
//   alpha_region_us 0.2          a hand-over through a communicator's node region (one post
//                                seen by the ranks that fetch it), microseconds
//   beta_region_ns_per_byte 0.03 time per byte copied into or out of a node region, nanoseconds
//   segment_bytes 131072         pipelining unit of segmented algorithms
//   alpha_device_us 10           a copy between GPU and host memory, started and waited for,
//                                microseconds
//   beta_device_ns_per_byte 0.04 time per byte of such a copy, nanoseconds
//   alpha_nccl_us 7              an NCCL collective started on a stream and waited for,
//                                microseconds
//   beta_nccl_ns_per_byte 0.01   time per byte NCCL moves between GPUs of one node, nanoseconds
#pragma once
#include <string>

#include "runtime/status.hpp"

namespace weft::coll {

struct CostModel {
  double alpha_us = 1.0;
  double alpha_oversubscribed_us = 5.0;
  double beta_ns_per_byte = 0.1;
  // Another node: a network round trip and link (defaults: a few microseconds and 25 Gb/s
  // Ethernet or RDMA of that class).
  double alpha_inter_us = 4.0;
  double beta_inter_ns_per_byte = 0.4;
  double gamma_ns_per_byte = 0.1;
  // A cache line handed from the posting rank to its fetchers, without a message's matching.
  double alpha_region_us = 0.2;
  // A byte copied into a region's slot or out of a peer's: a plain copy between caches of one
  // node, without a message's protocol (memcpy runs at 20-50 GB/s on current x86 servers).
  double beta_region_ns_per_byte = 0.03;
  size_t segment_bytes = 128 * 1024;
  // GPU memory (coll/nccl_model.hpp). A copy to or from the device: one rank's device
  // allreduce of 8 B, two such copies around a host run, took 24 us on the H100 machine
  // (2026-11-24); PCIe 4.0 x16 moves about 25 GB/s. weft_tune measures both where CUDA runs.
  double alpha_device_us = 10.0;
  double beta_device_ns_per_byte = 0.04;
  // NCCL: about 7 us per call at any size up to 1 MiB at 1 rank on that machine (NCCL 2.28.3);
  // between GPUs, NVLink-class links of about 100 GB/s (not measured: NCCL refuses ranks that
  // share a GPU, and no machine with several GPUs was lent). Other nodes: the *_inter values.
  double alpha_nccl_us = 7.0;
  double beta_nccl_ns_per_byte = 0.01;
};

// Reads a tuning file into `model` (keys not in the file keep their values). Fails with
// MPI_ERR_OTHER naming the file and line on an unknown key or a bad number.
Status load_tuning(const std::string& path, CostModel* model);
// Parses tuning text (the file's contents); `origin` names it in messages.
Status parse_tuning(const std::string& text, const std::string& origin, CostModel* model);
std::string format_tuning(const CostModel& model);

// The model a job uses: when ranks outnumber cores, α becomes alpha_oversubscribed_us and the
// other-node and node-region α grow by as much (the receiver's context switch comes on top).
CostModel effective_model(CostModel model, bool oversubscribed);

}  // namespace weft::coll
