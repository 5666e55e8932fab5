// Checks shared by the calls that make communicators from groups (group_comm_args.hpp).
#include "runtime/c_api/group_comm_args.hpp"

#include <cstring>
#include <string>

#include "runtime/comm/errhandler.hpp"
#include "runtime/comm/info_objects.hpp"

namespace weft::capi {

Status check_stringtag(const char* stringtag) {
  if (stringtag == nullptr) return Status::error(MPI_ERR_ARG, "invalid stringtag=NULL");
  const size_t length = std::strlen(stringtag);
  if (length < MPI_MAX_STRINGTAG_LEN) return Status::success();
  return Status::error(MPI_ERR_ARG, "invalid stringtag of " + std::to_string(length) +
                                        " characters (at most " +
                                        std::to_string(MPI_MAX_STRINGTAG_LEN - 1) + ")");
}

Status check_hints(MPI_Info info) {
  if (info == MPI_INFO_NULL) return Status::success();
  const InfoEntries* entries = nullptr;
  return infos().entries(info, "info", &entries);
}

Status new_comm_errhandler(MPI_Errhandler errhandler, MPI_Errhandler* out) {
  *out = errhandler == MPI_ERRHANDLER_NULL ? MPI_ERRORS_ARE_FATAL : errhandler;
  return errhandlers().check(*out, "errhandler");
}

}  // namespace weft::capi
