// Data access (MPI 4.1 §14.4): one read or write through a file's view, at an explicit offset,
// the individual file pointer, the shared file pointer, or in rank order; in the file's
// representation, under a byte-range lock in atomic mode.
#pragma once
#include <cstddef>

#include "io/file.hpp"
#include "mpi.h"
#include "runtime/datatype/datatype.hpp"
#include "runtime/status.hpp"

namespace weft::io {

enum class Pointer { kExplicit, kIndividual, kShared, kOrdered };

struct Access {
  Pointer where = Pointer::kExplicit;
  bool write = false;
  bool collective = false;  // an _all or ordered call: every rank of the file takes part
  MPI_Offset offset = 0;    // kExplicit: in etypes of the view
  void* buf = nullptr;
  size_t count = 0;
  const Datatype* type = nullptr;
  // A nonblocking or split call: where its request goes; the access then runs on a thread of
  // background.hpp and the individual pointer moves past all the data asked for now.
  MPI_Request* background = nullptr;
  const char* fn = "";  // the MPI function, for the messages of background failures
};

// Runs `a` on `f` (or starts it, with a.background); *bytes is the memory bytes moved (fewer
// than asked when a read meets the end of the file). A collective access fails on every rank or
// on none; a nonblocking collective one reports its failures, the local ones included, when it
// completes.
Status access(File& f, const Access& a, size_t* bytes);

// The status a file access reports: `bytes` of data (MPI_Get_count / MPI_Get_elements).
void set_status(MPI_Status* status, size_t bytes);

}  // namespace weft::io
