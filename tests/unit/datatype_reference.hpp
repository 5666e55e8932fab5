// A naive reference for the datatype tests: each type's typemap expanded entry by entry from its
// envelope, straight from the constructor definitions of MPI 4.0 chapter 5, and a pack that copies
// one entry at a time. Independent of the engine's layout trees and loop programs.
#pragma once
#include <cstring>
#include <functional>
#include <memory>
#include <vector>

#include "runtime/datatype/build.hpp"
#include "runtime/datatype/table.hpp"

namespace weft::test {

struct Entry {
  ptrdiff_t offset;
  size_t bytes;
};

inline TypeRef predefined(MPI_Datatype h) { return datatypes().share(h); }

inline void append_shifted(std::vector<Entry>* out, const std::vector<Entry>& map, ptrdiff_t by) {
  for (const Entry& e : map) out->push_back({e.offset + by, e.bytes});
}

// The owners of indices 0..n-1 of one darray dimension (MPI 4.0 §5.1.4, by the definition).
inline int darray_owner(int index, int n, int distrib, int darg, int procs) {
  if (distrib == MPI_DISTRIBUTE_NONE) return 0;
  if (distrib == MPI_DISTRIBUTE_BLOCK) {
    const int b = darg == MPI_DISTRIBUTE_DFLT_DARG ? (n + procs - 1) / procs : darg;
    return index / b;
  }
  const int b = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
  return (index / b) % procs;
}

// Visits every multi-index of `lists` (one list of indices per dimension) in the array's order:
// the last dimension fastest for C, the first for Fortran.
inline void for_each_index(const std::vector<std::vector<int>>& lists, bool c_order,
                           const std::function<void(const std::vector<int>&)>& visit) {
  const int ndims = int(lists.size());
  std::vector<int> index(static_cast<size_t>(ndims));
  std::function<void(int)> level = [&](int k) {
    if (k == ndims) {
      visit(index);
      return;
    }
    const int d = c_order ? k : ndims - 1 - k;
    for (int i : lists[size_t(d)]) {
      index[size_t(d)] = i;
      level(k + 1);
    }
  };
  level(0);
}

inline ptrdiff_t linear_index(const std::vector<int>& index, const int* sizes, bool c_order) {
  const int ndims = int(index.size());
  ptrdiff_t linear = 0;
  for (int k = 0; k < ndims; ++k) {
    const int d = c_order ? k : ndims - 1 - k;
    linear = linear * sizes[d] + index[size_t(d)];
  }
  return linear;
}

// The typemap of `t` as (offset, bytes) entries, one per predefined element, in order.
inline std::vector<Entry> typemap(const Datatype& t) {
  const Envelope& e = t.envelope();
  std::vector<Entry> out;
  if (e.combiner == MPI_COMBINER_NAMED) return {Entry{0, t.size()}};
  const Datatype& old = *e.types[0];
  const std::vector<Entry> m = typemap(old);
  const ptrdiff_t ext = old.extent();
  const int* in = e.ints.data();
  switch (e.combiner) {
    case MPI_COMBINER_DUP:
    case MPI_COMBINER_RESIZED:
      return m;
    case MPI_COMBINER_CONTIGUOUS:
      for (int i = 0; i < in[0]; ++i) append_shifted(&out, m, i * ext);
      break;
    case MPI_COMBINER_VECTOR:
    case MPI_COMBINER_HVECTOR: {
      const ptrdiff_t stride = e.combiner == MPI_COMBINER_VECTOR ? in[2] * ext : e.aints[0];
      for (int i = 0; i < in[0]; ++i)
        for (int j = 0; j < in[1]; ++j) append_shifted(&out, m, i * stride + j * ext);
      break;
    }
    case MPI_COMBINER_INDEXED:
      for (int i = 0; i < in[0]; ++i)
        for (int j = 0; j < in[1 + i]; ++j) append_shifted(&out, m, (in[1 + in[0] + i] + j) * ext);
      break;
    case MPI_COMBINER_HINDEXED:
      for (int i = 0; i < in[0]; ++i)
        for (int j = 0; j < in[1 + i]; ++j) append_shifted(&out, m, e.aints[size_t(i)] + j * ext);
      break;
    case MPI_COMBINER_INDEXED_BLOCK:
      for (int i = 0; i < in[0]; ++i)
        for (int j = 0; j < in[1]; ++j) append_shifted(&out, m, (in[2 + i] + j) * ext);
      break;
    case MPI_COMBINER_HINDEXED_BLOCK:
      for (int i = 0; i < in[0]; ++i)
        for (int j = 0; j < in[1]; ++j) append_shifted(&out, m, e.aints[size_t(i)] + j * ext);
      break;
    case MPI_COMBINER_STRUCT:
      for (int i = 0; i < in[0]; ++i) {
        const Datatype& ti = *e.types[size_t(i)];
        const std::vector<Entry> mi = typemap(ti);
        for (int j = 0; j < in[1 + i]; ++j)
          append_shifted(&out, mi, e.aints[size_t(i)] + j * ti.extent());
      }
      break;
    case MPI_COMBINER_SUBARRAY: {
      const int n = in[0];
      const int *sizes = in + 1, *subsizes = in + 1 + n, *starts = in + 1 + 2 * n;
      const bool c_order = in[1 + 3 * n] == MPI_ORDER_C;
      std::vector<std::vector<int>> lists(static_cast<size_t>(n));
      for (int d = 0; d < n; ++d)
        for (int i = starts[d]; i < starts[d] + subsizes[d]; ++i) lists[size_t(d)].push_back(i);
      for_each_index(lists, c_order, [&](const std::vector<int>& idx) {
        append_shifted(&out, m, linear_index(idx, sizes, c_order) * ext);
      });
      break;
    }
    case MPI_COMBINER_DARRAY: {
      const int rank = in[1], n = in[2];
      const int *gsizes = in + 3, *distribs = in + 3 + n, *dargs = in + 3 + 2 * n,
                *psizes = in + 3 + 3 * n;
      const bool c_order = in[3 + 4 * n] == MPI_ORDER_C;
      std::vector<std::vector<int>> lists(static_cast<size_t>(n));
      for (int d = n - 1, r = rank; d >= 0; --d) {  // row-major process grid
        const int coord = r % psizes[d];
        r /= psizes[d];
        for (int i = 0; i < gsizes[d]; ++i)
          if (darray_owner(i, gsizes[d], distribs[d], dargs[d], psizes[d]) == coord)
            lists[size_t(d)].push_back(i);
      }
      for_each_index(lists, c_order, [&](const std::vector<int>& idx) {
        append_shifted(&out, m, linear_index(idx, gsizes, c_order) * ext);
      });
      break;
    }
  }
  return out;
}

// Packs `count` elements entry by entry.
inline void reference_pack(const Datatype& t, const unsigned char* buf, size_t count,
                           unsigned char* packed) {
  const std::vector<Entry> map = typemap(t);
  for (size_t k = 0; k < count; ++k) {
    for (const Entry& e : map) {
      std::memcpy(packed, buf + ptrdiff_t(k) * t.extent() + e.offset, e.bytes);
      packed += e.bytes;
    }
  }
}

}  // namespace weft::test
