// MPI_T events and event sources (MPI 4.1 §15.3.8): Weft defines none, so the counts are 0 and
// every call naming an event, a source, a registration or an instance is refused.
#include <mutex>

#include "mpi.h"
#include "runtime/c_api/guard.hpp"
#include "runtime/tools/tools.hpp"

namespace tools = weft::tools;

namespace {
// `code`, or MPI_T_ERR_NOT_INITIALIZED outside MPI_T_init_thread/MPI_T_finalize.
int refuse(int code) {
  std::lock_guard<std::mutex> hold(tools::mutex());
  return tools::initialized() ? code : MPI_T_ERR_NOT_INITIALIZED;
}
// Zero into *n, or an error code.
int none(int* n) {
  if (int rc = refuse(MPI_SUCCESS)) return rc;
  if (n == nullptr) return MPI_T_ERR_INVALID;
  *n = 0;
  return MPI_SUCCESS;
}
bool valid_category(int index) { return index >= 0 && index < tools::category_count(); }
}  // namespace

extern "C" {

int PMPI_T_event_get_num(int* num_events) { return none(num_events); }
int PMPI_T_source_get_num(int* num_sources) { return none(num_sources); }

int PMPI_T_category_get_num_events(int cat_index, int* num_events) {
  return valid_category(cat_index) ? none(num_events) : refuse(MPI_T_ERR_INVALID_INDEX);
}
int PMPI_T_category_get_events(int cat_index, int, int[]) {
  return refuse(valid_category(cat_index) ? MPI_SUCCESS : MPI_T_ERR_INVALID_INDEX);
}

int PMPI_T_source_get_info(int, char*, int*, char*, int*, MPI_T_source_order*, MPI_Count*,
                           MPI_Count*, MPI_Info*) {
  return refuse(MPI_T_ERR_INVALID_INDEX);
}
int PMPI_T_source_get_timestamp(int, MPI_Count*) { return refuse(MPI_T_ERR_INVALID_INDEX); }
int PMPI_T_event_get_info(int, char*, int*, int*, MPI_Datatype[], MPI_Aint[], int*, MPI_T_enum*,
                          MPI_Info*, char*, int*, int*) {
  return refuse(MPI_T_ERR_INVALID_INDEX);
}
int PMPI_T_event_get_index(const char*, int*) { return refuse(MPI_T_ERR_INVALID_NAME); }
int PMPI_T_event_handle_alloc(int, void*, MPI_Info, MPI_T_event_registration*) {
  return refuse(MPI_T_ERR_INVALID_INDEX);
}
int PMPI_T_event_handle_set_info(MPI_T_event_registration, MPI_Info) {
  return refuse(MPI_T_ERR_INVALID_HANDLE);
}
int PMPI_T_event_handle_get_info(MPI_T_event_registration, MPI_Info*) {
  return refuse(MPI_T_ERR_INVALID_HANDLE);
}
int PMPI_T_event_register_callback(MPI_T_event_registration, MPI_T_cb_safety, MPI_Info, void*,
                                   MPI_T_event_cb_function) {
  return refuse(MPI_T_ERR_INVALID_HANDLE);
}
int PMPI_T_event_callback_set_info(MPI_T_event_registration, MPI_T_cb_safety, MPI_Info) {
  return refuse(MPI_T_ERR_INVALID_HANDLE);
}
int PMPI_T_event_callback_get_info(MPI_T_event_registration, MPI_T_cb_safety, MPI_Info*) {
  return refuse(MPI_T_ERR_INVALID_HANDLE);
}
int PMPI_T_event_handle_free(MPI_T_event_registration, void*, MPI_T_event_free_cb_function) {
  return refuse(MPI_T_ERR_INVALID_HANDLE);
}
int PMPI_T_event_set_dropped_handler(MPI_T_event_registration, MPI_T_event_dropped_cb_function) {
  return refuse(MPI_T_ERR_INVALID_HANDLE);
}
int PMPI_T_event_read(MPI_T_event_instance, int, void*) { return refuse(MPI_T_ERR_INVALID_HANDLE); }
int PMPI_T_event_copy(MPI_T_event_instance, void*) { return refuse(MPI_T_ERR_INVALID_HANDLE); }
int PMPI_T_event_get_timestamp(MPI_T_event_instance, MPI_Count*) {
  return refuse(MPI_T_ERR_INVALID_HANDLE);
}
int PMPI_T_event_get_source(MPI_T_event_instance, int*) { return refuse(MPI_T_ERR_INVALID_HANDLE); }

}  // extern "C"

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
