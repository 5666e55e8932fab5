// The table of data representations and the calls of registered ones' callbacks.
#include "io/datarep.hpp"

#include <climits>
#include <map>

namespace weft::io {
namespace {

std::map<std::string, UserDatarep>& registered() {
  static std::map<std::string, UserDatarep> table;
  return table;
}

bool predefined(const std::string& name) {
  return name == "native" || name == "internal" || name == "external32";
}

// MPI 4.1 §14.5.3: an error returned by a conversion function is raised in MPI_ERR_CONVERSION.
Status callback_failed(const UserDatarep& rep, const char* callback, int code) {
  return Status::error(MPI_ERR_CONVERSION, "the " + std::string(callback) + " of datarep=\"" +
                                               rep.name + "\" returned error code " +
                                               std::to_string(code));
}

}  // namespace

bool UserDatarep::converts(bool to_file) const {
  return to_file ? (write != nullptr || write_c != nullptr)
                 : (read != nullptr || read_c != nullptr);
}

MPI_Count UserDatarep::max_items() const {
  return (read_c != nullptr || write_c != nullptr) ? MPI_Count(LLONG_MAX) : MPI_Count(INT_MAX);
}

Status UserDatarep::convert(bool to_file, void* userbuf, MPI_Datatype type, MPI_Count items,
                            void* filebuf, MPI_Offset position) const {
  MPI_Datarep_conversion_function* f = to_file ? write : read;
  MPI_Datarep_conversion_function_c* fc = to_file ? write_c : read_c;
  const int rc = fc != nullptr ? fc(userbuf, type, items, filebuf, position, extra_state)
                               : f(userbuf, type, int(items), filebuf, position, extra_state);
  if (rc == MPI_SUCCESS) return Status::success();
  return callback_failed(*this, to_file ? "write_conversion_fn" : "read_conversion_fn", rc);
}

Status FileExtents::of(MPI_Datatype basic, size_t* bytes) {
  MPI_Aint& known = known_[size_t(basic)];
  if (known < 0) {
    MPI_Aint extent = 0;
    const int rc = rep_->extent(basic, &extent, rep_->extra_state);
    if (rc != MPI_SUCCESS) return callback_failed(*rep_, "dtype_file_extent_fn", rc);
    if (extent < 0)
      return Status::error(MPI_ERR_CONVERSION, "the dtype_file_extent_fn of datarep=\"" +
                                                   rep_->name + "\" gave " +
                                                   predefined_type(basic).name + " the extent " +
                                                   std::to_string(extent) + " (must be >= 0)");
    known = extent;
  }
  *bytes = size_t(known);
  return Status::success();
}

Status register_datarep(const UserDatarep& rep) {
  const std::string& name = rep.name;
  if (name.empty() || name.size() >= MPI_MAX_DATAREP_STRING)
    return Status::error(MPI_ERR_ARG, "invalid datarep=\"" + name + "\" (1 to " +
                                          std::to_string(MPI_MAX_DATAREP_STRING - 1) +
                                          " characters)");
  if (predefined(name) || registered().count(name) != 0)
    return Status::error(MPI_ERR_DUP_DATAREP, "datarep=\"" + name + "\" is already defined");
  registered()[name] = rep;
  return Status::success();
}

Status find_datarep(const std::string& name, Representation* rep, const UserDatarep** user) {
  *user = nullptr;
  if (name == "native" || name == "internal") {
    *rep = Representation::kNative;
    return Status::success();
  }
  if (name == "external32") {
    *rep = Representation::kExternal32;
    return Status::success();
  }
  auto it = registered().find(name);
  if (it == registered().end())
    return Status::error(MPI_ERR_UNSUPPORTED_DATAREP, "unknown datarep=\"" + name + "\"");
  *rep = Representation::kUser;
  *user = &it->second;
  return Status::success();
}

}  // namespace weft::io
