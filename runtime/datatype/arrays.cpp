// MPI_Type_create_subarray and MPI_Type_create_darray (MPI 4.0 §5.1.3-5.1.4): the part of an
// n-dimensional array of `old` that a subarray or a process's share of a distribution covers,
// as nested strided loops from the fastest dimension out. Both types are resized to the whole
// array: lower bound 0, extent = product of the sizes × extent of `old`.
#include <algorithm>
#include <string>

#include "runtime/datatype/build.hpp"

namespace weft {
namespace {

std::string at(const char* arg, int i) { return std::string(arg) + "[" + std::to_string(i) + "]"; }

Status bad_arg(const std::string& what) { return Status::error(MPI_ERR_ARG, "invalid " + what); }

Status check_order(int order) {
  if (order == MPI_ORDER_C || order == MPI_ORDER_FORTRAN) return Status::success();
  return bad_arg("order=" + std::to_string(order) + " (must be MPI_ORDER_C or MPI_ORDER_FORTRAN)");
}

// Dimensions from the fastest-varying in memory to the slowest.
std::vector<int> fast_to_slow(int ndims, int order) {
  std::vector<int> dims(size_t(ndims), 0);
  for (int k = 0; k < ndims; ++k) dims[size_t(k)] = order == MPI_ORDER_C ? ndims - 1 - k : k;
  return dims;
}

// Index runs [start, start + length) a process holds along one dimension, in increasing order;
// `repeat` runs, `period` indices apart.
struct Runs {
  long start = 0;
  long length = 0;
  long repeat = 0;
  long period = 0;
};

std::shared_ptr<Datatype> resized_to_array(Layout layout, Signature signature, long elements,
                                           const TypeRef& old, Envelope envelope) {
  const TypeBounds bounds{0, ptrdiff_t(elements) * old->extent(), true, true};
  return std::make_shared<Datatype>(std::move(layout), std::move(signature), bounds,
                                    old->alignment(), std::move(envelope));
}

// Wraps `inner` (one index of dimension d) in the loops over the runs of d.
Layout along(const std::vector<Runs>& runs, ptrdiff_t index_bytes, const Layout& inner) {
  Layout out, block;
  for (const Runs& r : runs) {
    block.clear();
    append_repeat(&block, 0, size_t(r.length), index_bytes, inner);
    append_repeat(&out, ptrdiff_t(r.start) * index_bytes, size_t(r.repeat),
                  ptrdiff_t(r.period) * index_bytes, block);
  }
  return out;
}

// The runs a process at `coord` of `procs` holds of `n` indices distributed per `distrib`.
Status distribution(int d, long n, int distrib, int darg, int procs, int coord,
                    std::vector<Runs>* out) {
  out->clear();
  if (distrib == MPI_DISTRIBUTE_NONE) {
    if (procs != 1) {
      return bad_arg(at("array_of_psizes", d) + "=" + std::to_string(procs) +
                     " (a dimension with MPI_DISTRIBUTE_NONE must have 1 process)");
    }
    out->push_back(Runs{0, n, 1, 0});
    return Status::success();
  }
  if (darg != MPI_DISTRIBUTE_DFLT_DARG && darg <= 0) {
    return bad_arg(at("array_of_dargs", d) + "=" + std::to_string(darg) +
                   " (must be positive or MPI_DISTRIBUTE_DFLT_DARG)");
  }
  if (distrib == MPI_DISTRIBUTE_BLOCK) {
    const long b = darg == MPI_DISTRIBUTE_DFLT_DARG ? (long(n) + procs - 1) / procs : darg;
    if (b * procs < n) {
      return bad_arg(at("array_of_dargs", d) + "=" + std::to_string(darg) + " (" +
                     std::to_string(procs) + " blocks of it cannot cover " + std::to_string(n) +
                     " elements)");
    }
    const long start = b * coord, length = std::min<long>(b, n - start);
    if (length > 0) out->push_back(Runs{start, length, 1, 0});
    return Status::success();
  }
  if (distrib != MPI_DISTRIBUTE_CYCLIC) {
    return bad_arg(at("array_of_distribs", d) + "=" + std::to_string(distrib) +
                   " (must be MPI_DISTRIBUTE_BLOCK, MPI_DISTRIBUTE_CYCLIC or MPI_DISTRIBUTE_NONE)");
  }
  // Blocks of b at coord × b + k × procs × b; the last one may be cut short by the array's end.
  const long b = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg, period = b * procs;
  const long first = b * coord;
  if (first >= n) return Status::success();
  const long blocks = (n - first + period - 1) / period;
  const long last_start = first + (blocks - 1) * period,
             last_length = std::min<long>(b, n - last_start);
  const long full = last_length == b ? blocks : blocks - 1;
  if (full > 0) out->push_back(Runs{first, b, full, period});
  if (last_length < b) out->push_back(Runs{last_start, last_length, 1, 0});
  return Status::success();
}

}  // namespace

Status make_subarray(int ndims, CountArray sizes, CountArray subsizes, CountArray starts, int order,
                     const TypeRef& old, std::shared_ptr<Datatype>* out) {
  if (ndims <= 0) return bad_arg("ndims=" + std::to_string(ndims) + " (must be > 0)");
  WEFT_TRY(check_order(order));
  for (size_t d = 0; d < size_t(ndims); ++d) {
    if (sizes[d] <= 0)
      return bad_arg(at("array_of_sizes", int(d)) + "=" + std::to_string(sizes[d]) +
                     " (must be > 0)");
    if (subsizes[d] < 1 || subsizes[d] > sizes[d]) {
      return bad_arg(at("array_of_subsizes", int(d)) + "=" + std::to_string(subsizes[d]) +
                     " (must be in 1.." + std::to_string(sizes[d]) + ")");
    }
    if (starts[d] < 0 || starts[d] > sizes[d] - subsizes[d]) {
      return bad_arg(at("array_of_starts", int(d)) + "=" + std::to_string(starts[d]) +
                     " (must be in 0.." + std::to_string(sizes[d] - subsizes[d]) + ")");
    }
  }
  Layout layout = old->layout();
  long index_elements = 1, selected = 1;
  for (int d : fast_to_slow(ndims, order)) {
    const std::vector<Runs> runs{Runs{long(starts[size_t(d)]), long(subsizes[size_t(d)]), 1, 0}};
    layout = along(runs, ptrdiff_t(index_elements) * old->extent(), layout);
    index_elements *= long(sizes[size_t(d)]);
    selected *= long(subsizes[size_t(d)]);
  }
  Signature signature;
  append_repeat(&signature, size_t(selected), old->signature());
  EnvelopeInts ints;
  ints.add_int(ndims);
  for (CountArray a : {sizes, subsizes, starts}) ints.add(a, ndims);
  ints.add_int(order);
  *out = resized_to_array(std::move(layout), std::move(signature), index_elements, old,
                          ints.finish(MPI_COMBINER_SUBARRAY, {}, {old}));
  return Status::success();
}

Status make_darray(int size, int rank, int ndims, CountArray gsizes, const int* distribs,
                   const int* dargs, const int* psizes, int order, const TypeRef& old,
                   std::shared_ptr<Datatype>* out) {
  if (size <= 0) return bad_arg("size=" + std::to_string(size) + " (must be > 0)");
  if (rank < 0 || rank >= size) {
    return Status::error(MPI_ERR_RANK, "invalid rank=" + std::to_string(rank) + " (must be in 0.." +
                                           std::to_string(size - 1) + ")");
  }
  if (ndims <= 0) return bad_arg("ndims=" + std::to_string(ndims) + " (must be > 0)");
  WEFT_TRY(check_order(order));
  long procs = 1;
  for (int d = 0; d < ndims; ++d) {
    if (gsizes[size_t(d)] <= 0) {
      return bad_arg(at("array_of_gsizes", d) + "=" + std::to_string(gsizes[size_t(d)]) +
                     " (must be > 0)");
    }
    if (psizes[d] <= 0)
      return bad_arg(at("array_of_psizes", d) + "=" + std::to_string(psizes[d]) + " (must be > 0)");
    procs *= psizes[d];
  }
  if (procs != size) {
    return bad_arg("array_of_psizes (their product " + std::to_string(procs) +
                   " must equal size=" + std::to_string(size) + ")");
  }
  // The process grid is row-major whatever the array's order (MPI 4.0 §5.1.4).
  std::vector<int> coords(size_t(ndims), 0);
  for (int d = ndims - 1, r = rank; d >= 0; --d) {
    coords[size_t(d)] = r % psizes[d];
    r /= psizes[d];
  }
  Layout layout = old->layout();
  long index_elements = 1, selected = 1;
  std::vector<Runs> runs;
  for (int d : fast_to_slow(ndims, order)) {
    WEFT_TRY(distribution(d, long(gsizes[size_t(d)]), distribs[d], dargs[d], psizes[d],
                          coords[size_t(d)], &runs));
    layout = along(runs, ptrdiff_t(index_elements) * old->extent(), layout);
    long held = 0;
    for (const Runs& r : runs) held += r.length * r.repeat;
    index_elements *= long(gsizes[size_t(d)]);
    selected *= held;
  }
  Signature signature;
  append_repeat(&signature, size_t(selected), old->signature());
  EnvelopeInts ints;
  for (int v : {size, rank, ndims}) ints.add_int(v);
  ints.add(gsizes, ndims);
  for (CountArray a : {CountArray(distribs), CountArray(dargs), CountArray(psizes)})
    ints.add_int(a, ndims);
  ints.add_int(order);
  *out = resized_to_array(std::move(layout), std::move(signature), index_elements, old,
                          ints.finish(MPI_COMBINER_DARRAY, {}, {old}));
  return Status::success();
}

}  // namespace weft
