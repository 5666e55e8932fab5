// Loading libfabric at run time (pt2pt/ofi_library.hpp).
#include "pt2pt/ofi_library.hpp"

#include <dlfcn.h>

namespace weft::ofi {
namespace {

struct Loaded {
  Library lib{};
  bool ok = false;
  std::string why;
};

template <typename F>
bool bind(void* handle, const char* name, F* out, std::string* why) {
  *out = reinterpret_cast<F>(dlsym(handle, name));
  if (*out == nullptr) *why = std::string("libfabric.so.1 lacks ") + name;
  return *out != nullptr;
}

Loaded load() {
  Loaded l;
  void* h = dlopen("libfabric.so.1", RTLD_NOW | RTLD_LOCAL);
  if (h == nullptr) {
    const char* e = dlerror();
    l.why = std::string("cannot load libfabric.so.1: ") + (e != nullptr ? e : "unknown error");
    return l;
  }
  l.ok = bind(h, "fi_getinfo", &l.lib.getinfo, &l.why) &&
         bind(h, "fi_freeinfo", &l.lib.freeinfo, &l.why) &&
         bind(h, "fi_dupinfo", &l.lib.dupinfo, &l.why) &&
         bind(h, "fi_fabric", &l.lib.fabric, &l.why) &&
         bind(h, "fi_strerror", &l.lib.strerror, &l.why) &&
         bind(h, "fi_version", &l.lib.version, &l.why);
  return l;
}

}  // namespace

const Library* library(std::string* why) {
  static const Loaded loaded = load();
  if (!loaded.ok && why != nullptr) *why = loaded.why;
  return loaded.ok ? &loaded.lib : nullptr;
}

}  // namespace weft::ofi
