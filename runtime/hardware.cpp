// The node's topology, read once with hwloc_topology_load, and the process's CPU binding, read at
// each question (hwloc_get_cpubind): a process may be rebound while it runs.
#include "runtime/hardware.hpp"

#include <hwloc.h>

#include <memory>

namespace weft::hardware {
namespace {

struct TypeName {
  const char* uri;
  hwloc_obj_type_t type;
};
constexpr TypeName kTypes[] = {
    {"hwloc://Machine", HWLOC_OBJ_MACHINE},   {"hwloc://Package", HWLOC_OBJ_PACKAGE},
    {"hwloc://NUMANode", HWLOC_OBJ_NUMANODE}, {"hwloc://L3Cache", HWLOC_OBJ_L3CACHE},
    {"hwloc://L2Cache", HWLOC_OBJ_L2CACHE},   {"hwloc://L1Cache", HWLOC_OBJ_L1CACHE},
    {"hwloc://Core", HWLOC_OBJ_CORE},         {"hwloc://PU", HWLOC_OBJ_PU},
};

struct TopologyDeleter {
  void operator()(hwloc_topology* t) const { hwloc_topology_destroy(t); }
};

// The node's topology, loaded at the first question; null when hwloc cannot load it. Called under
// the call lock (runtime/call_lock.hpp), like every entry point that gets here.
hwloc_topology* topology() {
  static std::unique_ptr<hwloc_topology, TopologyDeleter> loaded = [] {
    hwloc_topology_t t = nullptr;
    if (hwloc_topology_init(&t) != 0) return std::unique_ptr<hwloc_topology, TopologyDeleter>();
    std::unique_ptr<hwloc_topology, TopologyDeleter> owned(t);
    if (hwloc_topology_load(t) != 0) owned.reset();
    return owned;
  }();
  return loaded.get();
}

const TypeName* find_type(const std::string& uri) {
  for (const TypeName& t : kTypes)
    if (uri == t.uri) return &t;
  return nullptr;
}

}  // namespace

const std::vector<std::string>& known_types() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const TypeName& t : kTypes) out.emplace_back(t.uri);
    return out;
  }();
  return names;
}

std::vector<std::string> present_types() {
  std::vector<std::string> out;
  hwloc_topology* t = topology();
  if (t == nullptr) return out;
  for (const TypeName& type : kTypes)
    if (hwloc_get_nbobjs_by_type(t, type.type) > 0) out.emplace_back(type.uri);
  return out;
}

int restricted_instance(const std::string& type) {
  const TypeName* wanted = find_type(type);
  hwloc_topology* t = topology();
  if (wanted == nullptr || t == nullptr) return -1;
  // The process's binding; a thread's where the process's cannot be read (threads bound apart).
  hwloc_bitmap_t bound = hwloc_bitmap_alloc();
  if (hwloc_get_cpubind(t, bound, HWLOC_CPUBIND_PROCESS) != 0 &&
      hwloc_get_cpubind(t, bound, HWLOC_CPUBIND_THREAD) != 0) {
    hwloc_bitmap_free(bound);
    return -1;
  }
  int instance = -1;
  for (hwloc_obj_t obj = hwloc_get_next_obj_by_type(t, wanted->type, nullptr); obj != nullptr;
       obj = hwloc_get_next_obj_by_type(t, wanted->type, obj)) {
    if (!hwloc_bitmap_iszero(bound) && hwloc_bitmap_isincluded(bound, obj->cpuset)) {
      instance = int(obj->logical_index);
      break;
    }
  }
  hwloc_bitmap_free(bound);
  return instance;
}

}  // namespace weft::hardware
