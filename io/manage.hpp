// Opening, closing and deleting files, and the collective calls that change a whole file: size,
// preallocation, sync, atomicity and the view. All return a Status the C boundary reports.
#pragma once
#include "io/file.hpp"
#include "mpi.h"
#include "runtime/status.hpp"

namespace weft::io {

// MPI_File_open: collective over `comm` (an intracommunicator); every rank must pass the same
// amode and filename. On success *out is a new handle on every rank; on failure none is made.
Status open_file(MPI_Comm comm, const char* filename, int amode, MPI_Info info, MPI_File* out);
// MPI_File_close: collective; deletes the file afterwards under MPI_MODE_DELETE_ON_CLOSE.
Status close_file(File& f);
// MPI_File_delete (not collective): MPI_ERR_FILE_IN_USE while this process has it open.
Status delete_file(const char* filename);

Status set_size(File& f, MPI_Offset size);
Status preallocate(File& f, MPI_Offset size);
Status get_size(const File& f, MPI_Offset* size);
Status sync(File& f);
Status set_atomicity(File& f, int flag);
Status set_info(File& f, MPI_Info info);

}  // namespace weft::io

namespace weft::io {

// MPI_File_set_view: collective; every rank passes the same datarep (and an etype of the same
// size). Resets the individual and shared file pointers to 0.
Status set_view(File& f, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
                const char* datarep, MPI_Info info);
// Frees our handles of the view's types (MPI_File_close).
void release_view(File& f);
// MPI_File_seek (shared = false, local) and MPI_File_seek_shared (collective): whence is
// MPI_SEEK_SET, MPI_SEEK_CUR or MPI_SEEK_END; a position before the view's start is MPI_ERR_ARG.
Status seek(File& f, MPI_Offset offset, int whence, bool shared);
// MPI_File_seek_shared's work and the reset of set_view: every rank waits until the pointer
// holds `value` (collective).
Status store_shared(File& f, MPI_Offset value);

}  // namespace weft::io
