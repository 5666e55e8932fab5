// MPI_T behind the C entry points (runtime/c_api/tools.cpp): each function returns an MPI_T
// return code (MPI_SUCCESS or MPI_T_ERR_*); none calls an error handler.
#pragma once
#include <mutex>
#include <string>

#include "mpi.h"

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

}  // namespace weft::tools
