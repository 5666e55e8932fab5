// The process-wide pairing of partitioned init calls. A send's setup message goes to its
// receiver at MPI_Psend_init; the receiver pairs setups with its MPI_Precv_init calls in order
// per (communicator, source, tag) and answers with the channel the data will use. The matcher
// is driven by the progress engine while anything is unpaired or in flight.
#pragma once
#include <cstdint>
#include <deque>
#include <memory>
#include <unordered_map>
#include <vector>

#include "pt2pt/partitioned/partitioned.hpp"
#include "runtime/activity.hpp"

namespace weft::partitioned {

class Matcher final : public Activity {
 public:
  // Sends `send`'s setup message; its answer arrives through SendSide::answered.
  Status add(SendSide* send);
  // Pairs `recv` with a setup that arrived already, or keeps it until one does.
  void add(RecvSide* recv);
  // A side going away (MPI_Request_free) is forgotten; its channel is freed.
  void remove(SendSide* send);
  void remove(RecvSide* recv);

  unsigned advance() override;
  bool finished() const override { return !driven_; }
  Status outcome() const override { return Status::success(); }
  Status restart() override { return Status::success(); }

 private:
  struct InFlight {
    Control message;
    Completion done;
  };
  bool busy() const;
  void keep_driven();
  void handle(const Control& c);
  void pair(RecvSide* recv, const Control& setup);
  Status send_control(int world_peer, const Control& c);
  uint32_t take_channel();
  void release_channel(uint32_t channel);

  std::deque<std::unique_ptr<InFlight>> outgoing_;      // control messages being sent
  std::deque<std::unique_ptr<InFlight>> incoming_;      // being received, handled in arrival order
  std::vector<RecvSide*> waiting_;                      // receives not paired yet, in init order
  std::vector<Control> unexpected_;                     // setups no receive has claimed yet
  std::unordered_map<uint32_t, SendSide*> unanswered_;  // by send id
  std::vector<unsigned char> channel_used_;             // by channel number
  std::vector<uint32_t> free_channels_;
  uint32_t next_send_id_ = 1;
  bool driven_ = false;  // registered with the progress engine
};

Matcher& matcher();

}  // namespace weft::partitioned
