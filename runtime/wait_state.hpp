// What this rank is blocked in, for the launcher's hang report: the MPI call being made, and,
// when a wait goes from spinning to blocking, one line describing it ("in MPI_Recv(source=2,
// tag=7) on MPI_COMM_WORLD", "in MPI_Allreduce #41 on MPI_COMM_WORLD"). Under weftrun
// (WEFT_STATE_SIGNAL set) the launcher's signal makes the rank write that line to stderr,
// marked so that the launcher takes it out of the output: the line is built before blocking,
// so the signal handler only copies it (write(2), async-signal-safe).
// Cost: a pointer store per MPI call; the formatting happens only when a wait blocks (after the
// spin phase), never on the fast path. Threads: what a call waits for is kept per thread; the
// shown line and the count of blocked threads change under the call lock (runtime/call_lock.hpp)
// when several threads call MPI; the handler only reads.
#pragma once
#include <atomic>
#include <cstdint>

namespace weft {
struct Comm;

namespace wait_state {

// The marker that starts a state line on stderr (launcher/hang_report.cpp reads it).
inline constexpr const char* kMarker = "\x1bweft-state ";

// Entry into an MPI function (`fn` is a string literal).
void note_call(const char* fn);

// What the coming wait of this call is for, set just before it (cheap stores; formatted only
// if it blocks). note_call forgets the previous call's.
void note_message(bool send, const Comm& comm, int peer, int tag, uint64_t bytes);
void note_collective(const Comm& comm, uint32_t number);

// Called by the progress engine around the blocking part of a wait.
void blocking_begins();
void blocking_ends();

// Installs the handler for the launcher's state signal, if WEFT_STATE_SIGNAL names one.
void install_from_environment();

// The line as the handler would write it now (tests).
const char* current_line();

}  // namespace wait_state
}  // namespace weft
