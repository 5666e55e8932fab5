// Status: the result of every internal call. Carries an MPI error class and a message that
// names the argument and value; the C boundary prefixes the MPI function name.
#pragma once
#include <string>
#include <utility>

namespace weft {

struct [[nodiscard]] Status {
  int error_class = 0;  // an MPI_ERR_* class; 0 = success
  std::string message;

  bool ok() const { return error_class == 0; }
  static Status success() { return {}; }
  static Status error(int cls, std::string msg) { return Status{cls, std::move(msg)}; }
};

// Propagate a failed Status to the caller.
#define WEFT_TRY(expr)                 \
  do {                                 \
    ::weft::Status weft_s_ = (expr);   \
    if (!weft_s_.ok()) return weft_s_; \
  } while (0)

}  // namespace weft
