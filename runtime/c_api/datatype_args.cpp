// Shared argument checks of the datatype entry points.
#include "runtime/c_api/datatype_args.hpp"

#include <string>

namespace weft::capi {

Status check_array(const void* array, int entries, const char* arg) {
  if (entries <= 0) return Status::success();
  return check_not_null(array, arg);
}

Status check_counts(const int* array, int entries, const char* arg) {
  for (int i = 0; i < entries; ++i) {
    if (array[i] < 0) {
      return Status::error(MPI_ERR_COUNT, std::string("invalid count ") + arg + "[" +
                                              std::to_string(i) + "]=" + std::to_string(array[i]) +
                                              " (must be >= 0)");
    }
  }
  return Status::success();
}

Status find_old_type(MPI_Datatype handle, const char* arg, TypeRef* out) {
  const Datatype* t = nullptr;
  WEFT_TRY(find_datatype(handle, arg, &t));
  *out = datatypes().share(handle);
  return Status::success();
}

void register_type(std::shared_ptr<Datatype> type, MPI_Datatype* newtype) {
  *newtype = datatypes().add(std::move(type));
}

}  // namespace weft::capi
