// Threads of the library's own that call MPI functions (job_queue.hpp: io/'s I/O threads and
// the threads of stream-ordered calls, which run their work through PMPI calls). While one has work, every entry point takes the call lock
// and waits share it, as under MPI_THREAD_MULTIPLE (runtime/call_lock.hpp), whatever thread
// level the application asked for: the application's thread and such a thread never touch the
// library's state at once, and neither keeps the other out while it waits.
#pragma once

namespace weft::library_threads {

// One more piece of work for such a thread. Called inside an MPI call of the application's
// thread, which holds the call lock from then until the call ends.
void retain();
// One piece of work is done and its thread makes no MPI call for it any more; from any thread.
// The last one lets calls go without the lock again (unless something else needs it).
void release();

}  // namespace weft::library_threads
