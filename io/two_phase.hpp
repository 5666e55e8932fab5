// Collective buffering for the collective data-access calls (_all, ordered, split and
// nonblocking collective forms): two-phase I/O through aggregator ranks.
#pragma once
#include <vector>

#include "io/file.hpp"

namespace weft::io {

// Collective over f's communicator: moves the stream bytes at `data` to or from `chunks` (sorted
// by offset). `local` is this rank's result so far: if any rank failed, none moves data. Uses
// two-phase I/O when plan_collective says so, each rank's independent path otherwise. *stream
// is the bytes moved, fewer only when a read meets the end of the file.
Status move_collective(File& f, bool write, const std::vector<Chunk>& chunks, unsigned char* data,
                       Status local, size_t* stream);

}  // namespace weft::io
