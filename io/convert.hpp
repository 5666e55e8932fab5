// Conversion between an access's memory (count elements of a datatype) and the view's data
// stream, in the view's representation: native (packing), external32
// (runtime/datatype/external32.hpp), or one registered with MPI_Register_datarep, whose
// conversion functions do it (MPI 4.1 §14.5.3).
#pragma once
#include <cstddef>
#include <memory>

#include "io/datarep.hpp"
#include "io/view.hpp"
#include "runtime/datatype/datatype.hpp"

namespace weft::io {

class Conversion {
 public:
  // For elements of memory type `type` through view `v` (a registered representation's extent
  // function is asked here the sizes of the predefined types in type's signature).
  static Status make(const View& v, const Datatype& type, Conversion* out);

  const Datatype& type() const { return *type_; }
  // Bytes one element occupies in the data stream.
  size_t element_bytes() const { return element_bytes_; }
  // Whether the stream holds the packed memory bytes as they are.
  bool native() const { return rep_ == Representation::kNative; }

  // Memory → stream: `count` elements at `buf` into count × element_bytes() bytes at `out`.
  Status to_stream(const void* buf, size_t count, unsigned char* out) const;
  // Stream → memory: the whole data items of the first `stream` bytes at `in` into `buf`
  // (`count` elements asked); *memory is the memory bytes they fill.
  Status from_stream(const unsigned char* in, size_t stream, void* buf, size_t count,
                     size_t* memory) const;
  // A handle of the type of its own for the conversion functions, for a read that finishes
  // after the call returns (the application may free its handle meanwhile).
  Status keep_handle();

 private:
  // A registered representation's conversion of `count` elements from element `first` on.
  Status convert(bool to_file, void* buf, size_t first, size_t count, unsigned char* file) const;
  // MPI_ERR_CONVERSION unless the data can move as it is in memory (a registered
  // representation without a conversion function for that direction).
  Status as_is(bool to_file) const;
  // The whole data items in `stream` bytes of one element: how many, and their memory bytes.
  size_t items_within(size_t stream, size_t* memory) const;

  Representation rep_ = Representation::kNative;
  const UserDatarep* user_ = nullptr;
  FileExtents extents_;  // a copy: sizes of every predefined type in the signature
  std::shared_ptr<const Datatype> type_;
  std::shared_ptr<const MPI_Datatype> handle_;  // what the conversion functions are given
  size_t element_bytes_ = 0;
  size_t items_ = 0;  // data items (typemap entries) of one element
};

}  // namespace weft::io
