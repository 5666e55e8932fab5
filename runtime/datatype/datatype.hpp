// Datatypes as the rest of the library sees them: a `const Datatype*` found from a handle, with
// its geometry (size, extent, bounds), whether `count` elements are one contiguous run, the one
// predefined type it is made of (for reductions), and pack/unpack to and from contiguous bytes.
//
// How to move `count` elements of type `t` at `buf` (MPI_BOTTOM is address 0):
//   t->is_contiguous(count): the data is the t->size() × count bytes at t->data_start(buf);
//   otherwise pack them into t->size() × count bytes with t->pack(), or unpack with t->unpack()
//   (pack_range/unpack_range copy a piece of the packed stream, e.g. one pipeline segment).
// Objects live as long as any handle, derived type or pending operation holds them (shared_ptr);
// the handle table (runtime/datatype/table.hpp) owns the handles.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "mpi.h"
#include "runtime/datatype/engine.hpp"
#include "runtime/datatype/layout.hpp"
#include "runtime/datatype/signature.hpp"
#include "runtime/status.hpp"

namespace weft {

class Datatype;

// The view of a datatype that code written for predefined types uses: name and element size.
struct DatatypeInfo {
  const char* name;
  size_t size;  // bytes of one element
};

// How a type was made (MPI_Type_get_envelope/get_contents, MPI 4.0 §5.1.13).
struct Envelope {
  int combiner = MPI_COMBINER_NAMED;
  std::vector<int> ints;
  std::vector<MPI_Aint> aints;
  std::vector<std::shared_ptr<const Datatype>> types;
  // Made by a large-count (_c) constructor with a value no int holds: `ints` is incomplete and
  // the int forms of MPI_Type_get_envelope/get_contents refuse the type.
  bool ints_overflow = false;
  // The same arguments as the large-count (_c) constructor takes them: its int arguments and,
  // at full width, its MPI_Count ones (counts, block lengths, strides, displacements, bounds),
  // in argument order. `large`: a _c constructor made the type, so MPI_Type_get_envelope_c/
  // get_contents_c report these; otherwise they report `ints` and `aints` as the int forms do.
  bool large = false;
  std::vector<int> c_ints;
  std::vector<MPI_Count> c_counts;
};

// Bounds of one element (MPI 4.0 §5.1.7). `*_marked`: set explicitly by MPI_Type_create_resized
// (or subarray/darray, which are resized by definition) and inherited by types built on such a
// type: a marked bound overrides the bounds of the data around it.
struct TypeBounds {
  ptrdiff_t lb = 0, ub = 0;
  bool lb_marked = false, ub_marked = false;
};

class Datatype : public std::enable_shared_from_this<Datatype> {
 public:
  Datatype(Layout layout, Signature signature, TypeBounds bounds, size_t alignment,
           Envelope envelope);
  // A predefined type: committed, named, its own basic type.
  explicit Datatype(MPI_Datatype predefined);

  MPI_Datatype handle() const { return handle_; }
  bool is_predefined() const { return envelope_.combiner == MPI_COMBINER_NAMED; }
  bool committed() const { return committed_; }

  // Bytes of data in one element (MPI_Type_size).
  size_t size() const { return size_; }
  ptrdiff_t lb() const { return bounds_.lb; }
  ptrdiff_t extent() const { return bounds_.ub - bounds_.lb; }
  ptrdiff_t true_lb() const { return true_lb_; }
  ptrdiff_t true_extent() const { return true_ub_ - true_lb_; }
  const TypeBounds& bounds() const { return bounds_; }
  size_t alignment() const { return alignment_; }

  // Whether the data of `count` elements is one run of count × size() bytes at buf + true_lb().
  bool is_contiguous(size_t count) const {
    return one_run_ && (count <= 1 || extent() == ptrdiff_t(size_));
  }
  // The same for any count.
  bool is_contiguous() const { return is_contiguous(2); }
  // buf + true_lb(): where the data of a contiguous layout starts (address arithmetic, so
  // MPI_BOTTOM plus absolute displacements works).
  void* data_start(const void* buf) const {
    return reinterpret_cast<void*>(reinterpret_cast<uintptr_t>(buf) + uintptr_t(true_lb_));
  }
  // The single predefined type the data is made of and how many of it one element holds;
  // MPI_DATATYPE_NULL (count 0) for mixed or empty types. Contiguous(3, MPI_DOUBLE) gives
  // (MPI_DOUBLE, 3).
  MPI_Datatype basic_type() const { return basic_; }
  size_t basic_count() const { return basic_count_; }

