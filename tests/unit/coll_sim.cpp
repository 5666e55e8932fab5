// The schedule simulator: in-memory matching and a random completion order.
#include "coll_sim.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <random>

#include "mpi.h"

namespace weft::test {
namespace {

struct Posted {
  const void* send_buf = nullptr;
  void* recv_buf = nullptr;
  size_t bytes = 0;
  Completion* c = nullptr;
  std::vector<unsigned char> stash;  // eager sends: the data, copied when posted
};

struct Queue {  // posted in order, matched from `head`
  std::vector<Posted> items;
  size_t head = 0;
  bool empty() const { return head == items.size(); }
};

// Stream (sender, receiver, lane) is number (sender * size + receiver) * lanes + lane.
using Stream = size_t;

// One of a rank's posts in the node region of the simulated call (a call posts at most twice
// per rank), and the posts not yet made. A post by reference keeps where its data lies: its
// fetches read the poster's memory as it is then, and it completes when all have.
struct RegionPost {
  bool posted = false, started = false, by_reference = false;
  std::vector<unsigned char> data;
  const unsigned char* reference = nullptr;
  size_t reference_bytes = 0;
  int readers_left = 0;
  Completion* c = nullptr;
  size_t size() const { return by_reference ? reference_bytes : data.size(); }
  const unsigned char* bytes() const { return by_reference ? reference : data.data(); }
};
struct PendingPost {
  int rank, which;
  const void* buf;
  size_t bytes;
  Completion* c;
};
struct PendingFetch {
  int peer, which;
  bool by_reference;
  void* buf;
  size_t bytes;
  Completion* c;
  size_t from;  // kWholePost or where in the post
};

struct Fabric {
  int size = 1;
  size_t lanes = 1;
  std::vector<Queue> sends, recvs;
  std::vector<Stream> ready;     // streams with both a send and a receive waiting
  std::vector<size_t> ready_at;  // position in `ready`, or SIZE_MAX
  std::mt19937_64 rng;
  bool eager = false;
  std::vector<RegionPost> region;
  std::vector<PendingPost> pending_posts;
  // The call's arrival (Schedule::arrive): how many ranks have arrived, and what each brought.
  int arrivals = 0;
  std::vector<std::vector<unsigned char>> brought;

  Fabric(int p, size_t lanes_used)
      : size(p),
        lanes(lanes_used),
        sends(size_t(p) * size_t(p) * lanes),
        recvs(sends.size()),
        ready_at(sends.size(), SIZE_MAX),
        region(size_t(p) * 2),
        brought(size_t(p)) {}

  RegionPost& post_of(int rank, int which) { return region[size_t(rank) * 2 + size_t(which)]; }
  // Makes a pending post (its data is read now, unless by reference), or nothing while it is
  // the rank's second post and the first has not been fetched by all.
  bool complete_post(const PendingPost& p) {
    if (p.which == 1 && post_of(p.rank, 0).started && post_of(p.rank, 0).readers_left > 0)
      return false;
    const auto* b = static_cast<const unsigned char*>(p.buf);
    RegionPost& r = post_of(p.rank, p.which);
    if (r.by_reference) {
      r.reference = b;
      r.reference_bytes = p.bytes;
    } else {
      r.data.assign(b, b + p.bytes);
      p.c->done = true;
    }
    r.posted = true;
    return true;
  }
  // Makes a random part of the pending posts, or all of them.
  unsigned complete_posts(bool all) {
    unsigned made = 0;
    for (size_t i = 0; i < pending_posts.size();) {
      if ((all || rng() % 2 == 0) && complete_post(pending_posts[i])) {
        pending_posts[i] = pending_posts.back();
        pending_posts.pop_back();
        ++made;
      } else {
        ++i;
      }
    }
    return made;
  }
  Stream stream(int from, int to, int lane) const {
    return (size_t(from) * size_t(size) + size_t(to)) * lanes + size_t(lane);
  }
  std::string describe(Stream s) const {
    const size_t pair = s / lanes;
    return "rank " + std::to_string(pair / size_t(size)) + " to rank " +
           std::to_string(pair % size_t(size)) + " on lane " + std::to_string(s % lanes);
  }

