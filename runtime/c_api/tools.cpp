// MPI_T entry points (MPI 4.1 chapter 15): init count, control and performance variables,
// categories; events and enumerations are in tools_events.cpp. They return MPI_T return codes
// and never call an error handler; they work before MPI_Init and after MPI_Finalize, from any
// thread (runtime/tools/README.md).
#include "runtime/tools/tools.hpp"

#include <mutex>

#include "mpi.h"
#include "runtime/c_api/guard.hpp"

namespace tools = weft::tools;

extern "C" {

int PMPI_T_init_thread(int required, int* provided) {
  std::lock_guard<std::mutex> hold(tools::mutex());
  return tools::init_thread(required, provided);
}

int PMPI_T_finalize(void) {
  std::lock_guard<std::mutex> hold(tools::mutex());
  return tools::finalize();
}

int PMPI_T_cvar_get_num(int* num_cvar) {
  WEFT_T_CALL(num_cvar == nullptr ? MPI_T_ERR_INVALID : (*num_cvar = tools::cvar_count(), 0));
}

int PMPI_T_cvar_get_info(int cvar_index, char* name, int* name_len, int* verbosity,
                         MPI_Datatype* datatype, MPI_T_enum* enumtype, char* desc, int* desc_len,
                         int* bind, int* scope) {
  WEFT_T_CALL(tools::cvar_get_info(cvar_index, name, name_len, verbosity, datatype, enumtype, desc,
                                   desc_len, bind, scope));
}

int PMPI_T_cvar_get_index(const char* name, int* cvar_index) {
  WEFT_T_CALL(tools::cvar_get_index(name, cvar_index));
}

int PMPI_T_cvar_handle_alloc(int cvar_index, void*, MPI_T_cvar_handle* handle, int* count) {
  WEFT_T_CALL(tools::cvar_handle_alloc(cvar_index, handle, count));
}

int PMPI_T_cvar_handle_free(MPI_T_cvar_handle* handle) {
  WEFT_T_CALL(tools::cvar_handle_free(handle));
}

int PMPI_T_cvar_read(MPI_T_cvar_handle handle, void* buf) {
  WEFT_T_CALL(tools::cvar_read(handle, buf));
}

int PMPI_T_cvar_write(MPI_T_cvar_handle handle, const void* buf) {
  WEFT_T_CALL(tools::cvar_write(handle, buf));
}

int PMPI_T_pvar_get_num(int* num_pvar) {
  WEFT_T_CALL(num_pvar == nullptr ? MPI_T_ERR_INVALID : (*num_pvar = tools::pvar_count(), 0));
}

int PMPI_T_pvar_get_info(int pvar_index, char* name, int* name_len, int* verbosity, int* var_class,
                         MPI_Datatype* datatype, MPI_T_enum* enumtype, char* desc, int* desc_len,
                         int* bind, int* readonly, int* continuous, int* atomic) {
  WEFT_T_CALL(tools::pvar_get_info(pvar_index, name, name_len, verbosity, var_class, datatype,
                                   enumtype, desc, desc_len, bind, readonly, continuous, atomic));
}

int PMPI_T_pvar_get_index(const char* name, int var_class, int* pvar_index) {
  WEFT_T_CALL(tools::pvar_get_index(name, var_class, pvar_index));
}

int PMPI_T_pvar_session_create(MPI_T_pvar_session* session) {
  WEFT_T_CALL(tools::session_create(session));
}

int PMPI_T_pvar_session_free(MPI_T_pvar_session* session) {
  WEFT_T_CALL(tools::session_free(session));
}

// Every variable is bound to no object, so obj_handle is ignored.
int PMPI_T_pvar_handle_alloc(MPI_T_pvar_session session, int pvar_index, void*,
                             MPI_T_pvar_handle* handle, int* count) {
  WEFT_T_CALL(tools::pvar_handle_alloc(session, pvar_index, handle, count));
}

int PMPI_T_pvar_handle_free(MPI_T_pvar_session session, MPI_T_pvar_handle* handle) {
  WEFT_T_CALL(tools::pvar_handle_free(session, handle));
}

int PMPI_T_pvar_start(MPI_T_pvar_session session, MPI_T_pvar_handle handle) {
  WEFT_T_CALL(tools::pvar_start(session, handle));
}

int PMPI_T_pvar_stop(MPI_T_pvar_session session, MPI_T_pvar_handle handle) {
  WEFT_T_CALL(tools::pvar_stop(session, handle));
}

int PMPI_T_pvar_read(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void* buf) {
  WEFT_T_CALL(tools::pvar_read(session, handle, buf));
}

int PMPI_T_pvar_write(MPI_T_pvar_session session, MPI_T_pvar_handle handle, const void* buf) {
  WEFT_T_CALL(tools::pvar_write(session, handle, buf));
}

int PMPI_T_pvar_reset(MPI_T_pvar_session session, MPI_T_pvar_handle handle) {
  WEFT_T_CALL(tools::pvar_reset(session, handle));
}

int PMPI_T_pvar_readreset(MPI_T_pvar_session session, MPI_T_pvar_handle handle, void* buf) {
  WEFT_T_CALL(tools::pvar_readreset(session, handle, buf));
}

int PMPI_T_category_get_num(int* num_cat) {
  WEFT_T_CALL(num_cat == nullptr ? MPI_T_ERR_INVALID : (*num_cat = tools::category_count(), 0));
}

int PMPI_T_category_get_info(int cat_index, char* name, int* name_len, char* desc, int* desc_len,
                             int* num_cvars, int* num_pvars, int* num_categories) {
  WEFT_T_CALL(tools::category_get_info(cat_index, name, name_len, desc, desc_len, num_cvars,
                                       num_pvars, num_categories));
}

int PMPI_T_category_get_index(const char* name, int* cat_index) {
  WEFT_T_CALL(tools::category_get_index(name, cat_index));
}

int PMPI_T_category_get_cvars(int cat_index, int len, int indices[]) {
  WEFT_T_CALL(tools::category_get_cvars(cat_index, len, indices));
}

int PMPI_T_category_get_pvars(int cat_index, int len, int indices[]) {
  WEFT_T_CALL(tools::category_get_pvars(cat_index, len, indices));
}

// The categories are flat: none holds another.
int PMPI_T_category_get_categories(int cat_index, int, int[]) {
  WEFT_T_CALL(cat_index < 0 || cat_index >= tools::category_count() ? MPI_T_ERR_INVALID_INDEX
                                                                    : MPI_SUCCESS);
}

// The variables never change while the process runs.
int PMPI_T_category_changed(int* update_number) {
  WEFT_T_CALL(update_number == nullptr ? MPI_T_ERR_INVALID : (*update_number = 0, 0));
}

}  // extern "C"