  // Pack/unpack of `count` whole elements (committed types only).
  void pack(const void* buf, size_t count, void* packed) const {
    program_.pack(buf, count, 0, count * size_, packed);
  }
  void unpack(const void* packed, size_t count, void* buf) const {
    program_.unpack(packed, count, 0, count * size_, buf);
  }
  // Bytes [first, first + len) of the packed stream of `count` elements.
  void pack_range(const void* buf, size_t count, size_t first, size_t len, void* packed) const {
    program_.pack(buf, count, first, len, packed);
  }
  void unpack_range(const void* packed, size_t count, size_t first, size_t len, void* buf) const {
    program_.unpack(packed, count, first, len, buf);
  }

  // Basic elements in `bytes` packed bytes (MPI_Get_elements); -1 when the bytes end inside one.
  long long elements(size_t bytes) const { return signature_elements(signature_, size_, bytes); }

  // The MPI name (MPI_Type_get_name): "MPI_INT" for predefined types, "" until set otherwise.
  const std::string& name() const { return name_; }
  void set_name(std::string name);
  // How error messages name the type: its name, or "derived datatype <handle>".
  const char* label() const { return label_.c_str(); }
  // label() and size() for lookup_datatype's callers.
  const DatatypeInfo& info() const { return info_; }

  const Layout& layout() const { return layout_; }
  const Signature& signature() const { return signature_; }
  const Envelope& envelope() const { return envelope_; }
  // A large-count (_c) constructor made this type (Envelope::large).
  void mark_large_count() { envelope_.large = true; }
  // Entries in the compiled loop description (0 until committed).
  size_t flattened_entries() const { return program_.loops(); }

  // Compiles the pack program; idempotent.
  void commit();
  // Called by the handle table when it hands out a handle for this object.
  void set_handle(MPI_Datatype handle);
  // A reference that keeps this object alive (a non-owning one for the static predefined types).
  std::shared_ptr<const Datatype> share() const;
  // A new, separately named object with the same layout and commit state (MPI_Type_dup's copy,
  // MPI_Type_get_contents's returned types).
  std::shared_ptr<Datatype> copy(Envelope envelope) const;

 private:
  void refresh_label();

  MPI_Datatype handle_ = MPI_DATATYPE_NULL;
  std::string name_;
  std::string label_;
  DatatypeInfo info_{"", 0};
  bool committed_ = false;
  size_t size_ = 0;
  size_t alignment_ = 1;
  TypeBounds bounds_;
  ptrdiff_t true_lb_ = 0, true_ub_ = 0;
  bool one_run_ = false;  // the data of one element is a single run (or nothing)
  MPI_Datatype basic_ = MPI_DATATYPE_NULL;
  size_t basic_count_ = 0;
  Layout layout_;
  Signature signature_;
  Envelope envelope_;
  PackProgram program_;
};

// The datatype behind a handle, committed or not (queries, constructors); MPI_ERR_TYPE naming
// `arg` and the value for MPI_DATATYPE_NULL, freed or unknown handles.
Status find_datatype(MPI_Datatype handle, const char* arg, const Datatype** out);
// The same, for communication and packing: an uncommitted type is MPI_ERR_TYPE too.
Status find_committed_datatype(MPI_Datatype handle, const char* arg, const Datatype** out);
// The type of `count` elements of a message or collective block: find_committed_datatype's,
// except that MPI_DATATYPE_NULL with count 0 is accepted, as Open MPI and MPICH accept it (MPI
// 3.1's Example 5.23 passes it), and stands for MPI_BYTE: an empty message has no type to check.
// `count` is checked by the caller.
Status find_message_datatype(MPI_Datatype handle, MPI_Count count, const char* arg,
                             const Datatype** out);

// Looks up a handle for code that moves count × size contiguous bytes from the buffer: a
// predefined type, or a committed derived type whose elements are back to back from the buffer's
// start (contiguous, true lower bound 0). Other types fail with MPI_ERR_TYPE naming `arg`, so
// that no caller silently moves the wrong bytes; such callers move to find_committed_datatype.
Status lookup_datatype(int handle, const char* arg, const DatatypeInfo** out);

}  // namespace weft
