// weft_info: prints Weft's version, the libraries it runs on, the network transports and
// libfabric providers it can use and which it would choose, and its WEFT_* settings with their
// current values (the same table the runtime reads); --coll explains collective selection.
#include <pmix.h>
#include <ucp/api/ucp.h>
#ifdef WEFT_HAVE_OFI
#include <rdma/fabric.h>

#include "pt2pt/ofi_library.hpp"
#include "pt2pt/ofi_provider.hpp"
#endif

#include <cstdio>
#include <cstring>
#include <string>

#include "gpu/memory.hpp"
#include "mpi.h"
#include "pt2pt/shm/shm_transport.hpp"
#include "pt2pt/ucx_device_memory.hpp"
#include "runtime/config.hpp"
#include "runtime/info/coll_info.hpp"
#include "runtime/op/op.hpp"
#include "runtime/transport_setup.hpp"

namespace {

#ifdef WEFT_HAVE_OFI
void print_ofi() {
  std::string why;
  const weft::ofi::Library* lib = weft::ofi::library(&why);
  if (lib == nullptr) {
    std::printf("  transport ofi: not usable: %s\n", why.c_str());
    return;
  }
  const uint32_t v = lib->version();
  std::printf("  transport ofi: libfabric %u.%u (tagged messages), providers offered:\n",
              FI_MAJOR(v), FI_MINOR(v));
  const auto providers = weft::ofi::list_providers();
  if (providers.empty()) std::printf("      none\n");
  for (const weft::ofi::Provider& p : providers) {
    if (!p.refused.empty()) {
      std::printf("      %s: not used: %s\n", p.name.c_str(), p.refused.c_str());
      continue;
    }
    // Weft uses neither yet: one-sided operations go by messages, device memory is staged.
    const bool rma = weft::ofi::offers(p.name, FI_RMA), hmem = weft::ofi::offers(p.name, FI_HMEM);
    std::printf("      %s (domain %s): inject %zu B, largest message %zu B, RMA %s, device "
                "memory (FI_HMEM) %s%s\n",
                p.name.c_str(), p.domain.c_str(), p.inject_size, p.max_msg_size,
                rma ? "offered" : "no", hmem ? "offered" : "no",
                p.native_fabric ? "; a fabric UCX does not drive" : "");
  }
}
#endif

void print_transports() {
  std::printf("  transport ucx: UCX %s (tagged messages)\n", ucp_get_version_string());
#ifdef WEFT_HAVE_OFI
  print_ofi();
#else
  std::printf("  transport ofi: not built (libfabric was not found)\n");
#endif
  weft::TransportChoice choice;
  const weft::Status s = weft::choose_transport(&choice);
  if (!s.ok()) {
    std::printf("  network transport: none: %s\n", s.message.c_str());
  } else {
    const std::string with = choice.provider.empty() ? "" : " with provider " + choice.provider;
    std::printf("  network transport: %s%s (%s)\n", choice.transport.c_str(), with.c_str(),
                choice.why.c_str());
  }
}

// Whether a reduction kernel runs on this GPU: one integer sum on the device, checked (a failed
// launch falls back to the host and leaves can_reduce false).
bool kernels_run(weft::gpu::DeviceMemory& memory) {
  weft::Reduction r;
  r.op = MPI_SUM;
  r.datatype = MPI_INT;
  r.elem_size = sizeof(int);
  r.kernel = weft::predefined_kernel(MPI_SUM, MPI_INT, sizeof(int));
  if (!memory.can_reduce(r)) return false;
  auto* device = static_cast<int*>(memory.allocate_device(2 * sizeof(int)));
  if (device == nullptr) return false;
  const int values[2] = {2, 3};
  int sum = 0;
  const bool ok = memory.copy(device, values, sizeof values).ok() &&
                  memory.reduce(r, device, device + 1, 1).ok() &&
                  memory.copy(&sum, device + 1, sizeof sum).ok();
  memory.free_device(device);
  return ok && sum == 5 && memory.can_reduce(r);
}

// What GPU buffers get: found at run time, as MPI_Init finds it (MPIX_Query_cuda_support).
void print_gpu() {
  const std::string& why = weft::gpu::find_device_memory(weft::setting_value("WEFT_CUDA") != "0");
  weft::gpu::DeviceMemory* memory = weft::gpu::device_memory();
  if (memory == nullptr || !memory->usable()) {
    std::printf("  GPU buffers: not accepted: %s\n",
                memory == nullptr ? why.c_str() : memory->describe().c_str());
    return;
  }
#ifdef WEFT_HAVE_CUDA
  const char* kernels = kernels_run(*memory)
                            ? "reductions on device buffers run as CUDA kernels on the GPU"
                            : "reductions of device data run on the host: Weft's kernels cannot "
                              "be launched here";
#else
  const char* kernels = "built without nvcc: reductions of device data run on the host";
#endif
  std::printf("  GPU buffers: accepted (%s); %s\n", memory->describe().c_str(), kernels);
  const std::string node =
      weft::shm::device_path_text(weft::gpu_ipc_wanted(), "WEFT_SHM_EAGER_LIMIT bytes");
  std::printf("  GPU messages between ranks of a node: %s\n", node.c_str());
  const std::string ucx =
      weft::ucx_device_path(weft::ucx_library_moves_cuda_memory(), weft::gpu_ucx_pack_wanted());
  std::printf("  GPU messages over UCX: %s; over libfabric: registered (FI_HMEM) where the "
              "provider grants it, else through host memory\n",
              ucx.c_str());
  const weft::gpu::StagingShape staging = weft::staging_shape();
  std::printf("  GPU staging pipelines: chunks of %zu bytes of pinned memory, %zu under way "
              "(WEFT_GPU_STAGING_CHUNK, WEFT_GPU_STAGING_DEPTH)\n",
              staging.chunk_bytes, staging.depth);
}

void print_version() {
  std::printf("Weft %s (MPI %d.%d)\n", WEFT_VERSION_STRING, MPI_VERSION, MPI_SUBVERSION);
  print_transports();
  const bool shm = weft::setting_long("WEFT_SHM", 1) != 0;
  std::printf("  transport: shared memory between ranks of one node (%s)\n",
              shm ? "used for them when the kernel allows cross-memory attach"
                  : "off: WEFT_SHM=0");
  std::printf("  bootstrap: %s\n", PMIx_Get_version());
  print_gpu();
}

void print_settings() {
  std::printf("Settings (environment variables, or weftrun --set name=value):\n");
  for (const weft::Setting& s : weft::settings()) {
    std::printf("  %s = %s   (default %s)\n      %s\n", s.name, weft::setting_value(s.name).c_str(),
                s.default_value, s.doc);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && (std::strcmp(argv[1], "-h") == 0 || std::strcmp(argv[1], "--help") == 0)) {
    std::printf(
        "usage: weft_info [--version | --settings]\n"
        "       weft_info --coll [NAME --ranks N --bytes SIZE ...]  (--coll --help)\n");
    return 0;
  }
  if (argc > 1 && std::strcmp(argv[1], "--coll") == 0)
    return weft::info::coll_main(argc - 2, argv + 2);
  const bool only_version = argc > 1 && std::strcmp(argv[1], "--version") == 0;
  const bool only_settings = argc > 1 && std::strcmp(argv[1], "--settings") == 0;
  if (argc > 1 && !only_version && !only_settings) {
    std::fprintf(stderr, "weft_info: unknown option '%s' (try --help)\n", argv[1]);
    return 2;
  }
  if (!only_settings) print_version();
  if (!only_version) print_settings();
  return 0;
}
