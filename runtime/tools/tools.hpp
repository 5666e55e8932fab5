// MPI_T behind the C entry points (runtime/c_api/tools.cpp): each function returns an MPI_T
// return code (MPI_SUCCESS or MPI_T_ERR_*); none calls an error handler.
#pragma once
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>

#include "mpi.h"

// For the C entry points: holds the tools lock and returns `expr`, or MPI_T_ERR_NOT_INITIALIZED
// outside MPI_T_init_thread/MPI_T_finalize.
#define WEFT_T_CALL(expr)                                                  \
  do {                                                                     \
    std::lock_guard<std::mutex> weft_t_hold_(::weft::tools::mutex());      \
    if (!::weft::tools::initialized()) return MPI_T_ERR_NOT_INITIALIZED;   \
    return (expr);                                                         \
  } while (0)

namespace weft::coll {
struct Algorithm;
}

namespace weft::tools {

// The lock of the tools state (init count, handles, sessions).
std::mutex& mutex();
// Whether MPI_T is initialised (MPI_T_init_thread called more often than MPI_T_finalize).
bool initialized();
int init_thread(int required, int* provided);
int finalize();

// Copies `s` into `out` of *len characters (truncating, NUL-terminated) and sets *len to the
// characters written with the NUL; with `out` NULL or *len 0, sets *len to the length needed.
void copy_string(const std::string& s, char* out, int* len);

// The *_get_index rule: *index = the first i below `count` whose name_of(i) is `name`, else
// MPI_T_ERR_INVALID_NAME; MPI_T_ERR_INVALID for a NULL argument.
int index_by_name(const char* name, int count, const std::function<const char*(int)>& name_of,
                  int* index);

// Control variables.
int cvar_count();
int cvar_get_info(int index, char* name, int* name_len, int* verbosity, MPI_Datatype* datatype,
                  MPI_T_enum* enumtype, char* desc, int* desc_len, int* bind, int* scope);
int cvar_get_index(const char* name, int* index);
int cvar_handle_alloc(int index, MPI_T_cvar_handle* handle, int* count);
int cvar_handle_free(MPI_T_cvar_handle* handle);
int cvar_read(MPI_T_cvar_handle handle, void* buf);
int cvar_write(MPI_T_cvar_handle handle, const void* buf);
// The category a setting belongs to (index into the category table).
int cvar_category(int index);

// Performance variables.
int pvar_count();
int pvar_get_info(int index, char* name, int* name_len, int* verbosity, int* var_class,
                  MPI_Datatype* datatype, MPI_T_enum* enumtype, char* desc, int* desc_len,
                  int* bind, int* readonly, int* continuous, int* atomic);
int pvar_get_index(const char* name, int var_class, int* index);
int pvar_category(int index);
int session_create(MPI_T_pvar_session* session);
int session_free(MPI_T_pvar_session* session);
int pvar_handle_alloc(MPI_T_pvar_session session, int index, MPI_T_pvar_handle* handle, int* count);
int pvar_handle_free(MPI_T_pvar_session session, MPI_T_pvar_handle* handle);
int pvar_start(MPI_T_pvar_session session, MPI_T_pvar_handle handle);
int pvar_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle);
int pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void* buf);
int pvar_write(MPI_T_pvar_session session, MPI_T_pvar_handle handle, const void* buf);
int pvar_reset(MPI_T_pvar_session session, MPI_T_pvar_handle handle);
int pvar_readreset(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void* buf);

// Categories.
int category_count();
int category_get_info(int index, char* name, int* name_len, char* desc, int* desc_len,
                      int* num_cvars, int* num_pvars, int* num_categories);
int category_get_index(const char* name, int* index);
int category_get_cvars(int index, int len, int indices[]);
int category_get_pvars(int index, int len, int indices[]);

// Events (events_table.cpp: what they are; events.cpp: registrations and delivery). The
// functions that run callbacks (event_handle_free) take the lock themselves; the others expect
// it held.
int event_count();
int event_category(int index);
int event_bind(int index);
int event_element_count(int index);
size_t event_element_bytes(int index, int element);
size_t event_element_offset(int index, int element);
int event_get_info(int index, char* name, int* name_len, int* verbosity,
                   MPI_Datatype array_of_datatypes[], MPI_Aint array_of_displacements[],
                   int* num_elements, MPI_T_enum* enumtype, char* desc, int* desc_len, int* bind);
int event_get_index(const char* name, int* index);
// The item of weft_coll_algorithm naming `a`, or -1 (an intercommunicator algorithm).
int coll_algorithm_item(const coll::Algorithm& a);
int enum_get_info(MPI_T_enum enumtype, int* num, char* name, int* name_len);
int enum_get_item(MPI_T_enum enumtype, int index, int* value, char* name, int* name_len);
// The one source, "weft": CLOCK_MONOTONIC in nanoseconds.
int64_t source_timestamp();
int source_get_info(int index, char* name, int* name_len, char* desc, int* desc_len,
                    MPI_T_source_order* ordering, MPI_Count* ticks_per_second,
                    MPI_Count* max_ticks);
// A registration for event `index`, of the communicator with point-to-point context `context`
// when `bound`, buffering at most `capacity` events for its callbacks.
int event_handle_alloc(int index, bool bound, uint32_t context, size_t capacity,
                       MPI_T_event_registration* out);
int event_handle_capacity(MPI_T_event_registration r, size_t* capacity);
int event_handle_set_capacity(MPI_T_event_registration r, size_t capacity);
int event_register_callback(MPI_T_event_registration r, MPI_T_cb_safety level, void* user_data,
                            MPI_T_event_cb_function* fn);
// MPI_SUCCESS when `r` is a registration and `level` a safety level.
int event_check_callback(MPI_T_event_registration r, MPI_T_cb_safety level);
int event_set_dropped_handler(MPI_T_event_registration r, MPI_T_event_dropped_cb_function* fn);
int event_handle_free(MPI_T_event_registration r, void* user_data,
                      MPI_T_event_free_cb_function* fn);
int event_read(MPI_T_event_instance inst, int element, void* buffer);
int event_copy(MPI_T_event_instance inst, void* buffer);
int event_get_timestamp(MPI_T_event_instance inst, MPI_Count* timestamp);
int event_get_source(MPI_T_event_instance inst, int* source_index);

}  // namespace weft::tools
