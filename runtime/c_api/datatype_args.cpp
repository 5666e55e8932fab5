// Shared argument checks of the datatype entry points.
#include "runtime/c_api/datatype_args.hpp"

#include <string>

namespace weft::capi {

Status check_array(const void* array, MPI_Count entries, const char* arg) {
  if (entries <= 0) return Status::success();
  return check_not_null(array, arg);
}

Status check_counts(CountArray array, MPI_Count entries, const char* arg) {
  for (size_t i = 0; i < size_t(entries > 0 ? entries : 0); ++i) {
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
