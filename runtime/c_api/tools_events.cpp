// MPI_T events, event sources and enumerations (MPI 4.1 §15.3.8, §15.3.5): the C entry points of
// runtime/tools/events*.cpp. Registrations bound to a communicator and the hints of info objects
// reach library state, so those calls hold the call lock first, then the tools lock.
#include <cstdlib>
#include <mutex>
#include <string>
#include <vector>

#include "mpi.h"
#include "runtime/c_api/guard.hpp"
#include "runtime/comm/info_objects.hpp"
#include "runtime/tools/tools.hpp"

namespace tools = weft::tools;

namespace {

// The info key that sets how many events a registration buffers for its callbacks.
constexpr const char* kBufferKey = "weft_event_buffer";
constexpr size_t kDefaultBuffer = 256;

bool valid_category(int index) { return index >= 0 && index < tools::category_count(); }

std::vector<int> events_of(int category) {
  std::vector<int> out;
  for (int e = 0; e < tools::event_count(); ++e)
    if (tools::event_category(e) == category) out.push_back(e);
  return out;
}

// The buffer size `info` asks for (kBufferKey, a positive number), else `fallback`; false when
// `info` is no info object or its value is not a positive number.
bool buffer_hint(MPI_Info info, size_t fallback, size_t* out) {
  *out = fallback;
  if (info == MPI_INFO_NULL) return true;
  const weft::InfoEntries* entries = nullptr;
  if (!weft::infos().entries(info, "info", &entries).ok()) return false;
  for (const auto& [key, value] : *entries) {
    if (key != kBufferKey) continue;
    char* end = nullptr;
    const long long n = std::strtoll(value.c_str(), &end, 10);
    if (end == value.c_str() || *end != '\0' || n <= 0) return false;
    *out = size_t(n);
  }
  return true;
}

// The context of the communicator *obj_handle for a registration of `event`: unbound when the
// event is bound to no object or obj_handle is NULL (every communicator).
int binding(int event, void* obj_handle, bool* bound, uint32_t* context) {
  *bound = false;
  *context = 0;
  if (tools::event_bind(event) != MPI_T_BIND_MPI_COMM || obj_handle == nullptr)
    return MPI_SUCCESS;
  weft::Comm* comm = nullptr;
  if (weft::world().phase != weft::Phase::kRunning ||
      !weft::capi::comm_arg(*static_cast<MPI_Comm*>(obj_handle), "obj_handle", &comm).ok())
    return MPI_T_ERR_INVALID_HANDLE;
  *bound = true;
  *context = comm->context;
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int PMPI_T_enum_get_info(MPI_T_enum enumtype, int* num, char* name, int* name_len) {
  WEFT_T_CALL(tools::enum_get_info(enumtype, num, name, name_len));
}
int PMPI_T_enum_get_item(MPI_T_enum enumtype, int index, int* value, char* name, int* name_len) {
  WEFT_T_CALL(tools::enum_get_item(enumtype, index, value, name, name_len));
}

int PMPI_T_event_get_num(int* num_events) {
  WEFT_T_CALL(num_events == nullptr ? MPI_T_ERR_INVALID
                                          : (*num_events = tools::event_count(), MPI_SUCCESS));
}
int PMPI_T_source_get_num(int* num_sources) {
  WEFT_T_CALL(num_sources == nullptr ? MPI_T_ERR_INVALID : (*num_sources = 1, MPI_SUCCESS));
}

int PMPI_T_category_get_num_events(int cat_index, int* num_events) {
  WEFT_T_CALL(!valid_category(cat_index) ? MPI_T_ERR_INVALID_INDEX
                    : num_events == nullptr
                        ? MPI_T_ERR_INVALID
                        : (*num_events = int(events_of(cat_index).size()), MPI_SUCCESS));
}
int PMPI_T_category_get_events(int cat_index, int len, int indices[]) {
  std::lock_guard<std::mutex> hold(tools::mutex());
  if (!tools::initialized()) return MPI_T_ERR_NOT_INITIALIZED;
  if (!valid_category(cat_index)) return MPI_T_ERR_INVALID_INDEX;
  if (len > 0 && indices == nullptr) return MPI_T_ERR_INVALID;
  const std::vector<int> all = events_of(cat_index);
  for (int i = 0; i < len && i < int(all.size()); ++i) indices[i] = all[size_t(i)];
  return MPI_SUCCESS;
}

int PMPI_T_source_get_info(int source_index, char* name, int* name_len, char* desc,
                           int* desc_len, MPI_T_source_order* ordering,
                           MPI_Count* ticks_per_second, MPI_Count* max_ticks, MPI_Info* info) {
  {
    std::lock_guard<std::mutex> hold(tools::mutex());
    if (!tools::initialized()) return MPI_T_ERR_NOT_INITIALIZED;
    if (int rc = tools::source_get_info(source_index, name, name_len, desc, desc_len, ordering,
                                        ticks_per_second, max_ticks))
      return rc;
  }
  if (info != nullptr) {
    WEFT_LOCKED_CALL();
    *info = weft::infos().create();
  }
  return MPI_SUCCESS;
}
int PMPI_T_source_get_timestamp(int source_index, MPI_Count* timestamp) {
  WEFT_T_CALL(source_index != 0       ? MPI_T_ERR_INVALID_INDEX
                    : timestamp == nullptr ? MPI_T_ERR_INVALID
                                           : (*timestamp = tools::source_timestamp(), 0));
}

int PMPI_T_event_get_info(int event_index, char* name, int* name_len, int* verbosity,
                          MPI_Datatype array_of_datatypes[], MPI_Aint array_of_displacements[],
                          int* num_elements, MPI_T_enum* enumtype, MPI_Info* info, char* desc,
                          int* desc_len, int* bind) {
  {
    std::lock_guard<std::mutex> hold(tools::mutex());
    if (!tools::initialized()) return MPI_T_ERR_NOT_INITIALIZED;
    if (int rc = tools::event_get_info(event_index, name, name_len, verbosity, array_of_datatypes,
                                       array_of_displacements, num_elements, enumtype, desc,
                                       desc_len, bind))
      return rc;
  }
  if (info != nullptr) {
    WEFT_LOCKED_CALL();
    *info = weft::infos().create();
  }
  return MPI_SUCCESS;
}
int PMPI_T_event_get_index(const char* name, int* event_index) {
  WEFT_T_CALL(tools::event_get_index(name, event_index));
}

int PMPI_T_event_handle_alloc(int event_index, void* obj_handle, MPI_Info info,
                              MPI_T_event_registration* event_registration) {
  WEFT_LOCKED_CALL();
  std::lock_guard<std::mutex> hold(tools::mutex());
  if (!tools::initialized()) return MPI_T_ERR_NOT_INITIALIZED;
  if (event_index < 0 || event_index >= tools::event_count()) return MPI_T_ERR_INVALID_INDEX;
  bool bound = false;
  uint32_t context = 0;
  if (int rc = binding(event_index, obj_handle, &bound, &context)) return rc;
  size_t capacity = 0;
  if (!buffer_hint(info, kDefaultBuffer, &capacity)) return MPI_T_ERR_INVALID;
  return tools::event_handle_alloc(event_index, bound, context, capacity, event_registration);
}
int PMPI_T_event_handle_set_info(MPI_T_event_registration event_registration, MPI_Info info) {
  WEFT_LOCKED_CALL();
  std::lock_guard<std::mutex> hold(tools::mutex());
  if (!tools::initialized()) return MPI_T_ERR_NOT_INITIALIZED;
  size_t capacity = 0;
  if (int rc = tools::event_handle_capacity(event_registration, &capacity)) return rc;
  if (!buffer_hint(info, capacity, &capacity)) return MPI_T_ERR_INVALID;
  return tools::event_handle_set_capacity(event_registration, capacity);
}
int PMPI_T_event_handle_get_info(MPI_T_event_registration event_registration,
                                 MPI_Info* info_used) {
  WEFT_LOCKED_CALL();
  std::lock_guard<std::mutex> hold(tools::mutex());
  if (!tools::initialized()) return MPI_T_ERR_NOT_INITIALIZED;
  size_t capacity = 0;
  if (int rc = tools::event_handle_capacity(event_registration, &capacity)) return rc;
  if (info_used == nullptr) return MPI_T_ERR_INVALID;
  *info_used = weft::infos().create({{kBufferKey, std::to_string(capacity)}});
  return MPI_SUCCESS;
}

int PMPI_T_event_register_callback(MPI_T_event_registration event_registration,
                                   MPI_T_cb_safety cb_safety, MPI_Info, void* user_data,
                                   MPI_T_event_cb_function event_cb_function) {
  WEFT_T_CALL(tools::event_register_callback(event_registration, cb_safety, user_data,
                                                   event_cb_function));
}
// Callbacks take no hints: set_info accepts any, get_info gives an empty object.
int PMPI_T_event_callback_set_info(MPI_T_event_registration event_registration,
                                   MPI_T_cb_safety cb_safety, MPI_Info) {
  WEFT_T_CALL(tools::event_check_callback(event_registration, cb_safety));
}
int PMPI_T_event_callback_get_info(MPI_T_event_registration event_registration,
                                   MPI_T_cb_safety cb_safety, MPI_Info* info_used) {
  WEFT_LOCKED_CALL();
  std::lock_guard<std::mutex> hold(tools::mutex());
  if (!tools::initialized()) return MPI_T_ERR_NOT_INITIALIZED;
  if (int rc = tools::event_check_callback(event_registration, cb_safety)) return rc;
  if (info_used == nullptr) return MPI_T_ERR_INVALID;
  *info_used = weft::infos().create();
  return MPI_SUCCESS;
}

int PMPI_T_event_handle_free(MPI_T_event_registration event_registration, void* user_data,
                             MPI_T_event_free_cb_function free_cb_function) {
  return tools::event_handle_free(event_registration, user_data, free_cb_function);
}
int PMPI_T_event_set_dropped_handler(MPI_T_event_registration event_registration,
                                     MPI_T_event_dropped_cb_function dropped_cb_function) {
  WEFT_T_CALL(tools::event_set_dropped_handler(event_registration, dropped_cb_function));
}

int PMPI_T_event_read(MPI_T_event_instance event_instance, int element_index, void* buffer) {
  WEFT_T_CALL(tools::event_read(event_instance, element_index, buffer));
}
int PMPI_T_event_copy(MPI_T_event_instance event_instance, void* buffer) {
  WEFT_T_CALL(tools::event_copy(event_instance, buffer));
}
int PMPI_T_event_get_timestamp(MPI_T_event_instance event_instance, MPI_Count* event_timestamp) {
  WEFT_T_CALL(tools::event_get_timestamp(event_instance, event_timestamp));
}
int PMPI_T_event_get_source(MPI_T_event_instance event_instance, int* source_index) {
  WEFT_T_CALL(tools::event_get_source(event_instance, source_index));
}

}  // extern "C"

WEFT_MPI_ALIAS(MPI_T_enum_get_info)
WEFT_MPI_ALIAS(MPI_T_enum_get_item)
WEFT_MPI_ALIAS(MPI_T_event_get_num)
WEFT_MPI_ALIAS(MPI_T_source_get_num)
WEFT_MPI_ALIAS(MPI_T_category_get_num_events)
WEFT_MPI_ALIAS(MPI_T_category_get_events)
WEFT_MPI_ALIAS(MPI_T_source_get_info)
WEFT_MPI_ALIAS(MPI_T_source_get_timestamp)
WEFT_MPI_ALIAS(MPI_T_event_get_info)
WEFT_MPI_ALIAS(MPI_T_event_get_index)
WEFT_MPI_ALIAS(MPI_T_event_handle_alloc)
WEFT_MPI_ALIAS(MPI_T_event_handle_set_info)
WEFT_MPI_ALIAS(MPI_T_event_handle_get_info)
WEFT_MPI_ALIAS(MPI_T_event_register_callback)
WEFT_MPI_ALIAS(MPI_T_event_callback_set_info)
WEFT_MPI_ALIAS(MPI_T_event_callback_get_info)
WEFT_MPI_ALIAS(MPI_T_event_handle_free)
WEFT_MPI_ALIAS(MPI_T_event_set_dropped_handler)
WEFT_MPI_ALIAS(MPI_T_event_read)
WEFT_MPI_ALIAS(MPI_T_event_copy)
WEFT_MPI_ALIAS(MPI_T_event_get_timestamp)
WEFT_MPI_ALIAS(MPI_T_event_get_source)
