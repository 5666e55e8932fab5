// Attribute caching (MPI_Comm_*_attr, MPI_Type_*_attr, MPI_Win_*_attr): keyvals with copy and
// delete callbacks, and the attributes set on each object, kept here by object kind and handle
// so that communicators, datatypes and windows carry no fields for them. A keyval freed by the
// user lives on until the last attribute set with it is deleted (MPI 4.0 §7.7.2).
// Threads: used under the call lock only (runtime/call_lock.hpp), so the table takes no lock.
// Callbacks may call MPI (even on this table): no iterator or reference into the table is held
// across a callback.
#pragma once
#include <cstdint>
#include <map>
#include <utility>

#include "mpi.h"
#include "runtime/status.hpp"

namespace weft {

enum class AttrKind : unsigned char { kComm, kDatatype, kWin };

// The callback types of every kind: MPI_Comm, MPI_Datatype and MPI_Win are all int handles.
using AttrCopyFn = int(int old_handle, int keyval, void* extra_state, void* value_in,
                       void* value_out, int* flag);
using AttrDeleteFn = int(int handle, int keyval, void* value, void* extra_state);

// Keyvals below this are predefined (MPI_TAG_UB ... MPI_LASTUSEDCODE in mpi.h, with room).
inline constexpr int kFirstUserKeyval = 64;

class AttributeTable {
 public:
  // A null callback (nullptr) copies nothing / deletes nothing.
  int create_keyval(AttrKind kind, AttrCopyFn* copy, AttrDeleteFn* del, void* extra_state);
  Status free_keyval(AttrKind kind, int keyval);
  // Replacing a value first runs the delete callback on the old one.
  Status set(AttrKind kind, int handle, int keyval, void* value);
  Status get(AttrKind kind, int handle, int keyval, void** value, bool* found) const;
  // Runs the delete callback; if it fails, the attribute stays.
  Status remove(AttrKind kind, int handle, int keyval);
  // Runs the copy callbacks of `old_handle`'s attributes in keyval creation order, setting the
  // copies on `new_handle`. If one fails, the copies made so far are deleted again.
  Status copy_all(AttrKind kind, int old_handle, int new_handle);
  // Runs the delete callbacks of all of `handle`'s attributes, last set first. Stops at the
  // first that fails, leaving the attributes not yet deleted in place.
  Status delete_all(AttrKind kind, int handle);

  size_t live_keyvals() const { return keyvals_.size(); }
  size_t attribute_count(AttrKind kind, int handle) const;

 private:
  struct Keyval {
    AttrKind kind;
    AttrCopyFn* copy;
    AttrDeleteFn* del;
    void* extra_state;
    bool freed;  // by MPI_*_free_keyval; erased when `uses` reaches 0
    int uses;    // attributes set with it
  };
  struct Attr {
    void* value;
    uint64_t order;  // when it was set
  };
  using Object = std::map<int, Attr>;  // by keyval, so in keyval creation order
  using ObjectKey = std::pair<AttrKind, int>;

  Status check_keyval(AttrKind kind, int keyval) const;
  Status run_delete(AttrKind kind, int handle, int keyval, void* value) const;
  // Erases the attribute (if still there) and drops its use of the keyval.
  void forget(AttrKind kind, int handle, int keyval);

  std::map<int, Keyval> keyvals_;
  std::map<ObjectKey, Object> objects_;
  int next_keyval_ = kFirstUserKeyval;
  uint64_t next_order_ = 0;
};

// The process-wide table.
AttributeTable& attributes();

// Hooks for the communicator code (runtime/comm/). MPI_Comm_dup/idup/dup_with_info call
// attributes_on_comm_dup once the new communicator exists; on failure the dup must fail (the new
// communicator then has no attributes). MPI_Comm_free/disconnect call attributes_on_comm_free
// before the handle is released; on failure the free must fail.
Status attributes_on_comm_dup(MPI_Comm old_comm, MPI_Comm new_comm);
Status attributes_on_comm_free(MPI_Comm comm);
// The same for the datatype code (runtime/datatype*): MPI_Type_dup, and MPI_Type_free.
Status attributes_on_type_dup(MPI_Datatype old_type, MPI_Datatype new_type);
Status attributes_on_type_free(MPI_Datatype type);
// MPI_Win_free (rma/), before the handle is released; windows are never duplicated.
Status attributes_on_win_free(MPI_Win win);

}  // namespace weft
