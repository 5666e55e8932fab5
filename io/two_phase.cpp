// Two-phase collective I/O (R. Thakur, W. Gropp, E. Lusk, "Data Sieving and Collective I/O in
// ROMIO", Frontiers of Massively Parallel Computation, 1999, §4). The ranks agree on the file
// range the call covers and split it into one contiguous domain per aggregator (cb_plan.*).
// Each round, an aggregator handles the next cb_buffer_size bytes of its domain: every rank
// sends it the (offset, length) of its pieces there (MPI_Alltoall of counts, MPI_Alltoallv of
// the pairs); for a write the data follows (MPI_Alltoallv) and the aggregator writes each
// covered run with one pwrite; for a read the aggregator preads the covering block and sends
// the pieces back. Cost per round: three all-to-alls (small) and the data crossing once, then
// a few large system calls instead of one per piece per rank.
#include "io/two_phase.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cstring>

#include "io/agree.hpp"
#include "io/cb_plan.hpp"
#include "io/posix_io.hpp"
#include "io/sieve.hpp"

namespace weft::io {
namespace {

// One rank's side of the exchanges of one round.
struct Round {
  std::vector<int> pieces_to, pieces_from;         // per rank of the communicator
  std::vector<long long> meta_out, meta_in;        // (offset, bytes) pairs
  std::vector<MPI_Count> data_to, data_from;       // bytes per rank
  std::vector<MPI_Aint> data_to_at, data_from_at;  // where in the send/receive buffer
};

// The pieces of `chunks` inside window w, found from the per-aggregator cursor `k` (which only
// moves forward, as the windows of one aggregator do). Appends them to r.meta_out; returns the
// stream position of the first (they are contiguous in the stream) and adds up their bytes.
size_t pieces_in(const std::vector<Chunk>& chunks, const std::vector<size_t>& at, const Chunk& w,
                 size_t* k, std::vector<long long>* meta, size_t* bytes) {
  const MPI_Offset wlo = w.offset, whi = w.offset + MPI_Offset(w.bytes);
  *bytes = 0;
  if (w.bytes == 0) return 0;
  while (*k < chunks.size() && chunks[*k].offset + MPI_Offset(chunks[*k].bytes) <= wlo) ++*k;
  size_t first = 0;
  for (size_t j = *k; j < chunks.size() && chunks[j].offset < whi; ++j) {
    const MPI_Offset lo = std::max(chunks[j].offset, wlo);
    const MPI_Offset hi = std::min(chunks[j].offset + MPI_Offset(chunks[j].bytes), whi);
    if (*bytes == 0) first = at[j] + size_t(lo - chunks[j].offset);
    meta->push_back(lo);
    meta->push_back(hi - lo);
    *bytes += size_t(hi - lo);
  }
  return first;
}

// Sorted, merged runs of the (offset, bytes) pairs in `meta`.
std::vector<Chunk> runs_of(const std::vector<long long>& meta) {
  std::vector<Chunk> v;
  for (size_t p = 0; p < meta.size(); p += 2) v.push_back({meta[p], size_t(meta[p + 1])});
  std::sort(v.begin(), v.end(), [](const Chunk& a, const Chunk& b) { return a.offset < b.offset; });
  std::vector<Chunk> out;
  for (const Chunk& c : v) {
    const MPI_Offset end = c.offset + MPI_Offset(c.bytes);
    if (!out.empty() && c.offset <= out.back().offset + MPI_Offset(out.back().bytes)) {
      out.back().bytes = size_t(std::max(end, out.back().offset + MPI_Offset(out.back().bytes)) -
                                out.back().offset);
    } else {
      out.push_back(c);
    }
  }
  return out;
}

MPI_Aint prefix(const std::vector<MPI_Count>& counts, std::vector<MPI_Aint>* at) {
  MPI_Aint sum = 0;
  at->resize(counts.size());
  for (size_t j = 0; j < counts.size(); ++j) {
    (*at)[j] = sum;
    sum += MPI_Aint(counts[j]);
  }
  return sum;
}

// The aggregator's I/O of one window: the received pieces `in` (ordered by source rank, then
// as each sent them) go to or come from the file through the block `block` that mirrors w.
Status aggregate(const File& f, bool write, const Chunk& w, const std::vector<long long>& meta,
                 std::vector<unsigned char>& in, std::vector<unsigned char>& block) {
  const std::vector<Chunk> runs = runs_of(meta);
  if (runs.empty()) return Status::success();
  const MPI_Offset lo = runs.front().offset;
  const MPI_Offset hi = runs.back().offset + MPI_Offset(runs.back().bytes);
  if (block.size() < w.bytes) block.resize(w.bytes);
  RangeLock lock(f.fd, write, lo, hi, f.atomic);
  size_t pos = 0, done = 0;
  if (!write) {
    unsigned char* b = block.data() + (lo - w.offset);
    WEFT_TRY(move_range(f.fd, f.path, false, lo, size_t(hi - lo), b, &done));
    std::memset(b + done, 0, size_t(hi - lo) - done);  // past the end of the file
  }
  for (size_t p = 0; p < meta.size(); p += 2) {
    unsigned char* b = block.data() + (meta[p] - w.offset);
    if (write) {
      std::memcpy(b, in.data() + pos, size_t(meta[p + 1]));
    } else {
      std::memcpy(in.data() + pos, b, size_t(meta[p + 1]));
    }
    pos += size_t(meta[p + 1]);
  }
  if (!write) return Status::success();
  for (const Chunk& run : runs)
    WEFT_TRY(move_range(f.fd, f.path, true, run.offset, run.bytes,
                        block.data() + (run.offset - w.offset), &done));
  return Status::success();
}

bool exchanged(int rc) { return rc == MPI_SUCCESS; }

// One round: every rank takes part; aggregators also do the I/O. An I/O error is kept in *io
// and the exchanges go on, so that no rank is left waiting.
Status round(File& f, const CbPlan& plan, long long r, bool write, const std::vector<Chunk>& chunks,
             const std::vector<size_t>& at, std::vector<size_t>& cursor, unsigned char* data,
             Status* io) {
  const size_t n = size_t(f.size);
  Round x;
  x.pieces_to.assign(n, 0);
  x.pieces_from.assign(n, 0);
  x.data_to.assign(n, 0);
  x.data_to_at.assign(n, 0);
  int my_index = -1;
  for (size_t i = 0; i < plan.aggregators.size(); ++i) {
    const size_t agg = size_t(plan.aggregators[i]);
    if (int(agg) == f.rank) my_index = int(i);
    const size_t before = x.meta_out.size();
    size_t bytes = 0;
    const size_t first = pieces_in(chunks, at, plan.window(i, r), &cursor[i], &x.meta_out, &bytes);
    x.pieces_to[agg] = int((x.meta_out.size() - before) / 2);
    x.data_to[agg] = MPI_Count(bytes);
    x.data_to_at[agg] = MPI_Aint(first);
  }
  if (!exchanged(
          PMPI_Alltoall(x.pieces_to.data(), 1, MPI_INT, x.pieces_from.data(), 1, MPI_INT, f.comm)))
    return Status::error(MPI_ERR_OTHER, "collective buffering: the exchange of counts failed");
  std::vector<MPI_Count> meta_to(n), meta_from(n);
  for (size_t j = 0; j < n; ++j) {
    meta_to[j] = 2 * MPI_Count(x.pieces_to[j]);
    meta_from[j] = 2 * MPI_Count(x.pieces_from[j]);
  }
  std::vector<MPI_Aint> meta_to_at, meta_from_at;
  prefix(meta_to, &meta_to_at);
  x.meta_in.resize(size_t(prefix(meta_from, &meta_from_at)));
  if (!exchanged(PMPI_Alltoallv_c(x.meta_out.data(), meta_to.data(), meta_to_at.data(),
                                  MPI_LONG_LONG, x.meta_in.data(), meta_from.data(),
                                  meta_from_at.data(), MPI_LONG_LONG, f.comm)))
    return Status::error(MPI_ERR_OTHER, "collective buffering: the exchange of offsets failed");
  // Bytes from each rank: the sum of its pieces' lengths.
  x.data_from.assign(n, 0);
  for (size_t j = 0, p = 0; j < n; ++j)
    for (int k = 0; k < x.pieces_from[j]; ++k, p += 2) x.data_from[j] += x.meta_in[p + 1];
  std::vector<unsigned char>& in = f.cb.in;
  const size_t incoming = size_t(prefix(x.data_from, &x.data_from_at));
  if (in.size() < incoming) in.resize(incoming);
  const Chunk w = my_index >= 0 ? plan.window(size_t(my_index), r) : Chunk{};
  if (write &&
      !exchanged(PMPI_Alltoallv_c(data, x.data_to.data(), x.data_to_at.data(), MPI_BYTE, in.data(),
                                  x.data_from.data(), x.data_from_at.data(), MPI_BYTE, f.comm)))
    return Status::error(MPI_ERR_OTHER, "collective buffering: the exchange of data failed");
  if (my_index >= 0 && io->ok()) *io = aggregate(f, write, w, x.meta_in, in, f.cb.block);
  if (!write &&
      !exchanged(PMPI_Alltoallv_c(in.data(), x.data_from.data(), x.data_from_at.data(), MPI_BYTE,
                                  data, x.data_to.data(), x.data_to_at.data(), MPI_BYTE, f.comm)))
    return Status::error(MPI_ERR_OTHER, "collective buffering: the exchange of data failed");
  return Status::success();
}

}  // namespace

Status move_collective(File& f, bool write, const std::vector<Chunk>& chunks, unsigned char* data,
                       Status local, size_t* stream) {
  *stream = 0;
  WEFT_TRY(agree(f.comm, std::move(local)));
  CbPlan plan;
  WEFT_TRY(plan_collective(f, write, chunks, &plan));
  if (!plan.use) return move_independent(target_of(f), write, chunks, data, stream);
  std::vector<size_t> at(chunks.size());
  size_t total = 0;
  for (size_t k = 0; k < chunks.size(); ++k) {
    at[k] = total;
    total += chunks[k].bytes;
  }
  std::vector<size_t> cursor(plan.aggregators.size(), 0);
  Status io = Status::success();
  for (long long r = 0; r < plan.rounds; ++r)
    WEFT_TRY(round(f, plan, r, write, chunks, at, cursor, data, &io));
  WEFT_TRY(agree(f.comm, std::move(io)));
  if (write) {
    *stream = total;
    return Status::success();
  }
  struct stat st {};
  *stream = ::fstat(f.fd, &st) == 0 ? stream_before_end(chunks, st.st_size) : total;
  return Status::success();
}

}  // namespace weft::io
