// Weft's own matching for messages between ranks of a node: the receives posted and not yet
// matched, and the messages arrived and not yet received, each in order (MPI's non-overtaking
// rule holds because one sender's records arrive through one ring, in order). Entries come
// from free lists, so steady-state traffic allocates nothing.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "pt2pt/shm/ring.hpp"
#include "pt2pt/transport.hpp"

namespace weft::shm {

// A receive that another transport may also match (an MPI_ANY_SOURCE receive of a job that
// spans nodes): asked just before a message is delivered to it. False: the other transport
// got a message for it first, so this transport must leave it alone.
class MatchGuard {
 public:
  virtual bool claim() = 0;

 protected:
  ~MatchGuard() = default;
};

struct PostedRecv {
  uint64_t bits = 0, mask = 0;
  void* buf = nullptr;
  size_t capacity = 0;
  Completion* c = nullptr;
  MatchGuard* guard = nullptr;
  PostedRecv* prev = nullptr;
  PostedRecv* next = nullptr;
};

// A message as it arrived: an eager payload (`payload`), or a rendezvous (`address`, the
// sender's buffer to copy from).
struct Arrival {
  int from = 0;  // local rank of the sender
  RecordKind kind = RecordKind::kEager;
  uint16_t flags = 0;
  uint64_t bits = 0;
  uint64_t bytes = 0;
  uint64_t cookie = 0;
  uint64_t address = 0;
  const void* payload = nullptr;
};

// A message not yet received; an eager payload is kept in `data`.
struct Unexpected {
  Arrival m;
  std::vector<unsigned char> data;
  Unexpected* prev = nullptr;
  Unexpected* next = nullptr;
};

// An ordered, intrusive list of T whose removed entries go to a free list for reuse.
template <typename T>
class Queue {
 public:
  ~Queue() {
    for (T* e = head_; e != nullptr;) {
      T* next = e->next;
      delete e;
      e = next;
    }
  }
  T* first() const { return head_; }
  bool empty() const { return head_ == nullptr; }
  // A fresh entry (not yet in the list).
  T* make() {
    if (free_.empty()) return new T();
    T* e = free_.back().release();
    free_.pop_back();
    return e;
  }
  void push_back(T* e) {
    e->prev = tail_;
    e->next = nullptr;
    (tail_ != nullptr ? tail_->next : head_) = e;
    tail_ = e;
  }
  // Takes `e` out of the list; it stays valid until recycle(e).
  void unlink(T* e) {
    (e->prev != nullptr ? e->prev->next : head_) = e->next;
    (e->next != nullptr ? e->next->prev : tail_) = e->prev;
    e->prev = e->next = nullptr;
  }
  void recycle(T* e) { free_.emplace_back(e); }

 private:
  T* head_ = nullptr;
  T* tail_ = nullptr;
  std::vector<std::unique_ptr<T>> free_;
};

inline bool bits_match(uint64_t sent, uint64_t bits, uint64_t mask) {
  return ((sent ^ bits) & mask) == 0;
}

}  // namespace weft::shm