WEFT_MPI_ALIAS(MPI_T_init_thread)
WEFT_MPI_ALIAS(MPI_T_finalize)
WEFT_MPI_ALIAS(MPI_T_cvar_get_num)
WEFT_MPI_ALIAS(MPI_T_cvar_get_info)
WEFT_MPI_ALIAS(MPI_T_cvar_get_index)
WEFT_MPI_ALIAS(MPI_T_cvar_handle_alloc)
WEFT_MPI_ALIAS(MPI_T_cvar_handle_free)
WEFT_MPI_ALIAS(MPI_T_cvar_read)
WEFT_MPI_ALIAS(MPI_T_cvar_write)
WEFT_MPI_ALIAS(MPI_T_pvar_get_num)
WEFT_MPI_ALIAS(MPI_T_pvar_get_info)
WEFT_MPI_ALIAS(MPI_T_pvar_get_index)
WEFT_MPI_ALIAS(MPI_T_pvar_session_create)
WEFT_MPI_ALIAS(MPI_T_pvar_session_free)
WEFT_MPI_ALIAS(MPI_T_pvar_handle_alloc)
WEFT_MPI_ALIAS(MPI_T_pvar_handle_free)
WEFT_MPI_ALIAS(MPI_T_pvar_start)
WEFT_MPI_ALIAS(MPI_T_pvar_stop)
WEFT_MPI_ALIAS(MPI_T_pvar_read)
WEFT_MPI_ALIAS(MPI_T_pvar_write)
WEFT_MPI_ALIAS(MPI_T_pvar_reset)
WEFT_MPI_ALIAS(MPI_T_pvar_readreset)
WEFT_MPI_ALIAS(MPI_T_category_get_num)
WEFT_MPI_ALIAS(MPI_T_category_get_info)
WEFT_MPI_ALIAS(MPI_T_category_get_index)
WEFT_MPI_ALIAS(MPI_T_category_get_cvars)
WEFT_MPI_ALIAS(MPI_T_category_get_pvars)
WEFT_MPI_ALIAS(MPI_T_category_get_categories)
WEFT_MPI_ALIAS(MPI_T_category_changed)
