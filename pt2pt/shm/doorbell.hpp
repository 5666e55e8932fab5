// How a rank blocked in poll(2) learns that a peer on its node wrote to one of its rings: each
// rank listens on an abstract-namespace datagram socket named after its pid (nothing in the
// file system, gone with the process); a sender rings it only when the receiver's control line
// says it sleeps, so busy ranks never make a system call. Senders read that flag without a
// fence (a fence would make every send wait for its record's cache line), so a record published
// just as its receiver falls asleep may go unannounced; the backstop timer bounds the first
// sleep after activity, after which the record is surely visible to the receiver's next look.
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
  // The fd that becomes readable when rung (or when the backstop expires).
  int fd() const { return epoll_fd_; }
  // Empties the socket and the timer after a wake-up.
  void drain();
  // Makes fd() readable after `microseconds` unless drained first.
  void set_backstop(long microseconds);
  // Rings process `pid`'s doorbell (never blocks; a full socket already means "wake up").
  void ring(pid_t pid);

 private:
  int listen_fd_ = -1;
  int send_fd_ = -1;
  int timer_fd_ = -1;
  int epoll_fd_ = -1;
};

}  // namespace weft::shm
