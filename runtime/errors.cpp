// Error classes' descriptions, the ring of recent failure messages behind error codes, and the
// user-defined classes and codes above MPI_ERR_LASTCODE.
#include "runtime/errors.hpp"

#include <array>

#include "mpi.h"

namespace weft {
namespace {

// Codes carry slot+1 above the class bits; slot 0 = no message. The codes above the last slot's
// are the MPI_T return codes (MPI_T_ERR_*), each its own class.
constexpr int kSlots = 251;
static_assert(((kSlots + 1) << kClassBits) - 1 < MPI_T_ERR_MEMORY);

struct MessageRing {
  std::mutex lock;
  std::array<std::string, kSlots> text;
  int next = 0;
};

MessageRing& ring() {
  static MessageRing r;
  return r;
}

constexpr const char* kDescriptions[] = {
    "MPI_SUCCESS: no error",
    "MPI_ERR_BUFFER: invalid buffer pointer",
    "MPI_ERR_COUNT: invalid count argument",
    "MPI_ERR_TYPE: invalid datatype",
    "MPI_ERR_TAG: invalid tag",
    "MPI_ERR_COMM: invalid communicator",
    "MPI_ERR_RANK: invalid rank",
    "MPI_ERR_REQUEST: invalid request",
    "MPI_ERR_ROOT: invalid root",
    "MPI_ERR_GROUP: invalid group",
    "MPI_ERR_OP: invalid reduction operation",
    "MPI_ERR_TOPOLOGY: invalid topology",
    "MPI_ERR_DIMS: invalid dimension argument",
    "MPI_ERR_ARG: invalid argument",
    "MPI_ERR_UNKNOWN: unknown error",
    "MPI_ERR_TRUNCATE: message truncated on receive",
    "MPI_ERR_OTHER: other error",
    "MPI_ERR_INTERN: internal error",
    "MPI_ERR_IN_STATUS: error code is in status",
    "MPI_ERR_PENDING: pending request",
    "MPI_ERR_KEYVAL: invalid keyval",
    "MPI_ERR_NO_MEM: out of memory",
    "MPI_ERR_BASE: invalid base address",
    "MPI_ERR_INFO_KEY: info key too long",
    "MPI_ERR_INFO_VALUE: info value too long",
    "MPI_ERR_INFO_NOKEY: info key not defined",
    "MPI_ERR_SPAWN: error spawning processes",
    "MPI_ERR_PORT: invalid port name",
    "MPI_ERR_SERVICE: invalid service name",
    "MPI_ERR_NAME: invalid name",
    "MPI_ERR_WIN: invalid window",
    "MPI_ERR_SIZE: invalid size",
    "MPI_ERR_DISP: invalid displacement",
    "MPI_ERR_INFO: invalid info object",
    "MPI_ERR_LOCKTYPE: invalid lock type",
    "MPI_ERR_ASSERT: invalid assert",
    "MPI_ERR_RMA_CONFLICT: conflicting RMA accesses",
    "MPI_ERR_RMA_SYNC: wrong RMA synchronisation",
    "MPI_ERR_FILE: invalid file handle",
    "MPI_ERR_NOT_SAME: collective arguments not identical",
    "MPI_ERR_AMODE: invalid file access mode",
    "MPI_ERR_UNSUPPORTED_DATAREP: unsupported data representation",
    "MPI_ERR_UNSUPPORTED_OPERATION: unsupported operation",
    "MPI_ERR_NO_SUCH_FILE: file does not exist",
    "MPI_ERR_FILE_EXISTS: file exists",
    "MPI_ERR_BAD_FILE: invalid file name",
    "MPI_ERR_ACCESS: permission denied",
    "MPI_ERR_NO_SPACE: not enough space",
    "MPI_ERR_QUOTA: quota exceeded",
    "MPI_ERR_READ_ONLY: read-only file or file system",
    "MPI_ERR_FILE_IN_USE: file in use",
    "MPI_ERR_DUP_DATAREP: data representation already defined",
    "MPI_ERR_CONVERSION: data conversion error",
    "MPI_ERR_IO: I/O error",
    "MPI_ERR_RMA_RANGE: address outside the window",
    "MPI_ERR_RMA_ATTACH: memory cannot be attached",
    "MPI_ERR_RMA_SHARED: memory cannot be shared",
    "MPI_ERR_RMA_FLAVOR: wrong window flavor",
    "MPI_ERR_PROC_ABORTED: peer process aborted",
    "MPI_ERR_VALUE_TOO_LARGE: value too large to represent",
    "MPI_ERR_SESSION: invalid session",
    "MPI_ERR_ERRHANDLER: invalid error handler",
};
constexpr int kNumClasses = sizeof(kDescriptions) / sizeof(kDescriptions[0]);
static_assert(kNumClasses == MPI_ERR_ERRHANDLER + 1);

constexpr const char* kToolsDescriptions[] = {
    "MPI_T_ERR_MEMORY: out of memory",
    "MPI_T_ERR_NOT_INITIALIZED: MPI_T not initialized",
    "MPI_T_ERR_CANNOT_INIT: MPI_T cannot be initialized",
    "MPI_T_ERR_INVALID_INDEX: index invalid or out of range",
    "MPI_T_ERR_INVALID_ITEM: item index queried is out of range",
    "MPI_T_ERR_INVALID_HANDLE: handle is invalid",
    "MPI_T_ERR_OUT_OF_HANDLES: no more handles available",
    "MPI_T_ERR_OUT_OF_SESSIONS: no more sessions available",
    "MPI_T_ERR_INVALID_SESSION: session argument is not valid",
    "MPI_T_ERR_CVAR_SET_NOT_NOW: control variable cannot be set now",
    "MPI_T_ERR_CVAR_SET_NEVER: control variable cannot be set",
    "MPI_T_ERR_PVAR_NO_STARTSTOP: performance variable cannot be started or stopped",
    "MPI_T_ERR_PVAR_NO_WRITE: performance variable cannot be written or reset",
    "MPI_T_ERR_PVAR_NO_ATOMIC: performance variable cannot be read and written atomically",
    "MPI_T_ERR_INVALID_NAME: name does not match",
    "MPI_T_ERR_INVALID: invalid use of the interface or bad parameter value",
    "MPI_T_ERR_NOT_ACCESSIBLE: requested functionality not accessible",
    "MPI_T_ERR_NOT_SUPPORTED: requested functionality not supported",
};
static_assert(sizeof(kToolsDescriptions) / sizeof(kToolsDescriptions[0]) ==
              MPI_T_ERR_NOT_SUPPORTED - MPI_T_ERR_MEMORY + 1);
bool is_tools_code(int code) { return code >= MPI_T_ERR_MEMORY && code <= MPI_T_ERR_NOT_SUPPORTED; }

}  // namespace

int make_error_code(int error_class, const std::string& message) {
  if (error_class == 0 || error_class > kClassMask || message.empty()) return error_class;
  MessageRing& r = ring();
  std::lock_guard<std::mutex> guard(r.lock);
  const int slot = r.next;
  r.next = (r.next + 1) % kSlots;
  r.text[slot] = message;
  return ((slot + 1) << kClassBits) | error_class;
}

int error_class_of(int code) {
  if (code > MPI_ERR_LASTCODE) return user_errors().class_of(code);
  if (code < 0) return -1;
  if (is_tools_code(code)) return code;
  const int cls = code & kClassMask;
  return cls < kNumClasses ? cls : -1;
}

std::string error_string(int code) {
  std::string user_text;
  if (user_errors().string_of(code, &user_text)) return user_text;
  const int cls = error_class_of(code);
  if (cls < 0) return "unknown error code " + std::to_string(code);
  if (is_tools_code(code)) return kToolsDescriptions[code - MPI_T_ERR_MEMORY];
  const int slot = (code >> kClassBits) - 1;
  if (slot >= 0) {
    MessageRing& r = ring();
    std::lock_guard<std::mutex> guard(r.lock);
    if (!r.text[slot].empty()) return r.text[slot];
  }
  return kDescriptions[cls];
}

std::string error_class_description(int error_class) {
  if (error_class >= 0 && error_class < kNumClasses) return kDescriptions[error_class];
  if (is_tools_code(error_class)) return kToolsDescriptions[error_class - MPI_T_ERR_MEMORY];
  std::string text;
  if (user_errors().class_of(error_class) != error_class || error_class < 0)
    return "unknown error class " + std::to_string(error_class);
  user_errors().string_of(error_class, &text);
  return text.empty() ? "user-defined error class " + std::to_string(error_class) : text;
}

int last_used_code() { return user_errors().last_used(); }

int UserErrors::add_class() {
  std::lock_guard<std::mutex> guard(lock_);
  const int value = MPI_ERR_LASTCODE + 1 + int(entries_.size());
  entries_.push_back({value, ""});
  return value;
}

Status UserErrors::add_code(int error_class, int* code) {
  std::lock_guard<std::mutex> guard(lock_);
  const Entry* user = find(error_class);
  const bool predefined_class = error_class > MPI_SUCCESS && error_class < kNumClasses;
  if (!predefined_class && (user == nullptr || user->error_class != error_class)) {
    std::string why = error_class == MPI_SUCCESS ? " (MPI_SUCCESS is not an error class)"
                      : user != nullptr          ? " (a user-defined error code, not a class)"
                                        : " (neither a predefined nor a user-defined class)";
    return Status::error(MPI_ERR_ARG, "invalid errorclass=" + std::to_string(error_class) + why);
  }
  *code = MPI_ERR_LASTCODE + 1 + int(entries_.size());
  entries_.push_back({error_class, ""});
  return Status::success();
}

Status UserErrors::set_string(int code, const std::string& text) {
  std::lock_guard<std::mutex> guard(lock_);
  if (find(code) == nullptr) {
    return Status::error(MPI_ERR_ARG, "invalid errorcode=" + std::to_string(code) +
                                          " (only user-defined error classes and codes, "
                                          "which start at MPI_ERR_LASTCODE+1=" +
                                          std::to_string(MPI_ERR_LASTCODE + 1) +
                                          ", take a string)");
  }
  if (text.size() >= MPI_MAX_ERROR_STRING) {
    return Status::error(MPI_ERR_ARG, "invalid string of " + std::to_string(text.size()) +
                                          " characters (MPI_MAX_ERROR_STRING is " +
                                          std::to_string(MPI_MAX_ERROR_STRING) +
                                          ", terminating NUL included)");
  }
  Entry& e = entries_[size_t(code - MPI_ERR_LASTCODE - 1)];
  e.text = text;
  e.has_text = true;
  return Status::success();
}

Status UserErrors::remove_class(int error_class) {
  std::lock_guard<std::mutex> guard(lock_);
  Entry* e = nullptr;
  WEFT_TRY(lookup(error_class, "errorclass", &e));
  if (e->error_class != error_class) {
    return Status::error(MPI_ERR_ARG, "invalid errorclass=" + std::to_string(error_class) +
                                          " (a user-defined error code, not a class: remove it "
                                          "with MPI_Remove_error_code)");
  }
  std::string codes;
  int n = 0;
  for (size_t i = 0; i < entries_.size(); ++i) {
    const int value = MPI_ERR_LASTCODE + 1 + int(i);
    if (!entries_[i].live || entries_[i].error_class != error_class || value == error_class)
      continue;
    if (n++ < 4) codes += (codes.empty() ? "" : ", ") + std::to_string(value);
  }
  if (n > 0) {
    return Status::error(MPI_ERR_ARG, "error class " + std::to_string(error_class) + " still has " +
                                          std::to_string(n) + " error code" +
                                          (n > 1 ? "s (" : " (") + codes + (n > 4 ? ", ..." : "") +
                                          "): remove them first with MPI_Remove_error_code");
  }
  drop(error_class);
  return Status::success();
}

Status UserErrors::remove_code(int code) {
  std::lock_guard<std::mutex> guard(lock_);
  Entry* e = nullptr;
  WEFT_TRY(lookup(code, "errorcode", &e));
  if (e->error_class == code) {
    return Status::error(MPI_ERR_ARG, "invalid errorcode=" + std::to_string(code) +
                                          " (a user-defined error class, not a code: remove it "
                                          "with MPI_Remove_error_class)");
  }
  if (e->has_text) {
    return Status::error(MPI_ERR_ARG, "error code " + std::to_string(code) +
                                          " still has its string: remove it first with "
                                          "MPI_Remove_error_string");
  }
  drop(code);
  return Status::success();
}

Status UserErrors::remove_string(int code) {
  std::lock_guard<std::mutex> guard(lock_);
  Entry* e = nullptr;
  WEFT_TRY(lookup(code, "errorcode", &e));
  if (!e->has_text) {
    return Status::error(MPI_ERR_ARG, "invalid errorcode=" + std::to_string(code) +
                                          " (it has no string: MPI_Add_error_string set none, or "
                                          "it was removed)");
  }
  e->text.clear();
  e->has_text = false;
  return Status::success();
}

int UserErrors::class_of(int code) const {
  std::lock_guard<std::mutex> guard(lock_);
  const Entry* e = find(code);
  return e != nullptr ? e->error_class : -1;
}

bool UserErrors::string_of(int code, std::string* text) const {
  std::lock_guard<std::mutex> guard(lock_);
  const Entry* e = find(code);
  if (e != nullptr) *text = e->text;
  return e != nullptr;
}

int UserErrors::last_used() const {
  std::lock_guard<std::mutex> guard(lock_);
  return MPI_ERR_LASTCODE + int(entries_.size());
}

const UserErrors::Entry* UserErrors::find(int code) const {
  if (code <= MPI_ERR_LASTCODE || code - MPI_ERR_LASTCODE > int(entries_.size())) return nullptr;
  const Entry& e = entries_[size_t(code - MPI_ERR_LASTCODE - 1)];
  return e.live ? &e : nullptr;
}

Status UserErrors::lookup(int code, const char* arg, Entry** out) {
  *out = const_cast<Entry*>(find(code));
  if (*out != nullptr) return Status::success();
  return Status::error(MPI_ERR_ARG, std::string("invalid ") + arg + "=" + std::to_string(code) +
                                        (code <= MPI_ERR_LASTCODE
                                             ? " (a predefined value: only user-defined error "
                                               "classes and codes, above MPI_ERR_LASTCODE, can be "
                                               "removed)"
                                             : " (not a user-defined error class or code, or "
                                               "removed already)"));
}

void UserErrors::drop(int code) {
  Entry& e = entries_[size_t(code - MPI_ERR_LASTCODE - 1)];
  e.live = false;
  e.text.clear();
  e.has_text = false;
  while (!entries_.empty() && !entries_.back().live) entries_.pop_back();
}

UserErrors& user_errors() {
  static UserErrors table;
  return table;
}

}  // namespace weft
