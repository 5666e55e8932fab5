// Rebuilding a datatype in a representation's file sizes, from its envelope (how it was made).
#include "io/file_layout.hpp"

#include <vector>

#include "runtime/datatype/build.hpp"

namespace weft::io {
namespace {

// n file layouts of types[0..n).
Status layouts_of(const std::vector<TypeRef>& types, FileExtents& extents,
                  std::vector<TypeRef>* out) {
  for (const TypeRef& t : types) {
    TypeRef f;
    WEFT_TRY(file_layout(*t, extents, &f));
    out->push_back(std::move(f));
  }
  return Status::success();
}

// A predefined type (or a Fortran 90 parameterized one, made of one): a block of its file size.
Status predefined_block(const Datatype& t, FileExtents& extents, TypeRef* out) {
  if (t.size() == 0) {  // MPI_LB, MPI_UB: bounds only
    *out = t.share();
    return Status::success();
  }
  size_t bytes = 0;
  WEFT_TRY(extents.of(t.basic_type(), &bytes));
  const Datatype* byte = nullptr;
  WEFT_TRY(find_datatype(MPI_BYTE, "MPI_BYTE", &byte));
  *out = make_contiguous(MPI_Count(bytes * t.basic_count()), byte->share());
  return Status::success();
}

}  // namespace

Status file_layout(const Datatype& t, FileExtents& extents, TypeRef* out) {
  const Envelope& e = t.envelope();
  if (e.combiner == MPI_COMBINER_NAMED || e.combiner == MPI_COMBINER_F90_REAL ||
      e.combiner == MPI_COMBINER_F90_COMPLEX || e.combiner == MPI_COMBINER_F90_INTEGER)
    return predefined_block(t, extents, out);
  std::vector<TypeRef> old;
  WEFT_TRY(layouts_of(e.types, extents, &old));
  // The large-count constructor's arguments: its ints, then its counts and addresses in order.
  const std::vector<int>& ci = e.c_ints;
  const MPI_Count* c = e.c_counts.data();
  const MPI_Count n = e.c_counts.empty() ? 0 : c[0];
  std::shared_ptr<Datatype> made;
  switch (e.combiner) {
    case MPI_COMBINER_DUP:
      *out = old[0];
      return Status::success();
    case MPI_COMBINER_CONTIGUOUS:
      made = make_contiguous(n, old[0]);
      break;
    case MPI_COMBINER_VECTOR:
      made = make_vector(n, c[1], c[2], old[0]);
      break;
    case MPI_COMBINER_HVECTOR:
      made = make_hvector(n, c[1], c[2], old[0]);
      break;
    case MPI_COMBINER_INDEXED:
      made = make_indexed(n, c + 1, c + 1 + n, old[0]);
      break;
    case MPI_COMBINER_HINDEXED:
      made = make_hindexed(n, c + 1, c + 1 + n, old[0]);
      break;
    case MPI_COMBINER_INDEXED_BLOCK:
      made = make_indexed_block(n, c[1], c + 2, old[0]);
      break;
    case MPI_COMBINER_HINDEXED_BLOCK:
      made = make_hindexed_block(n, c[1], c + 2, old[0]);
      break;
    case MPI_COMBINER_STRUCT:
      made = make_struct(n, c + 1, c + 1 + n, old.data());
      break;
    case MPI_COMBINER_RESIZED:
      made = make_resized(old[0], c[0], c[1]);
      break;
    case MPI_COMBINER_SUBARRAY: {
      const int nd = ci[0];  // ints: ndims, order; counts: sizes, subsizes, starts
      WEFT_TRY(make_subarray(nd, c, c + nd, c + 2 * nd, ci[1], old[0], &made));
      break;
    }
    case MPI_COMBINER_DARRAY: {
      // ints: size, rank, ndims, distribs, dargs, psizes, order; counts: gsizes
      const int nd = ci[2];
      const int* arrays = ci.data() + 3;
      WEFT_TRY(make_darray(ci[0], ci[1], nd, c, arrays, arrays + nd, arrays + 2 * nd,
                           ci[size_t(3 + 3 * nd)], old[0], &made));
      break;
    }
    default:
      return Status::error(MPI_ERR_INTERN, std::string("datatype ") + t.label() +
                                               " has an unknown combiner " +
                                               std::to_string(e.combiner));
  }
  *out = std::move(made);
  return Status::success();
}

}  // namespace weft::io
