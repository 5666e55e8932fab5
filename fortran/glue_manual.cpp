// The Fortran glue of the attribute calls api/mpi.api marks [manual]: attribute values (Fortran
// sees predefined attributes by value), the MPI-1 INTEGER forms, and keyvals whose copy and
// delete callbacks are Fortran procedures (through fortran/callbacks.hpp's trampolines).
#include "fortran/callbacks.hpp"
#include "fortran/glue_support.hpp"

namespace weft::fortran {
namespace {

// Predefined attributes are stored in C as pointers to their values; Fortran reads the value
// (MPI 4.1 §7.7.2). MPI_WIN_BASE is the base address itself, MPI_WIN_SIZE an MPI_Aint.
MPI_Aint fortran_value(int keyval, bool window, void* c_value) {
  if (window) {
    if (keyval == MPI_WIN_BASE) return reinterpret_cast<MPI_Aint>(c_value);
    if (keyval == MPI_WIN_SIZE) return *static_cast<MPI_Aint*>(c_value);
    if (keyval >= MPI_WIN_DISP_UNIT && keyval <= MPI_WIN_MODEL) return *static_cast<int*>(c_value);
  } else if (keyval >= MPI_TAG_UB && keyval <= MPI_LASTUSEDCODE) {
    return *static_cast<int*>(c_value);
  }
  return reinterpret_cast<MPI_Aint>(c_value);
}

using GetAttr = int (*)(int, int, void*, int*);
using CreateKeyval = int (*)(MPI_Comm_copy_attr_function*, MPI_Comm_delete_attr_function*, int*,
                             void*);

void get_attr(GetAttr get, bool window, MPI_Fint* object, MPI_Fint* keyval, MPI_Aint* value,
              MPI_Fint* flag, MPI_Fint* ierror) {
  void* c_value = nullptr;
  int found = 0;
  const int rc = get(*object, *keyval, &c_value, &found);
  *flag = found;
  if (rc == MPI_SUCCESS && found) *value = fortran_value(*keyval, window, c_value);
  set_ierror(ierror, rc);
}

// The C keyval's callbacks are the trampolines, its extra_state the Fortran pair. The pair lives
// as long as the process (a keyval's callbacks may run until its last object goes).
void create_keyval(CreateKeyval create, void (*copy)(), void (*del)(), MPI_Fint* keyval,
                   MPI_Aint extra_state, AttrWidth width, MPI_Fint* ierror) {
  auto* k = new FortranKeyval{copy, del, extra_state, width};
  set_ierror(ierror, create(copy_trampoline, delete_trampoline, keyval, k));
}

}  // namespace

// MPI_COMM/TYPE/WIN_GET_ATTR and _CREATE_KEYVAL, one body per object kind: its C calls (the
// communicator's, datatype's and window's take the same C types, their handles being ints).
template <GetAttr Get, GetAttr PGet, CreateKeyval Create, CreateKeyval PCreate, bool Window>
struct ObjectAttributes {
  template <bool P>
  static void get(MPI_Fint* object, MPI_Fint* keyval, MPI_Aint* value, MPI_Fint* flag,
                  MPI_Fint* ierror) {
    get_attr(P ? PGet : Get, Window, object, keyval, value, flag, ierror);
  }
  template <bool P>
  static void create(void (*copy)(), void (*del)(), MPI_Fint* keyval, MPI_Aint* extra,
                     MPI_Fint* ierror) {
    create_keyval(P ? PCreate : Create, copy, del, keyval, *extra, AttrWidth::kAddress, ierror);
  }
};
using CommAttributes = ObjectAttributes<MPI_Comm_get_attr, PMPI_Comm_get_attr,
                                        MPI_Comm_create_keyval, PMPI_Comm_create_keyval, false>;
using TypeAttributes = ObjectAttributes<MPI_Type_get_attr, PMPI_Type_get_attr,
                                        MPI_Type_create_keyval, PMPI_Type_create_keyval, false>;
using WinAttributes = ObjectAttributes<MPI_Win_get_attr, PMPI_Win_get_attr,
                                       MPI_Win_create_keyval, PMPI_Win_create_keyval, true>;

// MPI_ATTR_GET, MPI_ATTR_PUT and MPI_KEYVAL_CREATE (MPI-1) carry default INTEGER values.
template <bool P>
void attr_get(MPI_Fint* comm, MPI_Fint* keyval, MPI_Fint* value, MPI_Fint* flag,
              MPI_Fint* ierror) {
  MPI_Aint wide = 0;
  get_attr(WEFT_C(P, MPI_Comm_get_attr), false, comm, keyval, &wide, flag, ierror);
  if (*flag) *value = static_cast<MPI_Fint>(wide);
}
template <bool P>
void attr_put(MPI_Fint* comm, MPI_Fint* keyval, MPI_Fint* value, MPI_Fint* ierror) {
  set_ierror(ierror, WEFT_C(P, MPI_Comm_set_attr)(*comm, *keyval,
                                                  reinterpret_cast<void*>(MPI_Aint(*value))));
}
template <bool P>
void keyval_create(void (*copy)(), void (*del)(), MPI_Fint* keyval, MPI_Fint* extra,
                   MPI_Fint* ierror) {
  create_keyval(WEFT_C(P, MPI_Comm_create_keyval), copy, del, keyval, MPI_Aint(*extra),
                AttrWidth::kInteger, ierror);
}

}  // namespace weft::fortran

using namespace weft::fortran;
#define WEFT_F_GET_ATTR(lower, body)                                                     \
  WEFT_F_NAMES(lower, body, (MPI_Fint * o, MPI_Fint * k, MPI_Aint * v, MPI_Fint * f,     \
                             MPI_Fint * e),                                              \
               (o, k, v, f, e))
#define WEFT_F_CREATE_KEYVAL(lower, body)                                                \
  WEFT_F_NAMES(lower, body, (void (*c)(), void (*d)(), MPI_Fint * k, MPI_Aint * x,       \
                             MPI_Fint * e),                                              \
               (c, d, k, x, e))
WEFT_F_GET_ATTR(comm_get_attr, CommAttributes::get)
WEFT_F_GET_ATTR(type_get_attr, TypeAttributes::get)
WEFT_F_GET_ATTR(win_get_attr, WinAttributes::get)
WEFT_F_CREATE_KEYVAL(comm_create_keyval, CommAttributes::create)
WEFT_F_CREATE_KEYVAL(type_create_keyval, TypeAttributes::create)
WEFT_F_CREATE_KEYVAL(win_create_keyval, WinAttributes::create)
WEFT_F_NAMES(attr_get, attr_get,
             (MPI_Fint * c, MPI_Fint * k, MPI_Fint * v, MPI_Fint * f, MPI_Fint * e),
             (c, k, v, f, e))
WEFT_F_NAMES(attr_put, attr_put, (MPI_Fint * c, MPI_Fint * k, MPI_Fint * v, MPI_Fint * e),
             (c, k, v, e))
WEFT_F_NAMES(keyval_create, keyval_create,
             (void (*c)(), void (*d)(), MPI_Fint * k, MPI_Fint * x, MPI_Fint * e),
             (c, d, k, x, e))
