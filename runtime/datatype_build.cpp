// The block constructors (contiguous, vector, indexed and struct families), resized and dup:
// each is a list of blocks `count` × `blocklength` copies of a type, from which the layout,
// signature and bounds follow.
#include "runtime/datatype_build.hpp"

#include <algorithm>

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

Envelope envelope_of(int combiner, std::vector<int> ints, std::vector<MPI_Aint> aints,
                     std::vector<TypeRef> types) {
  return Envelope{combiner, std::move(ints), std::move(aints), std::move(types)};
}

}  // namespace

std::shared_ptr<Datatype> make_contiguous(int count, const TypeRef& old) {
  BlockBuilder b;
  b.add(0, 1, 0, size_t(count), *old);
  return b.finish(envelope_of(MPI_COMBINER_CONTIGUOUS, {count}, {}, {old}), false);
}

std::shared_ptr<Datatype> make_vector(int count, int blocklength, int stride, const TypeRef& old) {
  BlockBuilder b;
  b.add(0, size_t(count), ptrdiff_t(stride) * old->extent(), size_t(blocklength), *old);
  return b.finish(envelope_of(MPI_COMBINER_VECTOR, {count, blocklength, stride}, {}, {old}), false);
}

std::shared_ptr<Datatype> make_hvector(int count, int blocklength, MPI_Aint stride,
                                       const TypeRef& old) {
  BlockBuilder b;
  b.add(0, size_t(count), stride, size_t(blocklength), *old);
  return b.finish(envelope_of(MPI_COMBINER_HVECTOR, {count, blocklength}, {stride}, {old}), false);
}

std::shared_ptr<Datatype> make_indexed(int count, const int* blocklengths, const int* displacements,
                                       const TypeRef& old) {
  BlockBuilder b;
  std::vector<int> ints{count};
  ints.insert(ints.end(), blocklengths, blocklengths + count);
  ints.insert(ints.end(), displacements, displacements + count);
  for (int i = 0; i < count; ++i)
    b.add(ptrdiff_t(displacements[i]) * old->extent(), 1, 0, size_t(blocklengths[i]), *old);
  return b.finish(envelope_of(MPI_COMBINER_INDEXED, std::move(ints), {}, {old}), false);
}

std::shared_ptr<Datatype> make_hindexed(int count, const int* blocklengths,
                                        const MPI_Aint* displacements, const TypeRef& old) {
  BlockBuilder b;
  std::vector<int> ints{count};
  ints.insert(ints.end(), blocklengths, blocklengths + count);
  for (int i = 0; i < count; ++i) b.add(displacements[i], 1, 0, size_t(blocklengths[i]), *old);
  return b.finish(envelope_of(MPI_COMBINER_HINDEXED, std::move(ints),
                              {displacements, displacements + count}, {old}),
                  false);
}

std::shared_ptr<Datatype> make_indexed_block(int count, int blocklength, const int* displacements,
                                             const TypeRef& old) {
  BlockBuilder b;
  std::vector<int> ints{count, blocklength};
  ints.insert(ints.end(), displacements, displacements + count);
  for (int i = 0; i < count; ++i)
    b.add(ptrdiff_t(displacements[i]) * old->extent(), 1, 0, size_t(blocklength), *old);
  return b.finish(envelope_of(MPI_COMBINER_INDEXED_BLOCK, std::move(ints), {}, {old}), false);
}

std::shared_ptr<Datatype> make_hindexed_block(int count, int blocklength,
                                              const MPI_Aint* displacements, const TypeRef& old) {
  BlockBuilder b;
  for (int i = 0; i < count; ++i) b.add(displacements[i], 1, 0, size_t(blocklength), *old);
  return b.finish(envelope_of(MPI_COMBINER_HINDEXED_BLOCK, {count, blocklength},
                              {displacements, displacements + count}, {old}),
                  false);
}

std::shared_ptr<Datatype> make_struct(int count, const int* blocklengths,
                                      const MPI_Aint* displacements, const TypeRef* types) {
  BlockBuilder b;
  std::vector<int> ints{count};
  ints.insert(ints.end(), blocklengths, blocklengths + count);
  for (int i = 0; i < count; ++i) b.add(displacements[i], 1, 0, size_t(blocklengths[i]), *types[i]);
  return b.finish(envelope_of(MPI_COMBINER_STRUCT, std::move(ints),
                              {displacements, displacements + count}, {types, types + count}),
                  true);
}

std::shared_ptr<Datatype> make_resized(const TypeRef& old, MPI_Aint lb, MPI_Aint extent) {
  return std::make_shared<Datatype>(old->layout(), old->signature(),
                                    TypeBounds{lb, lb + extent, true, true}, old->alignment(),
                                    envelope_of(MPI_COMBINER_RESIZED, {}, {lb, extent}, {old}));
}

std::shared_ptr<Datatype> make_dup(const TypeRef& old) {
  return old->copy(envelope_of(MPI_COMBINER_DUP, {}, {}, {old}));
}

}  // namespace weft
