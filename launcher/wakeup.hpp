// What the launchers' event loops (weftrun's and weftd's) share: a self-pipe that signals write
// their number to, so that poll() wakes for them, and the monotonic clock they keep time by.
#pragma once
#include <initializer_list>
#include <string>

namespace weft::launcher {

double now_s();

// Makes the pipe (both ends non-blocking, close-on-exec) and routes each of `signals` to it as
// one byte holding the signal's number; SIGPIPE is ignored. Returns "" or what failed.
std::string open_wakeup(int fds[2], std::initializer_list<int> signals);

}  // namespace weft::launcher
