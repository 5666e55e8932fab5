// MPI error codes: a code is an error class plus a slot holding the full message of one failure,
// so MPI_Error_string can return "MPI_Send: invalid rank dest=9 ..." rather than just the class.
// User-defined classes and codes (MPI_Add_error_class/_code/_string) lie above MPI_ERR_LASTCODE.
#pragma once
#include <mutex>
#include <string>
#include <vector>

#include "runtime/status.hpp"

namespace weft {

inline constexpr int kClassBits = 6;  // classes are < 64 (see include/mpi.h)
inline constexpr int kClassMask = (1 << kClassBits) - 1;

// Stores `message` and returns a code whose class is `error_class` (0 stays 0). A user-defined
// class has no room for a message: it is returned as it is.
int make_error_code(int error_class, const std::string& message);
// The class of a code (MPI_Error_class), predefined or user-defined. -1 if `code` is not valid.
int error_class_of(int code);
// Text for a code: its stored message if still held, else the class description; for a
// user-defined class or code, its string ("" until MPI_Add_error_string sets one).
std::string error_string(int code);
// Description of a class, e.g. "MPI_ERR_RANK: invalid rank", or a user class's string.
std::string error_class_description(int error_class);
// The largest error class or code in use (the MPI_LASTUSEDCODE attribute).
int last_used_code();

// User-defined error classes and codes, numbered in one sequence from MPI_ERR_LASTCODE + 1
// upward; removing the highest ones (MPI 4.1 §9.5) makes their values free again, so that
// MPI_LASTUSEDCODE is always the largest value in use. Thread-safe: MPI_Error_string may be
// called from any thread.
class UserErrors {
 public:
  int add_class();
  // A new code of `error_class` (a predefined class other than MPI_SUCCESS, or a user class).
  Status add_code(int error_class, int* code);
  // Sets the string of a user-defined class or code (shorter than MPI_MAX_ERROR_STRING).
  Status set_string(int code, const std::string& text);
  // MPI_Remove_error_class/_code/_string. A class goes once its codes are gone (its string goes
  // with it), a code once its string is gone; a string only where one was set.
  Status remove_class(int error_class);
  Status remove_code(int code);
  Status remove_string(int code);
  // The class of a user-defined class or code; -1 for any other value.
  int class_of(int code) const;
  // The string of a user-defined class or code ("" until set); false for any other value.
  bool string_of(int code, std::string* text) const;
  int last_used() const;

 private:
  struct Entry {
    int error_class;  // its own value for a class
    std::string text;
    bool has_text = false;  // set by MPI_Add_error_string and not removed since
    bool live = true;       // false once removed (a gap below values still in use)
  };
  const Entry* find(int code) const;
  // The entry of `code`, or an error naming `arg` that says why it is none.
  Status lookup(int code, const char* arg, Entry** out);
  void drop(int code);

  mutable std::mutex lock_;
  std::vector<Entry> entries_;  // entries_[i] has the value MPI_ERR_LASTCODE + 1 + i
};

// The process-wide table behind MPI_Add_error_class/_code/_string.
UserErrors& user_errors();

}  // namespace weft
