// The Fortran sentinels' storage and the string, status and request conversions of the glue.
#include "fortran/glue_support.hpp"

#include <algorithm>
#include <cstring>

// Sized and aligned at least as the Fortran declarations of the same COMMON blocks; a program
// that names a block shares it with these (the executable's copy wins, libraries bind to it).
extern "C" {
alignas(16) MPI_Fint weft_mpi_bottom_;
alignas(16) MPI_Fint weft_mpi_in_place_;
alignas(16) MPI_Fint weft_mpi_status_ignore_[MPI_F_STATUS_SIZE];
alignas(16) MPI_Fint weft_mpi_statuses_ignore_[MPI_F_STATUS_SIZE];
alignas(16) MPI_Fint weft_mpi_errcodes_ignore_;
alignas(16) MPI_Fint weft_mpi_unweighted_;
alignas(16) MPI_Fint weft_mpi_weights_empty_;
alignas(16) char weft_mpi_argv_null_;
alignas(16) char weft_mpi_argvs_null_;
}

namespace weft::fortran {
namespace {
// The longest string any MPI call writes (MPI_MAX_INFO_VAL is the largest of the MPI_MAX_*).
constexpr size_t kLongestCString = MPI_MAX_INFO_VAL + 1;
}  // namespace

StringIn::StringIn(const char* text, size_t length, bool trim_leading) {
  while (length > 0 && text[length - 1] == ' ') --length;
  size_t first = 0;
  while (trim_leading && first < length && text[first] == ' ') ++first;
  value_.assign(text + first, length - first);
}

// The buffer starts as the variable is, so a call that writes nothing (MPI_Info_get of a missing
// key) leaves it unchanged.
StringOut::StringOut(char* text, size_t length)
    : text_(text), length_(length), buffer_(std::max(length + 1, kLongestCString), '\0') {
  std::memcpy(buffer_.data(), text, length);
}

StringOut::~StringOut() {
  const size_t n = std::min(std::strlen(buffer_.data()), length_);
  std::memcpy(text_, buffer_.data(), n);
  std::memset(text_ + n, ' ', length_ - n);
}

StatusesOut::StatusesOut(MPI_Fint* f, MPI_Fint n)
    : f_(f == weft_mpi_statuses_ignore_ ? nullptr : f), c_(f_ && n > 0 ? n : 0) {}

StatusesOut::~StatusesOut() {
  for (size_t i = 0; i < c_.size(); ++i) PMPI_Status_c2f(&c_[i], f_ + i * MPI_F_STATUS_SIZE);
}

void bad_request(MPI_Fint* ierror) {
  PMPI_Comm_call_errhandler(MPI_COMM_WORLD, MPI_ERR_REQUEST);
  set_ierror(ierror, MPI_ERR_REQUEST);
}

RequestsInOut::RequestsInOut(MPI_Fint* f, MPI_Fint n) : f_(f), c_(n > 0 ? n : 0) {
  for (size_t i = 0; i < c_.size(); ++i) ok_ = request_in(f_[i], &c_[i]) && ok_;
}

RequestsInOut::~RequestsInOut() {
  if (!ok_) return;
  for (size_t i = 0; i < c_.size(); ++i) f_[i] = PMPI_Request_c2f(c_[i]);
}

void fortran_indices(MPI_Fint* indices, const MPI_Fint* count) {
  if (*count == MPI_UNDEFINED) return;
  for (MPI_Fint i = 0; i < *count; ++i) indices[i] = fortran_index(indices[i]);
}

}  // namespace weft::fortran
