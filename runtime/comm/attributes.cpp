// The attribute table: keyval lifetime, attribute storage per (kind, handle), and the copy and
// delete callbacks run at set, delete, duplication and free.
#include "runtime/comm/attributes.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "runtime/errors.hpp"

namespace weft {

namespace {

const char* keyval_arg(AttrKind kind) {
  switch (kind) {
    case AttrKind::kComm:
      return "comm_keyval";
    case AttrKind::kDatatype:
      return "type_keyval";
    case AttrKind::kWin:
      break;
  }
  return "win_keyval";
}

const char* kind_name(AttrKind kind) {
  switch (kind) {
    case AttrKind::kComm:
      return "communicator";
    case AttrKind::kDatatype:
      return "datatype";
    case AttrKind::kWin:
      break;
  }
  return "window";
}

// A callback's error code as a Status: its class (MPI_ERR_OTHER if it is not a valid code) and
// a message naming the callback, the keyval and the code.
Status callback_failed(const char* which, AttrKind kind, int keyval, int rc) {
  int cls = error_class_of(rc);
  if (cls <= MPI_SUCCESS) cls = MPI_ERR_OTHER;
  return Status::error(cls, std::string("the ") + which + " callback of " + keyval_arg(kind) + "=" +
                                std::to_string(keyval) + " returned error code " +
                                std::to_string(rc) + " (" + error_class_description(cls) + ")");
}

}  // namespace

int AttributeTable::create_keyval(AttrKind kind, AttrCopyFn* copy, AttrDeleteFn* del,
                                  void* extra_state) {
  const int keyval = next_keyval_++;
  keyvals_[keyval] = Keyval{kind, copy, del, extra_state, false, 0};
  return keyval;
}

Status AttributeTable::check_keyval(AttrKind kind, int keyval) const {
  const std::string arg =
      std::string(keyval_arg(kind)) + "=" +
      (keyval == MPI_KEYVAL_INVALID ? "MPI_KEYVAL_INVALID" : std::to_string(keyval));
  auto it = keyvals_.find(keyval);
  if (it == keyvals_.end())
    return Status::error(MPI_ERR_KEYVAL, "invalid " + arg + " (not a keyval, or freed)");
  if (it->second.kind != kind) {
    return Status::error(MPI_ERR_KEYVAL, "invalid " + arg + " (created for " +
                                             kind_name(it->second.kind) + " attributes, not " +
                                             kind_name(kind) + " attributes)");
  }
  if (it->second.freed) return Status::error(MPI_ERR_KEYVAL, "invalid " + arg + " (freed)");
  return Status::success();
}

Status AttributeTable::free_keyval(AttrKind kind, int keyval) {
  WEFT_TRY(check_keyval(kind, keyval));
  auto it = keyvals_.find(keyval);
  it->second.freed = true;
  if (it->second.uses == 0) keyvals_.erase(it);
  return Status::success();
}

Status AttributeTable::set(AttrKind kind, int handle, int keyval, void* value) {
  WEFT_TRY(check_keyval(kind, keyval));
  Object& object = objects_[{kind, handle}];
  auto old = object.find(keyval);
  if (old != object.end()) {
    WEFT_TRY(run_delete(kind, handle, keyval, old->second.value));
    WEFT_TRY(check_keyval(kind, keyval));  // the callback may have freed it
  }
  auto [it, inserted] =
      objects_[{kind, handle}].insert_or_assign(keyval, Attr{value, next_order_++});
  if (inserted) ++keyvals_[keyval].uses;
  return Status::success();
}

Status AttributeTable::get(AttrKind kind, int handle, int keyval, void** value, bool* found) const {
  WEFT_TRY(check_keyval(kind, keyval));
  *found = false;
  auto object = objects_.find({kind, handle});
  if (object == objects_.end()) return Status::success();
  auto it = object->second.find(keyval);
  if (it == object->second.end()) return Status::success();
  *value = it->second.value;
  *found = true;
  return Status::success();
}

Status AttributeTable::remove(AttrKind kind, int handle, int keyval) {
  WEFT_TRY(check_keyval(kind, keyval));
  auto object = objects_.find({kind, handle});
  if (object == objects_.end()) return Status::success();
  auto it = object->second.find(keyval);
  if (it == object->second.end()) return Status::success();
  WEFT_TRY(run_delete(kind, handle, keyval, it->second.value));
  forget(kind, handle, keyval);
  return Status::success();
}

Status AttributeTable::copy_all(AttrKind kind, int old_handle, int new_handle) {
  auto source = objects_.find({kind, old_handle});
  if (source == objects_.end()) return Status::success();
  std::vector<std::pair<int, void*>> snapshot;
  for (const auto& [keyval, attr] : source->second) snapshot.emplace_back(keyval, attr.value);
  for (const auto& [keyval, value] : snapshot) {
    auto found = keyvals_.find(keyval);
    if (found == keyvals_.end() || found->second.copy == nullptr) continue;
    const Keyval kv = found->second;  // a copy: the callback may change the table
    void* copied = nullptr;
    int flag = 0;
    const int rc = kv.copy(old_handle, keyval, kv.extra_state, value, &copied, &flag);
    if (rc != MPI_SUCCESS) {
      Status failed = callback_failed("copy", kind, keyval, rc);
      auto made = objects_.find({kind, new_handle});
      std::vector<std::pair<int, void*>> undo;
      if (made != objects_.end())
        for (const auto& [k, attr] : made->second) undo.emplace_back(k, attr.value);
      for (const auto& [k, v] : undo) {
        (void)run_delete(kind, new_handle, k, v);  // the copy's own failure is what we report
        forget(kind, new_handle, k);
      }
      return failed;
    }
    if (!flag) continue;
    auto [it, inserted] =
        objects_[{kind, new_handle}].insert_or_assign(keyval, Attr{copied, next_order_++});
    if (inserted) ++keyvals_[keyval].uses;
  }
  return Status::success();
}

Status AttributeTable::delete_all(AttrKind kind, int handle) {
  auto object = objects_.find({kind, handle});
  if (object == objects_.end()) return Status::success();
  std::vector<std::pair<uint64_t, int>> by_order;  // (order, keyval)
  for (const auto& [keyval, attr] : object->second) by_order.emplace_back(attr.order, keyval);
  std::sort(by_order.rbegin(), by_order.rend());
  for (const auto& [order, keyval] : by_order) {
    auto current = objects_.find({kind, handle});
    if (current == objects_.end()) break;
    auto it = current->second.find(keyval);
    if (it == current->second.end()) continue;  // removed by an earlier callback
    WEFT_TRY(run_delete(kind, handle, keyval, it->second.value));
    forget(kind, handle, keyval);
  }
  return Status::success();
}

size_t AttributeTable::attribute_count(AttrKind kind, int handle) const {
  auto object = objects_.find({kind, handle});
  return object == objects_.end() ? 0 : object->second.size();
}

Status AttributeTable::run_delete(AttrKind kind, int handle, int keyval, void* value) const {
  const Keyval& kv = keyvals_.at(keyval);
  AttrDeleteFn* del = kv.del;
  if (del == nullptr) return Status::success();
  const int rc = del(handle, keyval, value, kv.extra_state);
  return rc == MPI_SUCCESS ? Status::success() : callback_failed("delete", kind, keyval, rc);
}

void AttributeTable::forget(AttrKind kind, int handle, int keyval) {
  auto object = objects_.find({kind, handle});
  if (object == objects_.end() || object->second.erase(keyval) == 0) return;
  if (object->second.empty()) objects_.erase(object);
  auto kv = keyvals_.find(keyval);
  if (--kv->second.uses == 0 && kv->second.freed) keyvals_.erase(kv);
}

AttributeTable& attributes() {
  static AttributeTable table;
  return table;
}

Status attributes_on_comm_dup(MPI_Comm old_comm, MPI_Comm new_comm) {
  return attributes().copy_all(AttrKind::kComm, old_comm, new_comm);
}

Status attributes_on_comm_free(MPI_Comm comm) {
  return attributes().delete_all(AttrKind::kComm, comm);
}

Status attributes_on_type_dup(MPI_Datatype old_type, MPI_Datatype new_type) {
  return attributes().copy_all(AttrKind::kDatatype, old_type, new_type);
}

Status attributes_on_type_free(MPI_Datatype type) {
  return attributes().delete_all(AttrKind::kDatatype, type);
}

Status attributes_on_win_free(MPI_Win win) { return attributes().delete_all(AttrKind::kWin, win); }

}  // namespace weft
