// The Fortran glue of the functions api/mpi.api marks [manual]: attribute values (Fortran sees
// predefined attributes by value), keyvals, generalized requests and data representations with
// Fortran callbacks, and the CHARACTER argv arrays of MPI_COMM_SPAWN(_MULTIPLE).
#include <string>
#include <vector>

#include "fortran/callbacks.hpp"
#include "fortran/glue_support.hpp"

namespace weft::fortran {


// Predefined attributes are stored in C as pointers to their values; Fortran reads the value
// (MPI 4.1 §7.7.2). MPI_WIN_BASE is the base address itself, MPI_WIN_SIZE an MPI_Aint.
static MPI_Aint fortran_value(int keyval, bool window, void* c_value) {
  if (window) {
    if (keyval == MPI_WIN_BASE) return reinterpret_cast<MPI_Aint>(c_value);
    if (keyval == MPI_WIN_SIZE) return *static_cast<MPI_Aint*>(c_value);
    if (keyval >= MPI_WIN_DISP_UNIT && keyval <= MPI_WIN_MODEL) return *static_cast<int*>(c_value);
  } else if (keyval >= MPI_TAG_UB && keyval <= MPI_LASTUSEDCODE) {
    return *static_cast<int*>(c_value);
  }
  return reinterpret_cast<MPI_Aint>(c_value);
}

template <bool P, typename GetAttr>
void get_attr(GetAttr get, bool window, MPI_Fint* object, MPI_Fint* keyval, MPI_Aint* value,
              MPI_Fint* flag, MPI_Fint* ierror) {
  void* c_value = nullptr;
  int found = 0;
  const int rc = get(*object, *keyval, &c_value, &found);
  *flag = found;
  if (rc == MPI_SUCCESS && found) *value = fortran_value(*keyval, window, c_value);
  set_ierror(ierror, rc);
}

template <bool P>
void comm_get_attr(MPI_Fint* comm, MPI_Fint* keyval, MPI_Aint* value, MPI_Fint* flag,
                   MPI_Fint* ierror) {
  get_attr<P>(WEFT_C(P, MPI_Comm_get_attr), false, comm, keyval, value, flag, ierror);
}
template <bool P>
void type_get_attr(MPI_Fint* type, MPI_Fint* keyval, MPI_Aint* value, MPI_Fint* flag,
                   MPI_Fint* ierror) {
  get_attr<P>(WEFT_C(P, MPI_Type_get_attr), false, type, keyval, value, flag, ierror);
}
template <bool P>
void win_get_attr(MPI_Fint* win, MPI_Fint* keyval, MPI_Aint* value, MPI_Fint* flag,
                  MPI_Fint* ierror) {
  get_attr<P>(WEFT_C(P, MPI_Win_get_attr), true, win, keyval, value, flag, ierror);
}
// MPI_ATTR_GET and MPI_ATTR_PUT (MPI-1) carry a default INTEGER value.
template <bool P>
void attr_get(MPI_Fint* comm, MPI_Fint* keyval, MPI_Fint* value, MPI_Fint* flag,
              MPI_Fint* ierror) {
  MPI_Aint wide = 0;
  get_attr<P>(WEFT_C(P, MPI_Comm_get_attr), false, comm, keyval, &wide, flag, ierror);
  if (*flag) *value = static_cast<MPI_Fint>(wide);
}
template <bool P>
void attr_put(MPI_Fint* comm, MPI_Fint* keyval, MPI_Fint* value, MPI_Fint* ierror) {
  set_ierror(ierror, WEFT_C(P, MPI_Comm_set_attr)(*comm, *keyval,
                                                  reinterpret_cast<void*>(MPI_Aint(*value))));
}

WEFT_F_NAMES(type_get_attr, type_get_attr,
             (MPI_Fint * c, MPI_Fint * k, MPI_Aint * v, MPI_Fint * f, MPI_Fint * e),
             (c, k, v, f, e))
WEFT_F_NAMES(attr_get, attr_get,
             (MPI_Fint * c, MPI_Fint * k, MPI_Fint * v, MPI_Fint * f, MPI_Fint * e),
             (c, k, v, f, e))

// Keyvals: the C keyval's callbacks are the trampolines, its extra_state the Fortran pair. The
// pair lives as long as the process (a keyval's callbacks may run until the last object goes).
template <typename Create>
void create_keyval(Create create, void (*copy)(), void (*del)(), MPI_Fint* keyval,
                   MPI_Aint extra_state, AttrWidth width, MPI_Fint* ierror) {
  auto* k = new FortranKeyval{copy, del, extra_state, width};
  set_ierror(ierror, create(copy_trampoline, delete_trampoline, keyval, k));
}
template <bool P>
void comm_create_keyval(void (*copy)(), void (*del)(), MPI_Fint* keyval, MPI_Aint* extra,
                        MPI_Fint* ierror) {
  create_keyval(WEFT_C(P, MPI_Comm_create_keyval), copy, del, keyval, *extra,
                AttrWidth::kAddress, ierror);
}
template <bool P>
void type_create_keyval(void (*copy)(), void (*del)(), MPI_Fint* keyval, MPI_Aint* extra,
                        MPI_Fint* ierror) {
  create_keyval(WEFT_C(P, MPI_Type_create_keyval), copy, del, keyval, *extra,
                AttrWidth::kAddress, ierror);
}
template <bool P>
void win_create_keyval(void (*copy)(), void (*del)(), MPI_Fint* keyval, MPI_Aint* extra,
                       MPI_Fint* ierror) {
  create_keyval(WEFT_C(P, MPI_Win_create_keyval), copy, del, keyval, *extra,
                AttrWidth::kAddress, ierror);
}
template <bool P>
void keyval_create(void (*copy)(), void (*del)(), MPI_Fint* keyval, MPI_Fint* extra,
                   MPI_Fint* ierror) {
  create_keyval(WEFT_C(P, MPI_Comm_create_keyval), copy, del, keyval, MPI_Aint(*extra),
                AttrWidth::kInteger, ierror);
}

WEFT_F_NAMES(type_create_keyval, type_create_keyval,
             (void (*c)(), void (*d)(), MPI_Fint* k, MPI_Aint* x, MPI_Fint* e), (c, d, k, x, e))
WEFT_F_NAMES(keyval_create, keyval_create,
             (void (*c)(), void (*d)(), MPI_Fint* k, MPI_Fint* x, MPI_Fint* e), (c, d, k, x, e))

}  // namespace weft::fortran

using namespace weft::fortran;

WEFT_F_NAMES(comm_get_attr, comm_get_attr,
             (MPI_Fint * c, MPI_Fint * k, MPI_Aint * v, MPI_Fint * f, MPI_Fint * e),
             (c, k, v, f, e))

WEFT_F_NAMES(win_get_attr, win_get_attr,
             (MPI_Fint * c, MPI_Fint * k, MPI_Aint * v, MPI_Fint * f, MPI_Fint * e),
             (c, k, v, f, e))

WEFT_F_NAMES(attr_put, attr_put, (MPI_Fint * c, MPI_Fint * k, MPI_Fint * v, MPI_Fint * e),
             (c, k, v, e))

WEFT_F_NAMES(comm_create_keyval, comm_create_keyval,
             (void (*c)(), void (*d)(), MPI_Fint* k, MPI_Aint* x, MPI_Fint* e), (c, d, k, x, e))

WEFT_F_NAMES(win_create_keyval, win_create_keyval,
             (void (*c)(), void (*d)(), MPI_Fint* k, MPI_Aint* x, MPI_Fint* e), (c, d, k, x, e))
