// Accept/connect between two groups through the launcher's directory of names. The roots swap
// "cards" (every member's namespace, rank and address, hex-encoded) under names made from the
// port: a connector claims ticket k by publishing "<port>#c<k>" (publishing a taken name fails,
// so concurrent connectors get distinct tickets), the acceptor's k-th accept publishes
// "<port>#a<k>" and waits for "<port>#c<k>". Each root hands the other's card to its group; then
// the roots, now able to reach each other, agree on two context pairs free in both groups.
#include "runtime/comm/connect.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "runtime/comm/create.hpp"
#include "runtime/comm/intercomm.hpp"
#include "runtime/world.hpp"

namespace weft {
namespace {

void put_bytes(std::string* out, const void* data, size_t n) {
  static const char kHex[] = "0123456789abcdef";
  auto* p = static_cast<const uint8_t*>(data);
  for (size_t i = 0; i < n; ++i) {
    out->push_back(kHex[p[i] >> 4]);
    out->push_back(kHex[p[i] & 15]);
  }
}

void put_u32(std::string* out, uint32_t v) { put_bytes(out, &v, sizeof v); }

// Reads a card front to back; `ok` turns false on anything malformed.
struct CardReader {
  const std::string& text;
  size_t at = 0;
  bool ok = true;

  static int nibble(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
  }
  void bytes(void* out, size_t n) {
    auto* p = static_cast<uint8_t*>(out);
    for (size_t i = 0; i < n && ok; ++i, at += 2) {
      const int hi = at + 1 < text.size() ? nibble(text[at]) : -1;
      const int lo = hi >= 0 ? nibble(text[at + 1]) : -1;
      ok = lo >= 0;
      if (ok) p[i] = uint8_t(hi << 4 | lo);
    }
  }
  uint32_t u32(uint32_t limit) {
    uint32_t v = 0;
    bytes(&v, sizeof v);
    ok = ok && v <= limit;
    return ok ? v : 0;
  }
};

// The card of `local` with `root` as its root: root index, member count, then each member's
// namespace, rank and transport address.
Status make_card(const Comm& local, int root, std::string* card) {
  put_u32(card, uint32_t(root));
  put_u32(card, uint32_t(local.size));
  for (int id : local.world_ranks) {
    const auto [nspace, rank] = process_name(id);
    std::vector<uint8_t> address;
    WEFT_TRY(process_address(id, &address));
    put_u32(card, uint32_t(nspace.size()));
    put_bytes(card, nspace.data(), nspace.size());
    put_u32(card, uint32_t(rank));
    put_u32(card, uint32_t(address.size()));
    put_bytes(card, address.data(), address.size());
  }
  return Status::success();
}

// The members a card names, as process ids (foreign ones made here), and its root's index.
Status read_card(const std::string& card, groups::Members* members, int* root) {
  CardReader in{card};
  *root = int(in.u32(1u << 24));
  const uint32_t n = in.u32(1u << 24);
  for (uint32_t i = 0; i < n && in.ok; ++i) {
    std::string nspace(in.u32(4096), '\0');
    in.bytes(nspace.data(), nspace.size());
    const int rank = int(in.u32(1u << 30));
    std::vector<uint8_t> address(in.u32(1u << 20));
    in.bytes(address.data(), address.size());
    if (in.ok) members->push_back(process_id(nspace, rank, address));
  }
  if (!in.ok || in.at != card.size() || *root >= int(n) || n == 0)
    return Status::error(MPI_ERR_INTERN, "the other group's description is malformed");
  return Status::success();
}

// The root's part: swaps cards with the other root; *ticket numbers this meeting on the port.
Status swap_cards(Side side, const std::string& port, const std::string& mine, std::string* theirs,
                  int* ticket) {
  Kvs& kvs = *world().kvs;
  if (side == Side::kAccept) {
    *ticket = ++world().port_accepts[port];
    // The offer stays until the connector has surely read it (comm_meet's end).
    WEFT_TRY(kvs.publish(port + "#a" + std::to_string(*ticket), mine));
    return kvs.lookup(port + "#c" + std::to_string(*ticket), true, theirs);
  }
  for (*ticket = 1;; ++*ticket) {
    Status claimed = kvs.publish(port + "#c" + std::to_string(*ticket), mine);
    if (claimed.ok()) break;
    if (claimed.error_class != MPI_ERR_SERVICE) return claimed;
  }
  return kvs.lookup(port + "#a" + std::to_string(*ticket), true, theirs);
}

}  // namespace

std::string open_port() {
  static int opened = 0;
  const JobInfo& job = world().kvs->job();
  return "weft-port:" + job.nspace + ":" + std::to_string(job.rank) + ":" + std::to_string(++opened);
}

Status comm_meet(Comm& local, int root, Side side, const std::string& port, MPI_Comm* out,
                 const Status& root_args) {
  const bool leader = local.rank == root;
  Status at_root = root_args;
  std::string theirs;
  int ticket = 0;
  if (leader && at_root.ok()) {
    std::string mine;
    at_root = make_card(local, root, &mine);
    if (at_root.ok()) at_root = swap_cards(side, port, mine, &theirs, &ticket);
  }
  uint64_t header[3] = {leader ? uint64_t(at_root.error_class) : 0, theirs.size(), uint64_t(ticket)};
  WEFT_TRY(internal_bcast(local, header, sizeof header, root));
  if (leader && !at_root.ok()) return at_root;
  if (header[0] != 0) {
    return Status::error(int(header[0]), "the root (rank " + std::to_string(root) +
                                             ") failed to reach the other group; see its error");
  }
  theirs.resize(size_t(header[1]));
  WEFT_TRY(internal_bcast(local, theirs.data(), theirs.size(), root));
  groups::Members remote;
  int remote_root = 0;
  WEFT_TRY(read_card(theirs, &remote, &remote_root));

  // The roots' own link: rank 0 the acceptor's root, rank 1 the connector's.
  Comm link_comm;
  const int me = side == Side::kAccept ? 0 : 1;
  link_comm.size = 2;
  link_comm.rank = me;
  link_comm.world_ranks = {local.world_ranks[size_t(root)], remote[size_t(remote_root)]};
  if (me == 1) std::swap(link_comm.world_ranks[0], link_comm.world_ranks[1]);
  link_comm.context = 2 * ContextIds::kConnectPair;
  link_comm.name = "the link of the roots of MPI_Comm_accept and MPI_Comm_connect";
  LeaderLink link;
  link.peer = &link_comm;
  link.remote_leader = 1 - me;
  link.tag = int(header[2] & match_bits::kTagMask);

  uint32_t pairs[2];
  WEFT_TRY(agree_inter_pairs(local, root, link, pairs));
  // The connector's root has answered over the link, so it has read the offer.
  if (leader && side == Side::kAccept)
    (void)world().kvs->unpublish(port + "#a" + std::to_string(header[2]));
  *out = register_inter(local.world_ranks, remote, pairs, origin_of(local));
  return Status::success();
}

void close_port(const std::string& port) {
  auto& accepts = world().port_accepts;
  const auto it = accepts.find(port);
  if (it == accepts.end()) return;
  for (int k = 1; k <= it->second; ++k)
    (void)world().kvs->unpublish(port + "#c" + std::to_string(k));
  accepts.erase(it);
}

namespace {
// All `n` bytes over socket `fd`, blocking; false if it closed or failed.
bool full_io(int fd, const void* buf, size_t n, bool out) {
  auto* p = static_cast<char*>(const_cast<void*>(buf));
  while (n > 0) {
    const ssize_t k = out ? write(fd, p, n) : read(fd, p, n);
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) return false;
    p += k;
    n -= size_t(k);
  }
  return true;
}
}  // namespace

