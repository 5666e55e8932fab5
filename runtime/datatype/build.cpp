// The block constructors (contiguous, vector, indexed and struct families), resized and dup:
// each is a list of blocks `count` × `blocklength` copies of a type, from which the layout,
// signature and bounds follow.
#include "runtime/datatype/build.hpp"

#include <algorithm>
#include <climits>

namespace weft {
namespace {

// Accumulates blocks: `count` groups `stride` bytes apart, the first at `offset`, each group
// `blocklength` copies of `type` one extent apart.
class BlockBuilder {
 public:
  void add(ptrdiff_t offset, size_t count, ptrdiff_t stride, size_t blocklength,
           const Datatype& type) {
    const TypeBounds& b = type.bounds();
    if (count == 0 || blocklength == 0 || (type.size() == 0 && !b.lb_marked && !b.ub_marked))
      return;  // no typemap entries
    const ptrdiff_t ext = type.extent();
    Layout group;
    append_repeat(&group, 0, blocklength, ext, type.layout());
    append_repeat(&layout_, offset, count, stride, group);
    append_repeat(&signature_, count * blocklength, type.signature());
    // Copies lie at offset + i × stride + j × ext: the extreme ones bound the block.
    const ptrdiff_t outer = ptrdiff_t(count - 1) * stride, inner = ptrdiff_t(blocklength - 1) * ext;
    const ptrdiff_t low = offset + std::min<ptrdiff_t>(0, outer) + std::min<ptrdiff_t>(0, inner);
    const ptrdiff_t high = offset + std::max<ptrdiff_t>(0, outer) + std::max<ptrdiff_t>(0, inner);
    if (b.lb_marked || type.size() > 0) lb_.take(low + b.lb, b.lb_marked, true);
    if (b.ub_marked || type.size() > 0) ub_.take(high + b.ub, b.ub_marked, false);
    alignment_ = std::max(alignment_, type.alignment());
  }

  // `pad`: round the extent up to the strictest alignment of the parts, as MPI_Type_create_struct
  // does when no upper bound is set explicitly (the ε of MPI 4.0 §5.1).
  std::shared_ptr<Datatype> finish(Envelope envelope, bool pad) {
    TypeBounds b{lb_.value, ub_.value, lb_.marked, ub_.marked};
    if (pad && !b.ub_marked && b.ub > b.lb) {
      const ptrdiff_t a = ptrdiff_t(alignment_), rest = (b.ub - b.lb) % a;
      if (rest != 0) b.ub += a - rest;
    }
    return std::make_shared<Datatype>(std::move(layout_), std::move(signature_), b, alignment_,
                                      std::move(envelope));
  }

 private:
  // The lowest (or highest) candidate bound; a marked candidate beats every unmarked one.
  struct Bound {
    ptrdiff_t value = 0;
    bool marked = false, any = false;
    void take(ptrdiff_t v, bool is_marked, bool lowest) {
      const bool better = lowest ? v < value : v > value;
      if (!any || (is_marked && !marked) || (is_marked == marked && better)) {
        value = v;
        marked = is_marked;
        any = true;
      }
    }
  };