  void update(Stream s) {
    const bool both = !sends[s].empty() && !recvs[s].empty();
    if (both && ready_at[s] == SIZE_MAX) {
      ready_at[s] = ready.size();
      ready.push_back(s);
    } else if (!both && ready_at[s] != SIZE_MAX) {
      const size_t i = ready_at[s];
      ready_at[s] = SIZE_MAX;
      if (i + 1 != ready.size()) {
        ready[i] = ready.back();
        ready_at[ready[i]] = i;
      }
      ready.pop_back();
    }
  }
};

class SimChannel final : public coll::Channel {
 public:
  SimChannel(Fabric* f, int rank) : fabric_(f), rank_(rank) {}

  Status start_send(int peer, int lane, const void* buf, size_t bytes, Completion* c) override {
    Posted p;
    p.send_buf = buf;
    p.bytes = bytes;
    p.c = c;
    if (fabric_->eager && fabric_->rng() % 2 == 0) {
      const auto* b = static_cast<const unsigned char*>(buf);
      p.stash.assign(b, b + bytes);
      p.send_buf = nullptr;
      c->done = true;
    }
    const Stream s = fabric_->stream(rank_, peer, lane);
    fabric_->sends[s].items.push_back(std::move(p));
    fabric_->update(s);
    return Status::success();
  }

  Status start_recv(int peer, int lane, void* buf, size_t bytes, Completion* c) override {
    Posted p;
    p.recv_buf = buf;
    p.bytes = bytes;
    p.c = c;
    const Stream s = fabric_->stream(peer, rank_, lane);
    fabric_->recvs[s].items.push_back(std::move(p));
    fabric_->update(s);
    return Status::success();
  }

  Status start_post(const void* buf, size_t bytes, int readers, coll::RegionMove how,
                    Completion* c) override {
    RegionPost& r = fabric_->post_of(rank_, how.which);
    if (r.started) return Status::error(MPI_ERR_INTERN, "two posts of one number in one call");
    r.started = true;
    r.by_reference = how.by_reference;
    r.readers_left = readers;
    r.c = c;
    fabric_->pending_posts.push_back({rank_, how.which, buf, bytes, c});
    if (fabric_->eager && fabric_->rng() % 2 == 0) fabric_->complete_posts(true);
    return Status::success();
  }

  Status start_fetch(int peer, size_t from, void* buf, size_t bytes, coll::RegionMove how,
                     Completion* c) override {
    fetches_.push_back({peer, how.which, how.by_reference, buf, bytes, c, from});
    return Status::success();
  }

  Status start_arrive(const void* src, size_t bytes, void* dst, Completion* c) override {
    if (arrival_.c != nullptr) return Status::error(MPI_ERR_INTERN, "two arrivals in one call");
    arrival_ = {c, dst, bytes};
    const auto* b = static_cast<const unsigned char*>(src);
    fabric_->brought[size_t(rank_)].assign(b, b + bytes);  // copied as it arrives
    ++fabric_->arrivals;
    return Status::success();
  }

  unsigned poll_region() override {
    unsigned done = 0;
    for (size_t i = 0; i < fetches_.size();) {
      const PendingFetch f = fetches_[i];
      RegionPost& r = fabric_->post_of(f.peer, f.which);
      if (!r.posted) {
        ++i;
        continue;
      }
      const bool whole = f.from == coll::kWholePost;
      const size_t start = whole ? 0 : f.from;
      const size_t there = r.size() > start ? r.size() - start : 0;
      const size_t n = std::min(f.bytes, there);
      if (n > 0) std::memcpy(f.buf, r.bytes() + start, n);
      f.c->bytes = n;
      f.c->error_class = (whole ? there > f.bytes : there < f.bytes) ? MPI_ERR_TRUNCATE : 0;
      if (f.by_reference != r.by_reference) f.c->error_class = MPI_ERR_INTERN;
      f.c->done = true;
      --r.readers_left;
      fetches_[i] = fetches_.back();
      fetches_.pop_back();
      ++done;
    }
    // Its arrival completes once every rank has arrived (seen by this rank at its next poll),
    // with every rank's bytes.
    if (arrival_.c != nullptr && !arrival_.c->done && fabric_->arrivals == fabric_->size) {
      auto* out = static_cast<unsigned char*>(arrival_.dst);
      for (size_t r = 0; r < fabric_->brought.size(); ++r) {
        const std::vector<unsigned char>& b = fabric_->brought[r];
        if (b.size() != arrival_.bytes) arrival_.c->error_class = MPI_ERR_TRUNCATE;
        if (b.size() == arrival_.bytes && !b.empty())
          std::memcpy(out + r * b.size(), b.data(), b.size());
      }
      arrival_.c->done = true;
      ++done;
    }
    // This rank's posts by reference complete once fetched by all.
    for (int which = 0; which < 2; ++which) {
      RegionPost& r = fabric_->post_of(rank_, which);
      if (r.by_reference && r.posted && r.readers_left == 0 && !r.c->done) {
        r.c->done = true;
        ++done;
      }
    }
    return done;
  }

