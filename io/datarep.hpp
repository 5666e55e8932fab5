// Data representations by name: the predefined "native", "internal" and "external32", and those
// registered with MPI_Register_datarep (kept for the life of the process, as the standard says),
// whose callbacks (MPI 4.1 §14.5.3) give each predefined type's size in the file and convert
// data items between memory and the file.
#pragma once
#include <array>
#include <cstddef>
#include <string>

#include "mpi.h"
#include "runtime/datatype/predefined.hpp"
#include "runtime/status.hpp"

namespace weft::io {

// How values are laid out in the file: as in memory (native, and internal, which is native
// here), the portable big-endian external32 (runtime/datatype/external32.hpp), or through the
// callbacks of a registered representation.
enum class Representation { kNative, kExternal32, kUser };

struct UserDatarep {
  std::string name;
  MPI_Datarep_conversion_function* read = nullptr;
  MPI_Datarep_conversion_function* write = nullptr;
  MPI_Datarep_conversion_function_c* read_c = nullptr;
  MPI_Datarep_conversion_function_c* write_c = nullptr;
  MPI_Datarep_extent_function* extent = nullptr;
  void* extra_state = nullptr;

  // Whether it converts in that direction (MPI_CONVERSION_FN_NULL: the data moves as native).
  bool converts(bool write) const;
  // The write (memory → file) or read (file → memory) conversion of `items` data items of the
  // memory type `type` (tiled over `userbuf`), from item `position` on; the file side is
  // `filebuf`, the items back to back. The int callbacks take at most INT_MAX items a call.
  // MPI_ERR_CONVERSION when the callback returns an error.
  Status convert(bool write, void* userbuf, MPI_Datatype type, MPI_Count items, void* filebuf,
                 MPI_Offset position) const;
  // The most items one convert() call takes.
  MPI_Count max_items() const;
};

// The file size of each predefined type under a registered representation, asked of its
// dtype_file_extent_fn once per type and kept: a view keeps one, and each access copies it
// (so a transfer finishing on another thread asks the application's callback nothing).
class FileExtents {
 public:
  FileExtents() { known_.fill(-1); }
  explicit FileExtents(const UserDatarep* rep) : FileExtents() { rep_ = rep; }

  // Bytes of one `basic` (a predefined type) in the file; MPI_ERR_CONVERSION naming the
  // representation when the callback fails or gives a negative extent.
  Status of(MPI_Datatype basic, size_t* bytes);
  // The same for a type of() has answered already.
  size_t known(MPI_Datatype basic) const { return size_t(known_[size_t(basic)]); }

 private:
  const UserDatarep* rep_ = nullptr;
  std::array<MPI_Aint, kLastPredefinedType + 1> known_;  // -1: not asked yet
};

// MPI_ERR_DUP_DATAREP for a name already known (predefined or registered); MPI_ERR_ARG for a
// name longer than MPI_MAX_DATAREP_STRING - 1 or empty.
Status register_datarep(const UserDatarep& rep);
// How views with datarep `name` store data, and for a registered one its callbacks (*user, which
// lives as long as the process); MPI_ERR_UNSUPPORTED_DATAREP for an unknown name.
Status find_datarep(const std::string& name, Representation* rep, const UserDatarep** user);

}  // namespace weft::io
