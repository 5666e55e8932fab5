// libfabric loaded at run time (dlopen), only by a process that uses it. Linked in, it would load
// in every process: Debian's libfabric pulls in libpsm2, whose constructor takes over SIGSEGV
// and makes a crashing rank exit with code 1, so the launcher could no longer name the signal.
// Only these entry points are called; the rest of libfabric's API is inline calls through the
// objects' operation tables.
#pragma once
#include <rdma/fabric.h>

#include <cstdint>
#include <string>

namespace weft::ofi {

struct Library {
  int (*getinfo)(uint32_t version, const char* node, const char* service, uint64_t flags,
                 const fi_info* hints, fi_info** info);
  void (*freeinfo)(fi_info* info);
  fi_info* (*dupinfo)(const fi_info* info);
  int (*fabric)(fi_fabric_attr* attr, fid_fabric** fabric, void* context);
  const char* (*strerror)(int errnum);
  uint32_t (*version)();
};

// The library, loaded on first use (thread-safe); null, with the reason in `why`, when it
// cannot be loaded.
const Library* library(std::string* why = nullptr);

}  // namespace weft::ofi
