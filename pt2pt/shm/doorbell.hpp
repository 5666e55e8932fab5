// How a rank blocked in poll(2) learns that a peer on its node wrote to one of its rings: each
// rank listens on an abstract-namespace datagram socket named after its pid (nothing in the
// file system, gone with the process); a sender rings it only when the receiver's control line
// says it sleeps, so busy ranks never make a system call.
#pragma once
#include <sys/types.h>

#include "runtime/status.hpp"

namespace weft::shm {

class Doorbell {
 public:
  Doorbell() = default;
  ~Doorbell();
  Doorbell(const Doorbell&) = delete;
  Doorbell& operator=(const Doorbell&) = delete;

  // Binds this process's socket.
  Status open();
  // The fd that becomes readable when rung.
  int fd() const { return listen_fd_; }
  // Empties the socket after a wake-up.
  void drain();
  // Rings process `pid`'s doorbell (never blocks; a full socket already means "wake up").
  void ring(pid_t pid);

 private:
  int listen_fd_ = -1;
  int send_fd_ = -1;
};

}  // namespace weft::shm