  Layout layout_;
  Signature signature_;
  Bound lb_, ub_;
  size_t alignment_ = 1;
};

}  // namespace

void EnvelopeInts::add(MPI_Count value) {
  if (value < INT_MIN || value > INT_MAX) overflow_ = true;
  ints_.push_back(int(value));
  c_counts_.push_back(value);
}

void EnvelopeInts::add(CountArray values, MPI_Count n) {
  for (MPI_Count i = 0; i < n; ++i) add(values[size_t(i)]);
}

void EnvelopeInts::add_int(int value) {
  ints_.push_back(value);
  c_ints_.push_back(value);
}

void EnvelopeInts::add_int(CountArray values, MPI_Count n) {
  for (MPI_Count i = 0; i < n; ++i) add_int(int(values[size_t(i)]));
}

Envelope EnvelopeInts::finish(int combiner, std::vector<MPI_Aint> aints,
                              std::vector<TypeRef> types) {
  c_counts_.insert(c_counts_.end(), aints.begin(), aints.end());
  Envelope e;
  e.combiner = combiner;
  e.ints = std::move(ints_);
  e.aints = std::move(aints);
  e.types = std::move(types);
  e.ints_overflow = overflow_;
  e.c_ints = std::move(c_ints_);
  e.c_counts = std::move(c_counts_);
  return e;
}

namespace {

std::vector<MPI_Aint> aints_of(CountArray values, MPI_Count n) {
  std::vector<MPI_Aint> out(static_cast<size_t>(n));
  for (size_t i = 0; i < out.size(); ++i) out[i] = MPI_Aint(values[i]);
  return out;
}

}  // namespace

std::shared_ptr<Datatype> make_contiguous(MPI_Count count, const TypeRef& old) {
  BlockBuilder b;
  b.add(0, 1, 0, size_t(count), *old);
  EnvelopeInts ints;
  ints.add(count);
  return b.finish(ints.finish(MPI_COMBINER_CONTIGUOUS, {}, {old}), false);
}

std::shared_ptr<Datatype> make_vector(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                                      const TypeRef& old) {
  BlockBuilder b;
  b.add(0, size_t(count), ptrdiff_t(stride) * old->extent(), size_t(blocklength), *old);
  EnvelopeInts ints;
  for (MPI_Count v : {count, blocklength, stride}) ints.add(v);
  return b.finish(ints.finish(MPI_COMBINER_VECTOR, {}, {old}), false);
}

std::shared_ptr<Datatype> make_hvector(MPI_Count count, MPI_Count blocklength, MPI_Count stride,
                                       const TypeRef& old) {
  BlockBuilder b;
  b.add(0, size_t(count), ptrdiff_t(stride), size_t(blocklength), *old);
  EnvelopeInts ints;
  for (MPI_Count v : {count, blocklength}) ints.add(v);
  return b.finish(ints.finish(MPI_COMBINER_HVECTOR, {MPI_Aint(stride)}, {old}), false);
}

std::shared_ptr<Datatype> make_indexed(MPI_Count count, CountArray blocklengths,
                                       CountArray displacements, const TypeRef& old) {
  BlockBuilder b;
  EnvelopeInts ints;
  ints.add(count);
  ints.add(blocklengths, count);
  ints.add(displacements, count);
  for (size_t i = 0; i < size_t(count); ++i)
    b.add(ptrdiff_t(displacements[i]) * old->extent(), 1, 0, size_t(blocklengths[i]), *old);
  return b.finish(ints.finish(MPI_COMBINER_INDEXED, {}, {old}), false);
}

std::shared_ptr<Datatype> make_hindexed(MPI_Count count, CountArray blocklengths,
                                        CountArray displacements, const TypeRef& old) {
  BlockBuilder b;
  EnvelopeInts ints;
  ints.add(count);
  ints.add(blocklengths, count);
  for (size_t i = 0; i < size_t(count); ++i)
    b.add(ptrdiff_t(displacements[i]), 1, 0, size_t(blocklengths[i]), *old);
  return b.finish(ints.finish(MPI_COMBINER_HINDEXED, aints_of(displacements, count), {old}), false);
}

std::shared_ptr<Datatype> make_indexed_block(MPI_Count count, MPI_Count blocklength,
                                             CountArray displacements, const TypeRef& old) {
  BlockBuilder b;
  EnvelopeInts ints;
  ints.add(count);
  ints.add(blocklength);
  ints.add(displacements, count);
  for (size_t i = 0; i < size_t(count); ++i)
    b.add(ptrdiff_t(displacements[i]) * old->extent(), 1, 0, size_t(blocklength), *old);
  return b.finish(ints.finish(MPI_COMBINER_INDEXED_BLOCK, {}, {old}), false);
}

std::shared_ptr<Datatype> make_hindexed_block(MPI_Count count, MPI_Count blocklength,
                                              CountArray displacements, const TypeRef& old) {
  BlockBuilder b;
  for (size_t i = 0; i < size_t(count); ++i)
    b.add(ptrdiff_t(displacements[i]), 1, 0, size_t(blocklength), *old);
  EnvelopeInts ints;
  ints.add(count);
  ints.add(blocklength);
  return b.finish(ints.finish(MPI_COMBINER_HINDEXED_BLOCK, aints_of(displacements, count), {old}),
                  false);
}

std::shared_ptr<Datatype> make_struct(MPI_Count count, CountArray blocklengths,
                                      CountArray displacements, const TypeRef* types) {
  BlockBuilder b;
  EnvelopeInts ints;
  ints.add(count);
  ints.add(blocklengths, count);
  for (size_t i = 0; i < size_t(count); ++i)
    b.add(ptrdiff_t(displacements[i]), 1, 0, size_t(blocklengths[i]), *types[i]);
  return b.finish(
      ints.finish(MPI_COMBINER_STRUCT, aints_of(displacements, count), {types, types + count}),
      true);
}

std::shared_ptr<Datatype> make_resized(const TypeRef& old, MPI_Count lb, MPI_Count extent) {
  return std::make_shared<Datatype>(
      old->layout(), old->signature(),
      TypeBounds{ptrdiff_t(lb), ptrdiff_t(lb + extent), true, true}, old->alignment(),
      EnvelopeInts().finish(MPI_COMBINER_RESIZED, {MPI_Aint(lb), MPI_Aint(extent)}, {old}));
}

std::shared_ptr<Datatype> make_dup(const TypeRef& old) {
  return old->copy(EnvelopeInts().finish(MPI_COMBINER_DUP, {}, {old}));
}

}  // namespace weft
