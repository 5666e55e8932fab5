// Partitioned send and receive requests (MPI_Psend_init, MPI_Precv_init): each is an Activity
// owned by a persistent request of kind kActivity, so MPI_Start/Startall restart a round and
// every Wait/Test form, MPI_Request_free and MPI_Request_get_status work as for other requests.
// Arguments are checked by the C boundary (runtime/c_api/partitioned.cpp).
#pragma once
#include <cstddef>
#include <memory>
#include <vector>

#include "pt2pt/partitioned/wire.hpp"
#include "runtime/comm/comm.hpp"
#include "runtime/datatype/datatype.hpp"
#include "runtime/request.hpp"

namespace weft::partitioned {

// What both sides hold: the buffer as `partitions` × `count` elements of the type, the peer, the
// round in progress and the pairing's outcome.
class Side : public Activity {
 public:
  Side(const Comm& comm, void* buf, int partitions, size_t count, const Datatype& type, int peer,
       int tag);
  bool finished() const override { return finished_; }
  Status outcome() const override { return outcome_; }
  // Where completion is reported: the request's own Completion.
  void report_to(Completion* c) { report_ = c; }
  int partitions() const { return partitions_; }
  // Whether a round is started and not yet complete.
  bool in_round() const { return !finished_; }
  // An error naming partition `partition` unless it is in 0..partitions-1; `arg` names it.
  Status check_partition(long long partition, const char* arg) const;

  MPI_Comm comm() const { return comm_; }
  uint32_t context() const { return context_; }
  int peer() const { return peer_; }
  int peer_world() const { return peer_world_; }
  int tag() const { return tag_; }
  int my_rank() const { return my_rank_; }

 protected:
  // Begins a round: returns false for MPI_PROC_NULL, whose rounds complete at once.
  bool begin_round();
  void finish();
  // The bytes of the packed stream a partition of `part_bytes` covers start at index × part_bytes.
  void* contiguous_at(size_t offset) const {
    return static_cast<unsigned char*>(type_->data_start(buf_)) + offset;
  }
  bool contiguous() const { return staging_.empty(); }

  MPI_Comm comm_;
  uint32_t context_;
  int my_rank_;
  int peer_;        // rank in the communicator, or MPI_PROC_NULL
  int peer_world_;  // world rank of the peer (-1 for MPI_PROC_NULL)
  int tag_;
  void* buf_;
  int partitions_;
  size_t count_;  // elements per partition
  std::shared_ptr<const Datatype> type_;
  size_t part_bytes_;  // bytes of one partition
  size_t total_bytes_;
  std::vector<unsigned char> staging_;  // non-contiguous layouts: the packed stream
  Completion* report_ = nullptr;
  bool finished_ = true;  // no round in progress
  Status outcome_ = Status::success();
  Status pairing_failed_ = Status::success();  // set when the two sides do not fit
};

class SendSide final : public Side {
 public:
  using Side::Side;
  ~SendSide() override;
  // MPI_Pready's work on one partition: errors name `fn`'s argument `arg`.
  Status ready(long long partition, const char* arg);
  // The matcher's part: the receive's answer (channel, or a mismatch).
  void answered(const Control& answer);
  Control setup(uint32_t send_id) const;

  unsigned advance() override;
  Status restart() override;

 private:
  void post(size_t partition);
  std::vector<unsigned char> ready_;  // this round, per partition
  std::vector<Completion> sent_;      // per partition
  size_t ready_count_ = 0;
  bool answered_ = false;
  uint32_t channel_ = kNoChannel;
};

class RecvSide final : public Side {
 public:
  RecvSide(const Comm& comm, void* buf, int partitions, size_t count, const Datatype& type,
           int source, int tag);
  ~RecvSide() override;
  // MPI_Parrived's work: whether every byte of `partition` is in the buffer.
  bool arrived(int partition);
  // The matcher's part: a setup paired with this receive, and the channel it was given
  // (kNoChannel when the sizes differ). Returns the answer to send back.
  Control paired(const Control& setup, uint32_t channel);
  uint32_t channel() const { return channel_; }

  unsigned advance() override;
  Status restart() override;
  const ::weft_request* received() const override { return &status_; }

 private:
  void post_round();
  bool send_partitions_done(size_t first, size_t last) const;
  void deliver(size_t partition);
  std::vector<Completion> received_;      // per send partition
  std::vector<unsigned char> delivered_;  // per receive partition (staged layouts)
  size_t send_part_bytes_ = 0;
  bool paired_ = false;
  uint32_t channel_ = kNoChannel;
  ::weft_request status_;  // what the request's status reports: source, tag, bytes
};

// Make `r` an inactive persistent request of one partitioned side. `count` is per partition.
Status init_send(const Comm& comm, const void* buf, int partitions, size_t count,
                 const Datatype& type, int dest, int tag, Request* r);
Status init_recv(const Comm& comm, void* buf, int partitions, size_t count, const Datatype& type,
                 int source, int tag, Request* r);
// Makes `r` the inactive persistent request that owns `side` (both init calls end with it).
void hold(std::unique_ptr<Side> side, Request* r);
// The side a request holds, or nullptr when it is not such a request.
SendSide* send_side(Request* r);
RecvSide* recv_side(Request* r);

}  // namespace weft::partitioned
