// One rank's profile as it is sent to rank 0 at MPI_Finalize: nanoseconds and names, no ticks or
// addresses (those mean nothing on another rank). Pure; encoded as bytes for the gather.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace weft::profile {

struct FunctionTotal {
  std::string name;  // "MPI_Send"
  uint64_t calls = 0;
  uint64_t ns = 0;
  uint64_t max_ns = 0;  // longest single call
  uint64_t bytes = 0;
};

// A call site as the same program on any rank names it: the module (executable or shared
// library) and the offset of the return address in it, plus what dladdr knows ("main+0x54").
struct CallSite {
  std::string function;  // the MPI function called there
  std::string module;
  uint64_t offset = 0;  // return address - module's load address
  std::string symbol;   // enclosing exported symbol and offset, or empty
  uint64_t calls = 0;
  uint64_t ns = 0;
};

struct PeerTraffic {
  int peer = 0;  // world rank
  uint64_t bytes = 0;
  uint64_t messages = 0;
};

struct RankProfile {
  int rank = 0;
  std::string host;
  uint64_t run_ns = 0;  // MPI_Init to MPI_Finalize
  uint64_t mpi_ns = 0;  // of which inside MPI calls
  std::vector<FunctionTotal> functions;  // the functions called, any order
  std::vector<CallSite> sites;           // this rank's busiest call sites
  uint64_t unplaced_site_calls = 0;      // calls at sites the rank had no room to tell apart
  std::vector<PeerTraffic> sent;         // point-to-point sends by destination (non-zero only)
  PeerTraffic sent_outside_world;        // to processes outside MPI_COMM_WORLD (peer unused)
};

std::string encode(const RankProfile& profile);
// False if `bytes` is not a whole encoded profile.
bool decode(const std::string& bytes, RankProfile* out);

}  // namespace weft::profile