 private:
  Fabric* fabric_;
  int rank_;
  std::vector<PendingFetch> fetches_;
  struct {
    Completion* c = nullptr;
    void* dst = nullptr;
    size_t bytes = 0;
  } arrival_;
};

// Delivers the oldest send of `stream` into its oldest receive.
std::string deliver(Fabric& f, Stream stream) {
  Posted& send = f.sends[stream].items[f.sends[stream].head++];
  Posted& recv = f.recvs[stream].items[f.recvs[stream].head++];
  f.update(stream);
  const void* data = send.send_buf != nullptr ? send.send_buf : send.stash.data();
  const size_t n = send.bytes < recv.bytes ? send.bytes : recv.bytes;
  if (n > 0) std::memcpy(recv.recv_buf, data, n);
  recv.c->bytes = n;
  recv.c->error_class = send.bytes > recv.bytes ? MPI_ERR_TRUNCATE : 0;
  recv.c->done = true;
  send.c->done = true;
  if (send.bytes != recv.bytes) {
    return "message of " + std::to_string(send.bytes) + " bytes from " + f.describe(stream) +
           " met a receive of " + std::to_string(recv.bytes);
  }
  return {};
}

}  // namespace

SimOutcome simulate(const std::vector<coll::Schedule>& schedules,
                    const std::vector<coll::Binding>& bindings, const Reduction* reduction,
                    const SimRun& run) {
  const int p = int(schedules.size());
  size_t lanes = 1;
  for (const coll::Schedule& s : schedules)
    for (const coll::Step& step : s.steps()) lanes = std::max(lanes, size_t(step.lane) + 1);
  Fabric fabric(p, lanes);
  fabric.rng.seed(run.seed);
  fabric.eager = run.eager;
  std::vector<std::unique_ptr<SimChannel>> channels;
  std::vector<coll::Executor> executors(static_cast<size_t>(p));
  for (int r = 0; r < p; ++r) channels.push_back(std::make_unique<SimChannel>(&fabric, r));
  for (int r = 0; r < p; ++r) {
    executors[size_t(r)].start(schedules[size_t(r)], reduction, bindings[size_t(r)],
                               channels[size_t(r)].get());
  }
  SimOutcome out;
  std::vector<int> order(static_cast<size_t>(p));
  for (int r = 0; r < p; ++r) order[size_t(r)] = r;
  for (;;) {
    std::shuffle(order.begin(), order.end(), fabric.rng);
    unsigned progress = 0;
    for (int r : order) progress += executors[size_t(r)].advance();
    bool all_done = true;
    for (const coll::Executor& e : executors) all_done &= e.done();
    if (all_done) break;
    progress += fabric.complete_posts(false);
    if (fabric.ready.empty()) {
      if (progress > 0 || fabric.complete_posts(true) > 0) continue;
      out.deadlock = true;
      return out;
    }
    // A random part of the waiting messages arrive, in a random order.
    for (uint64_t n = 1 + fabric.rng() % (fabric.ready.size() / 2 + 1);
         n > 0 && !fabric.ready.empty(); --n) {
      const Stream pick = fabric.ready[fabric.rng() % fabric.ready.size()];
      const std::string mismatch = deliver(fabric, pick);
      if (!mismatch.empty() && out.error.empty()) out.error = mismatch;
    }
  }
  for (Stream s = 0; s < fabric.sends.size() && out.error.empty(); ++s) {
    if (!fabric.sends[s].empty())
      out.error = "a message from " + fabric.describe(s) + " was never received";
  }
  for (int r = 0; r < 2 * p && out.error.empty(); ++r) {
    const RegionPost& post = fabric.region[size_t(r)];
    if (post.readers_left != 0) {
      out.error = "rank " + std::to_string(r / 2) + "'s post " + std::to_string(r % 2) +
                  " was fetched " + std::to_string(post.readers_left) +
                  " times fewer than it said (negative: more)";
    }
  }
  for (int r = 0; r < p && out.error.empty(); ++r) {
    const Status& s = executors[size_t(r)].status();
    if (!s.ok()) out.error = "rank " + std::to_string(r) + ": " + s.message;
  }
  return out;
}

}  // namespace weft::test
