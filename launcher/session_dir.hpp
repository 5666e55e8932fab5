// The job's session directory (weftrun.XXXXXX in $TMPDIR, holding the PMIx server's files): made
// with an owner record (launcher pid and its start time), and the stale ones of launchers that
// are gone (killed with SIGKILL, so they could not clean up) removed when the next job starts.
#pragma once
#include <string>
#include <vector>

namespace weft::launcher {

// The temporary directory jobs use: $TMPDIR, or /tmp.
std::string temp_base();

// Creates base/weftrun.XXXXXX with the owner record of this process; returns its path in *path,
// or a message naming the directory and the reason.
std::string create_session_dir(const std::string& base, std::string* path);

// Who made a session directory, as recorded in it. A directory from a launcher that wrote no
// record is owned by the PMIx server named in its pmix_dstor_*_<pid> entries (with no known
// start time).
struct SessionOwner {
  long pid = 0;                 // 0: unknown
  unsigned long long start = 0;  // process start time in clock ticks since boot; 0: unknown
};
SessionOwner read_session_owner(const std::string& dir);

// Whether process `owner` still runs (the same process: a reused pid has another start time).
bool owner_alive(const SessionOwner& owner);

// Removes this user's session directories in `base` whose owner is gone; a directory whose owner
// cannot be told is kept unless it is older than `unknown_after_s`. Returns the paths removed.
std::vector<std::string> remove_stale_session_dirs(const std::string& base,
                                                   double unknown_after_s = 600);

}  // namespace weft::launcher