Status comm_join(int fd, MPI_Comm* out) {
  const std::string mine = open_port();
  uint32_t len = uint32_t(mine.size()), their_len = 0;
  std::string theirs;
  bool ok = full_io(fd, &len, sizeof len, true) && full_io(fd, mine.data(), mine.size(), true) &&
            full_io(fd, &their_len, sizeof their_len, false) && their_len <= 4096;
  if (ok) {
    theirs.resize(their_len);
    ok = full_io(fd, theirs.data(), theirs.size(), false);
  }
  if (!ok) {
    return Status::error(MPI_ERR_ARG, "invalid fd=" + std::to_string(fd) +
                                          ": swapping port names over it failed (" +
                                          std::strerror(errno) + ")");
  }
  Comm& self = *world().comms.find(MPI_COMM_SELF);
  const bool accept = mine < theirs;
  return comm_meet(self, 0, accept ? Side::kAccept : Side::kConnect, accept ? mine : theirs, out);
}

Status comm_disconnect(MPI_Comm handle) {
  World& w = world();
  Comm* comm = w.comms.find(handle);
  WEFT_TRY(w.transport->flush());
  WEFT_TRY(internal_barrier(*comm));
  if (handle == w.parent) w.parent = MPI_COMM_NULL;
  return comm_free(handle);
}

}  // namespace weft
