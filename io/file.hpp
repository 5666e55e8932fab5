// An open MPI file: its descriptor, private communicator, access mode, view, file pointers and
// hints; and the process's table of files, which hands out the MPI_File handles.
// Threads: the application's calls (the C boundary holds the call lock) and the file's
// collective thread (background.hpp), which runs queued collective accesses; every other
// collective call on the file first waits for those (finish_collectives), so the two never
// use the communicator, the view or the scratch buffers at once.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "io/hints.hpp"
#include "io/shared_pointer.hpp"
#include "io/view.hpp"
#include "mpi.h"
#include "runtime/status.hpp"

namespace weft {
class JobQueue;
}  // namespace weft

namespace weft::io {

// A split collective in progress (MPI_File_*_begin until its _end): a collective access queued
// on the file's collective thread, whose request the _end call completes.
struct SplitCall {
  bool active = false;
  const char* end_fn = "";  // the MPI function that ends it
  const void* buf = nullptr;
  MPI_Request request = MPI_REQUEST_NULL;
};

// Scratch memory of collective buffering, kept from one call to the next: a fresh buffer each
// round would cost page faults and, worse, new memory registrations in the transport.
struct CbBuffers {
  std::vector<unsigned char> in;     // what an aggregator receives or sends back
  std::vector<unsigned char> block;  // an aggregator's window of the file
};

struct File {
  File();
  ~File();  // stops the collective thread (idle by then: close waits for it)
  File(const File&) = delete;
  File& operator=(const File&) = delete;

  MPI_File handle = MPI_FILE_NULL;
  MPI_Comm comm = MPI_COMM_NULL;  // a duplicate of the communicator it was opened on
  int rank = 0, size = 1;
  std::vector<int> node_of;  // the node of each rank, 0, 1, ... (collective buffering)
  int fd = -1;
  std::string path;       // as the application named it
  std::string real_path;  // resolved (realpath), to tell whether a path is open
  int amode = 0;
  bool atomic = false;
  MPI_Errhandler errhandler = MPI_ERRORS_RETURN;
  Hints hints;
  View view;
  MPI_Datatype view_etype = MPI_BYTE, view_filetype = MPI_BYTE;  // our own handles (dups)
  MPI_Offset pointer = 0;  // the individual file pointer, in etypes of the view
  SharedPointer shared;
  SplitCall split;
  CbBuffers cb;
  std::unique_ptr<JobQueue> collectives;  // the collective thread, from the first queued access
};

class FileTable {
 public:
  // Takes `f`, gives it a handle.
  MPI_File add(std::unique_ptr<File> f);
  File* find(MPI_File handle) const;
  void remove(MPI_File handle);
  // Whether this process has `path` (as resolved by realpath) open.
  bool is_open(const std::string& path) const;

  // The error handler of MPI_FILE_NULL: what files opened from now on start with, and what
  // errors outside any open file (MPI_File_open, MPI_File_delete) raise.
  MPI_Errhandler default_errhandler = MPI_ERRORS_RETURN;

 private:
  std::map<MPI_File, std::unique_ptr<File>> files_;
  MPI_File next_ = 1;
};

FileTable& files();

// The open file behind `handle`; MPI_ERR_FILE naming the value otherwise.
Status lookup_file(MPI_File handle, File** out);

}  // namespace weft::io
