// Abstract-socket doorbells (pt2pt/shm/doorbell.hpp).
#include "pt2pt/shm/doorbell.hpp"

#include <sys/epoll.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>

#include "mpi.h"

namespace weft::shm {
namespace {

// "\0weft-doorbell.<pid>": the leading NUL puts it in the abstract namespace.
socklen_t address_of(pid_t pid, sockaddr_un* a) {
  std::memset(a, 0, sizeof *a);
  a->sun_family = AF_UNIX;
  const int n = std::snprintf(a->sun_path + 1, sizeof a->sun_path - 1, "weft-doorbell.%d", int(pid));
  return socklen_t(offsetof(sockaddr_un, sun_path) + 1 + size_t(n));
}

}  // namespace

Doorbell::~Doorbell() {
  for (int fd : {listen_fd_, send_fd_, timer_fd_, epoll_fd_})
    if (fd >= 0) close(fd);
}

Status Doorbell::open() {
  listen_fd_ = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  send_fd_ = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (listen_fd_ < 0 || send_fd_ < 0)
    return Status::error(MPI_ERR_OTHER, std::string("cannot make a doorbell socket: ") +
                                            std::strerror(errno));
  sockaddr_un a;
  const socklen_t len = address_of(getpid(), &a);
  if (bind(listen_fd_, reinterpret_cast<sockaddr*>(&a), len) != 0)
    return Status::error(MPI_ERR_OTHER, "cannot bind the doorbell socket weft-doorbell." +
                                            std::to_string(getpid()) + ": " + std::strerror(errno));
  timer_fd_ = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
  epoll_fd_ = epoll_create1(EPOLL_CLOEXEC);
  if (timer_fd_ < 0 || epoll_fd_ < 0)
    return Status::error(MPI_ERR_OTHER, std::string("cannot make the doorbell's timer: ") +
                                            std::strerror(errno));
  for (int fd : {listen_fd_, timer_fd_}) {
    epoll_event e{};
    e.events = EPOLLIN;
    e.data.fd = fd;
    if (epoll_ctl(epoll_fd_, EPOLL_CTL_ADD, fd, &e) != 0)
      return Status::error(MPI_ERR_OTHER, std::string("epoll_ctl: ") + std::strerror(errno));
  }
  return Status::success();
}

void Doorbell::set_backstop(long microseconds) {
  itimerspec t{};
  t.it_value.tv_sec = microseconds / 1000000;
  t.it_value.tv_nsec = (microseconds % 1000000) * 1000;
  (void)timerfd_settime(timer_fd_, 0, &t, nullptr);
}

void Doorbell::drain() {
  char buf[64];
  while (recv(listen_fd_, buf, sizeof buf, MSG_DONTWAIT) > 0) {
  }
  uint64_t expirations;
  (void)!read(timer_fd_, &expirations, sizeof expirations);
}

void Doorbell::ring(pid_t pid) {
  sockaddr_un a;
  const socklen_t len = address_of(pid, &a);
  const char byte = 1;
  (void)sendto(send_fd_, &byte, 1, MSG_DONTWAIT, reinterpret_cast<sockaddr*>(&a), len);
}

}  // namespace weft::shm
