// What MPI_T tells about Weft's events: their types (names, elements, categories, binding), the
// one event source "weft" and its clock, and the enumeration weft_coll_algorithm that names the
// algorithm of a coll_algorithm event.
#include <cstddef>
#include <ctime>
#include <string>
#include <vector>

#include "coll/registry.hpp"
#include "runtime/tools/events.hpp"
#include "runtime/tools/tools.hpp"

// The one enumeration; MPI_T_enum handles point at it.
struct weft_t_enum {
  const char* name;
};

namespace weft::tools {
namespace {

struct Element {
  MPI_Datatype type;
  MPI_Aint offset;
};

struct EventType {
  const char* name;
  const char* desc;
  int category;  // categories.cpp: 0 transport, 1 collectives
  int bind;
  std::vector<Element> elements;
  bool enumerated_first;  // the first element is an item of weft_coll_algorithm
};

const std::vector<EventType>& types() {
  static const std::vector<EventType> t = {
      {"unexpected_message",
       "A message from a rank of this node arrived before a receive matched it and was queued "
       "(Weft's own matching). Elements: source rank in the communicator, tag, context id of the "
       "communicator, payload bytes.",
       0,
       MPI_T_BIND_MPI_COMM,
       {{MPI_INT32_T, offsetof(UnexpectedMessageData, source)},
        {MPI_INT32_T, offsetof(UnexpectedMessageData, tag)},
        {MPI_INT32_T, offsetof(UnexpectedMessageData, context)},
        {MPI_INT64_T, offsetof(UnexpectedMessageData, bytes)}},
       false},
      {"coll_algorithm",
       "A collective call on an intracommunicator started with the algorithm chosen for it. "
       "Elements: the algorithm (enumeration weft_coll_algorithm, collective/algorithm), context "
       "id of the communicator, its size, the call's bytes on this rank.",
       1,
       MPI_T_BIND_MPI_COMM,
       {{MPI_INT32_T, offsetof(CollAlgorithmData, algorithm)},
        {MPI_INT32_T, offsetof(CollAlgorithmData, context)},
        {MPI_INT32_T, offsetof(CollAlgorithmData, size)},
        {MPI_INT64_T, offsetof(CollAlgorithmData, bytes)}},
       true},
      {"wait_blocked",
       "A waiting call stopped spinning and slept on the transport's event fd; raised when the "
       "wait ends. Element: nanoseconds it slept.",
       0,
       MPI_T_BIND_NO_OBJECT,
       {{MPI_INT64_T, offsetof(WaitBlockedData, blocked_ns)}},
       false},
  };
  return t;
}

weft_t_enum g_coll_algorithm_enum{"weft_coll_algorithm"};

// "collective/algorithm" for every algorithm of every collective on intracommunicators, in the
// order of the coll_*_calls performance variables.
const std::vector<std::pair<const coll::Algorithm*, std::string>>& algorithm_items() {
  static const auto items = [] {
    std::vector<std::pair<const coll::Algorithm*, std::string>> out;
    for (int k = 0; k < coll::kNumCollKinds; ++k)
      for (const coll::Algorithm* a : coll::algorithms_for(coll::CollKind(k)))
        out.emplace_back(a, std::string(coll::coll_name(coll::CollKind(k))) + "/" + a->name);
    return out;
  }();
  return items;
}

bool valid_event(int index) { return index >= 0 && index < event_count(); }

}  // namespace

int event_count() { return int(types().size()); }
int event_category(int index) { return types()[index].category; }
int event_bind(int index) { return types()[index].bind; }
int event_element_count(int index) { return int(types()[index].elements.size()); }

size_t event_element_bytes(int index, int element) {
  return types()[index].elements[element].type == MPI_INT64_T ? 8 : 4;
}
size_t event_element_offset(int index, int element) {
  return size_t(types()[index].elements[element].offset);
}

int event_get_info(int index, char* name, int* name_len, int* verbosity,
                   MPI_Datatype array_of_datatypes[], MPI_Aint array_of_displacements[],
                   int* num_elements, MPI_T_enum* enumtype, char* desc, int* desc_len,
                   int* bind) {
  if (!valid_event(index)) return MPI_T_ERR_INVALID_INDEX;
  const EventType& t = types()[index];
  copy_string(t.name, name, name_len);
  copy_string(t.desc, desc, desc_len);
  if (verbosity) *verbosity = MPI_T_VERBOSITY_USER_BASIC;
  if (num_elements != nullptr) {
    // Up to *num_elements entries of each array; then the number there is.
    for (int e = 0; e < *num_elements && e < int(t.elements.size()); ++e) {
      if (array_of_datatypes) array_of_datatypes[e] = t.elements[e].type;
      if (array_of_displacements) array_of_displacements[e] = t.elements[e].offset;
    }
    *num_elements = int(t.elements.size());
  }
  if (enumtype) *enumtype = t.enumerated_first ? &g_coll_algorithm_enum : MPI_T_ENUM_NULL;
  if (bind) *bind = t.bind;
  return MPI_SUCCESS;
}

int event_get_index(const char* name, int* index) {
  return index_by_name(name, event_count(), [](int i) { return types()[i].name; }, index);
}

int64_t source_timestamp() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

int source_get_info(int index, char* name, int* name_len, char* desc, int* desc_len,
                    MPI_T_source_order* ordering, MPI_Count* ticks_per_second,
                    MPI_Count* max_ticks) {
  if (index != 0) return MPI_T_ERR_INVALID_INDEX;
  copy_string("weft", name, name_len);
  copy_string(
      "Every event Weft raises, time-stamped in nanoseconds of CLOCK_MONOTONIC when raised. One "
      "registration's events reach its callbacks in time order; events of different "
      "registrations need not.",
      desc, desc_len);
  if (ordering) *ordering = MPI_T_SOURCE_UNORDERED;
  if (ticks_per_second) *ticks_per_second = 1000000000;
  if (max_ticks) *max_ticks = INT64_MAX;
  return MPI_SUCCESS;
}

int coll_algorithm_item(const coll::Algorithm& a) {
  const auto& items = algorithm_items();
  for (size_t i = 0; i < items.size(); ++i)
    if (items[i].first == &a) return int(i);
  return -1;
}

int enum_get_info(MPI_T_enum enumtype, int* num, char* name, int* name_len) {
  if (enumtype != &g_coll_algorithm_enum) return MPI_T_ERR_INVALID_HANDLE;
  if (num) *num = int(algorithm_items().size());
  copy_string(enumtype->name, name, name_len);
  return MPI_SUCCESS;
}

int enum_get_item(MPI_T_enum enumtype, int index, int* value, char* name, int* name_len) {
  if (enumtype != &g_coll_algorithm_enum) return MPI_T_ERR_INVALID_HANDLE;
  if (index < 0 || index >= int(algorithm_items().size())) return MPI_T_ERR_INVALID_ITEM;
  if (value) *value = index;
  copy_string(algorithm_items()[size_t(index)].second, name, name_len);
  return MPI_SUCCESS;
}

}  // namespace weft::tools
