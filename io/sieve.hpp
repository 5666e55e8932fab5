// Independent access to the chunks of one transfer: data sieving for many small pieces, one
// pread/pwrite per chunk otherwise; the whole range under an fcntl lock in atomic mode.
#pragma once
#include <vector>

#include "io/posix_io.hpp"

namespace weft::io {

// Below this many bytes on average an access's pieces count as small: independent access sieves
// them, and collective access gathers interleaved ones through aggregators (cb_plan.hpp); at or
// above it each rank moves its own pieces with one call each.
inline constexpr size_t kSmallPiece = 64 * 1024;

// Whether an independent access of `chunks` is sieved: the romio_ds_read / romio_ds_write hint,
// and under "automatic" when there are several pieces, on average under kSmallPiece, that fill at
// least 1/16 of the range they span. A write is sieved only if the file can be read.
bool use_sieving(const Target& t, bool write, const std::vector<Chunk>& chunks);

// Moves the stream bytes at `data` to or from `chunks` (sorted by offset, as a view gives them);
// *stream is the bytes moved, fewer only when a read meets the end of the file.
Status move_independent(const Target& t, bool write, const std::vector<Chunk>& chunks,
                        unsigned char* data, size_t* stream);

}  // namespace weft::io
