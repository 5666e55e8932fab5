// weft_info --coll's lines about NCCL (nccl_info.hpp).
#include "runtime/info/nccl_info.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>

#include "coll/device_mirror.hpp"
#include "coll/nccl_call.hpp"
#include "coll/nccl_path.hpp"
#include "gpu/memory.hpp"
#include "runtime/config.hpp"
#include "runtime/info/info_text.hpp"

namespace weft::info {

void print_nccl() {
  std::string library;
  const bool loads = coll::describe_nccl(&library);
  const std::string& no_cuda = gpu::find_device_memory(setting_value("WEFT_CUDA") != "0");
  std::printf("nccl (blocking calls on device buffers only): ");
  if (!loads) {
    std::printf("not available: %s\n", library.c_str());
  } else if (!no_cuda.empty()) {
    std::printf("not available: %s loads, but CUDA cannot be used here (%s)\n", library.c_str(),
                no_cuda.c_str());
  } else {
    std::printf("available, %s\n", library.c_str());
  }
  std::printf(
      "  used where every rank's buffers are on the device, NCCL accepts the communicator and\n"
      "  the model predicts it faster than Weft's schedules there (weft_info --coll NAME shows\n"
      "  both), or when forced\n");
}

void print_device_choice(const coll::Selector& selector, const coll::CollArgs& args) {
  const size_t bytes = coll::nccl_measure(args);
  if (!coll::nccl_runs(args.kind) || bytes == 0) return;
  const coll::DevicePrediction p =
      coll::predict_device_call(selector, args, bytes, coll::device_mirror_limit());
  if (p.schedule == nullptr) return;
  const coll::CostModel& m = selector.model();
  const bool forced = selector.nccl_forced(args.kind) || p.schedule == selector.forced(args.kind);
  const bool nccl = coll::nccl_wanted(selector, args.kind, p);
  const int width = std::max(4, int(std::strlen(p.schedule->name)));
  std::printf(
      "\non device buffers (where NCCL loads and accepts the communicator):\n"
      "   %-*s  %10s  (a call %g us, %g ns/B between GPUs)\n"
      "   %-*s  %10s  (with copies between device and host: %g us, %g ns/B each)\n"
      "   (the agreement before a call may go to NCCL, %s, %s a tenth of the call on host\n"
      "   buffers, %s)\n"
      "chosen there: %s%s\n",
      width, "nccl", seconds_text(p.nccl).c_str(), m.alpha_nccl_us, m.beta_nccl_ns_per_byte, width,
      p.schedule->name, seconds_text(p.weft).c_str(), m.alpha_device_us, m.beta_device_ns_per_byte,
      seconds_text(p.agreement).c_str(), p.worth_agreeing() ? "is at most" : "would be over",
      seconds_text(p.host).c_str(), nccl ? "nccl" : p.schedule->name,
      forced                ? " (forced)"
      : !p.worth_agreeing() ? ", as NCCL is not asked about"
                            : ", the cheaper predicted");
}

}  // namespace weft::info
