// A file view (MPI 4.1 §14.3): displacement, elementary type, filetype and data representation,
// and the mapping from positions in the view's data stream to byte ranges of the file.
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "io/datarep.hpp"
#include "mpi.h"
#include "runtime/datatype/datatype.hpp"
#include "runtime/datatype/runs.hpp"
#include "runtime/status.hpp"

namespace weft::io {

// Bytes [offset, offset + bytes) of the file.
struct Chunk {
  MPI_Offset offset = 0;
  size_t bytes = 0;
};

class View {
 public:
  // The default view: displacement 0, etype and filetype MPI_BYTE, "native".
  View();
  // Checks and builds a view; MPI_ERR_UNSUPPORTED_DATAREP for an unknown datarep, MPI_ERR_TYPE
  // when the filetype is not made of whole etypes or its displacements go backwards or below
  // zero. In a registered representation the etype and filetype are laid out in the file as
  // file_layout.hpp says (its extent function is asked the sizes).
  static Status make(MPI_Offset disp, const Datatype& etype, const Datatype& filetype,
                     const std::string& datarep, View* out);

  MPI_Offset disp() const { return disp_; }
  const Datatype& etype() const { return *etype_; }
  const Datatype& filetype() const { return *filetype_; }
  const std::string& datarep() const { return datarep_; }
  Representation representation() const { return rep_; }
  // The callbacks of a registered representation (nullptr otherwise).
  const UserDatarep* user_datarep() const { return user_; }
  // Bytes one etype occupies in the data stream (its size in the file's representation).
  size_t etype_bytes() const { return etype_bytes_; }
  // Bytes one element of memory type `t` occupies in the data stream.
  Status stream_size(const Datatype& t, size_t* bytes) const;
  // The extent of `t` in the file (MPI_File_get_type_extent).
  Status file_extent(const Datatype& t, MPI_Count* extent) const;
  // The sizes a registered representation gives predefined types, as asked so far. Threads: the
  // application's thread only (it asks the callback, which the standard lets only the calls the
  // application makes do).
  FileExtents& extents() const { return extents_; }

  // The file ranges of stream bytes [first, first + len), in stream order, adjacent ones merged.
  // Empty when the filetype holds no data.
  std::vector<Chunk> chunks(MPI_Offset first, size_t len) const;
  // The file offset of stream byte `pos` (MPI_File_get_byte_offset).
  MPI_Offset byte_offset(MPI_Offset pos) const;
  // Stream bytes that lie before file offset `end` (where the end of a file of that size falls).
  MPI_Offset stream_before(MPI_Offset end) const;

 private:
  // The tile and the index of the run that hold stream byte `pos`, and the bytes into that run.
  void locate(MPI_Offset pos, MPI_Offset* tile, size_t* run, size_t* into) const;

  MPI_Offset disp_ = 0;
  std::shared_ptr<const Datatype> etype_, filetype_;
  std::string datarep_ = "native";
  Representation rep_ = Representation::kNative;
  const UserDatarep* user_ = nullptr;
  mutable FileExtents extents_;
  size_t etype_bytes_ = 1;
  std::vector<Run> runs_;       // one filetype element's data, in typemap order
  std::vector<size_t> before_;  // stream bytes before each run within a tile
  size_t tile_bytes_ = 0;       // stream bytes of one tile (the filetype's size)
  MPI_Offset extent_ = 0;       // file bytes between tiles (the filetype's extent)
};

}  // namespace weft::io
