// The control protocol between weftrun and its weftd daemons: length-prefixed messages over a
// TCP connection (4-byte little-endian length of type + body, a type byte, the body), bodies
// built from integers and length-prefixed strings. The fds are non-blocking; Channel queues.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace weft::launcher {

enum class MsgType : uint8_t {
  kChallenge = 1,  // weftrun → weftd: a random nonce to hash with the job secret
  kHello,          // weftd → weftrun: node index, sha256(secret + nonce)
  kJob,            // weftrun → weftd: the JobSpec
  kStarted,        // weftd → weftrun: rank, pid (one per local rank)
  kOutput,         // weftd → weftrun: rank, stream (1 stdout, 2 stderr), bytes
  kExit,           // weftd → weftrun: rank, waitpid status
  kAbort,          // weftd → weftrun: rank, code, message (PMIx_Abort)
  kFenceUp,        // weftd → weftrun: fence number, this node's blob
  kFenceDown,      // weftrun → weftd: fence number, every node's blobs concatenated
  kKill,           // weftrun → weftd: signal for the local ranks' process group
  kDone,           // weftd → weftrun: every local rank has ended and its output is drained
  kShutdown,       // weftrun → weftd: the job is over everywhere; finalize and exit
  kError,          // weftd → weftrun: text of a failure before or while starting ranks
  kStdin,          // weftrun → weftd: bytes of weftrun's stdin for rank 0; empty: end of input
  kNodeFailed,     // weftd → weftrun: node, text: a daemon this one was to start could not start
  kLog,            // weftd → weftrun: one line for weftrun's stderr (--report-bindings)
  kSpawnCall,      // weftd → weftrun: a local rank's MPI_Comm_spawn (launcher/dynamic_calls.hpp)
  kSpawnAnswer,    // weftrun → weftd: its outcome
  kNameCall,       // weftd → weftrun: a local rank's publish, lookup or unpublish
  kNameAnswer,     // weftrun → weftd: its outcome (a lookup's values)
};

struct Message {
  MsgType type;
  std::string body;
};

class BodyWriter {
 public:
  BodyWriter& u32(uint32_t v);
  BodyWriter& i32(int32_t v) { return u32(uint32_t(v)); }
  BodyWriter& str(const std::string& s);
  BodyWriter& strings(const std::vector<std::string>& list);
  const std::string& bytes() const { return out_; }

 private:
  std::string out_;
};

// Reads what BodyWriter wrote, in the same order; a read past the end leaves ok() false.
class BodyReader {
 public:
  explicit BodyReader(const std::string& body) : body_(body) {}
  uint32_t u32();
  int32_t i32() { return int32_t(u32()); }
  std::string str();
  std::vector<std::string> strings();
  bool ok() const { return ok_; }

 private:
  const std::string& body_;
  size_t at_ = 0;
  bool ok_ = true;
};

class Channel {
 public:
  explicit Channel(int fd) : fd_(fd) {}
  int fd() const { return fd_; }
  void send(MsgType type, const std::string& body);
  // Writes queued bytes while the socket takes them; false when the connection failed.
  bool flush();
  bool wants_write() const { return !out_.empty(); }
  size_t queued() const { return out_.size(); }
  // Reads what has arrived and appends every whole message; false at end of stream or error (or
  // a frame larger than kMaxFrame). Messages read before that are still appended.
  bool receive(std::vector<Message>* out);
  // Blocks until the queue is written, at most timeout_ms; false on failure or time-out.
  bool flush_blocking(int timeout_ms);
  // Blocks until at least one message arrives, at most timeout_ms.
  bool receive_blocking(std::vector<Message>* out, int timeout_ms);

  static constexpr uint32_t kMaxFrame = 1u << 30;

 private:
  int fd_;
  std::string in_, out_;
};

}  // namespace weft::launcher
