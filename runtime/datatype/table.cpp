// The datatype handle table and the lookups the rest of the library uses.
#include "runtime/datatype/table.hpp"

#include <string>

#include "runtime/datatype/predefined.hpp"

namespace weft {
namespace {

// The predefined types, built on first use; index = handle.
std::vector<std::unique_ptr<Datatype>>& predefined() {
  static std::vector<std::unique_ptr<Datatype>> types = [] {
    std::vector<std::unique_ptr<Datatype>> t(kLastPredefinedType + 1);
    for (MPI_Datatype h = 1; h <= kLastPredefinedType; ++h) t[h] = std::make_unique<Datatype>(h);
    return t;
  }();
  return types;
}

}  // namespace

DatatypeTable& datatypes() {
  static DatatypeTable table;
  return table;
}

MPI_Datatype DatatypeTable::add(std::shared_ptr<Datatype> type) {
  MPI_Datatype handle = kFirstDerivedType + MPI_Datatype(derived_.size());
  if (!freed_.empty()) {
    handle = freed_.back();
    freed_.pop_back();
  } else {
    derived_.emplace_back();
  }
  type->set_handle(handle);
  derived_[size_t(handle - kFirstDerivedType)] = std::move(type);
  return handle;
}

Datatype* DatatypeTable::find(MPI_Datatype handle) {
  if (is_predefined_type(handle)) return predefined()[size_t(handle)].get();
  if (handle < kFirstDerivedType || size_t(handle - kFirstDerivedType) >= derived_.size())
    return nullptr;
  return derived_[size_t(handle - kFirstDerivedType)].get();
}

std::shared_ptr<const Datatype> DatatypeTable::share(MPI_Datatype handle) {
  const Datatype* t = find(handle);
  return t != nullptr ? t->share() : nullptr;
}

Status DatatypeTable::free(MPI_Datatype* handle, const char* arg) {
  Datatype* t = find(*handle);
  if (t == nullptr) return invalid_datatype(*handle, arg);
  const int combiner = t->envelope().combiner;
  if (t->is_predefined() || combiner == MPI_COMBINER_F90_INTEGER ||
      combiner == MPI_COMBINER_F90_REAL || combiner == MPI_COMBINER_F90_COMPLEX) {
    return Status::error(MPI_ERR_TYPE,
                         std::string("cannot free the predefined datatype ") + t->label() +
                             (t->is_predefined() ? "" : " (from MPI_Type_create_f90_*)"));
  }
  derived_[size_t(*handle - kFirstDerivedType)].reset();
  freed_.push_back(*handle);
  *handle = MPI_DATATYPE_NULL;
  return Status::success();
}

size_t DatatypeTable::live_derived() const {
  size_t n = 0;
  for (const auto& t : derived_) n += t != nullptr;
  return n;
}

Status invalid_datatype(MPI_Datatype handle, const char* arg) {
  std::string value = handle == MPI_DATATYPE_NULL ? "MPI_DATATYPE_NULL" : std::to_string(handle);
  if (handle >= kFirstDerivedType) value += " (freed or never created)";
  return Status::error(MPI_ERR_TYPE, std::string("invalid datatype ") + arg + "=" + value);
}

Status find_datatype(MPI_Datatype handle, const char* arg, const Datatype** out) {
  const Datatype* t = datatypes().find(handle);
  if (t == nullptr) return invalid_datatype(handle, arg);
  *out = t;
  return Status::success();
}

namespace {
// find_committed_datatype's errors, out of its path (every communication call takes that path).
[[gnu::cold, gnu::noinline]] Status uncommitted_or_invalid(MPI_Datatype handle, const char* arg,
                                                           const Datatype** out) {
  WEFT_TRY(find_datatype(handle, arg, out));
  return Status::error(MPI_ERR_TYPE, std::string("datatype ") + arg + "=" + (*out)->label() +
                                         " is not committed (call MPI_Type_commit before "
                                         "communicating or packing with it)");
}
}  // namespace

Status find_committed_datatype(MPI_Datatype handle, const char* arg, const Datatype** out) {
  const Datatype* t = datatypes().find(handle);
  if (t != nullptr && t->committed()) [[likely]] {
    *out = t;
    return Status::success();
  }
  return uncommitted_or_invalid(handle, arg, out);
}

Status find_message_datatype(MPI_Datatype handle, MPI_Count count, const char* arg,
                             const Datatype** out) {
  if (handle == MPI_DATATYPE_NULL && count == 0) handle = MPI_BYTE;
  return find_committed_datatype(handle, arg, out);
}

Status lookup_datatype(int handle, const char* arg, const DatatypeInfo** out) {
  const Datatype* t = nullptr;
  WEFT_TRY(find_committed_datatype(handle, arg, &t));
  if (!t->is_contiguous() || (t->size() > 0 && t->true_lb() != 0)) {
    return Status::error(MPI_ERR_TYPE,
                         std::string("datatype ") + arg + "=" + t->label() +
                             " is a derived datatype whose elements are not contiguous from the "
                             "start of the buffer, which this function does not support yet");
  }
  *out = &t->info();
  return Status::success();
}

}  // namespace weft
