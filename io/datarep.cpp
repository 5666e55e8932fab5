// The table of data representations.
#include "io/datarep.hpp"

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

}  // namespace

Status register_datarep(const std::string& name, const UserDatarep& rep) {
  if (name.empty() || name.size() >= MPI_MAX_DATAREP_STRING)
    return Status::error(MPI_ERR_ARG, "invalid datarep=\"" + name + "\" (1 to " +
                                          std::to_string(MPI_MAX_DATAREP_STRING - 1) +
                                          " characters)");
  if (predefined(name) || registered().count(name) != 0)
    return Status::error(MPI_ERR_DUP_DATAREP, "datarep=\"" + name + "\" is already defined");
  registered()[name] = rep;
  return Status::success();
}

Status find_datarep(const std::string& name, Representation* out) {
  if (name == "native" || name == "internal") {
    *out = Representation::kNative;
    return Status::success();
  }
  if (name == "external32") {
    *out = Representation::kExternal32;
    return Status::success();
  }
  if (registered().count(name) != 0)
    return Status::error(MPI_ERR_UNSUPPORTED_OPERATION,
                         "views with the user-defined datarep=\"" + name +
                             "\" are not supported yet (its conversion functions are not called)");
  return Status::error(MPI_ERR_UNSUPPORTED_DATAREP, "unknown datarep=\"" + name + "\"");
}

}  // namespace weft::io
