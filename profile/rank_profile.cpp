// Encoding of a rank's profile for the gather to rank 0: 64-bit integers in the machine's byte
// order (every rank of a job runs the same build) and strings prefixed by their length.
#include "profile/rank_profile.hpp"

#include <cstring>

namespace weft::profile {
namespace {

// Both directions walk the fields with one function (`fields`), so they cannot disagree.
struct Writer {
  std::string out;
  void u64(uint64_t& v) { out.append(reinterpret_cast<const char*>(&v), sizeof v); }
  void str(std::string& s) {
    uint64_t n = s.size();
    u64(n);
    out += s;
  }
  template <typename T, typename Each>
  void items(std::vector<T>& list, size_t, Each each) {
    uint64_t n = list.size();
    u64(n);
    for (T& item : list) each(item);
  }
};

struct Reader {
  const std::string& in;
  size_t at = 0;
  bool ok = true;
  void u64(uint64_t& v) {
    v = 0;
    if (in.size() - at < sizeof v) {
      ok = false;
      return;
    }
    std::memcpy(&v, in.data() + at, sizeof v);
    at += sizeof v;
  }
  void str(std::string& s) {
    uint64_t n = 0;
    u64(n);
    if (!ok || in.size() - at < n) {
      ok = false;
      return;
    }
    s = in.substr(at, n);
    at += n;
  }
  // A count of items each at least `min_bytes` long: more than the rest could hold is corrupt.
  template <typename T, typename Each>
  void items(std::vector<T>& list, size_t min_bytes, Each each) {
    uint64_t n = 0;
    u64(n);
    if (!ok || n > (in.size() - at) / min_bytes) {
      ok = false;
      return;
    }
    list.resize(n);
    for (T& item : list) each(item);
  }
};

template <typename IO>
void int_field(IO& io, int& v) {
  uint64_t wide = uint64_t(int64_t(v));
  io.u64(wide);
  v = int(int64_t(wide));
}

template <typename IO>
void fields(IO& io, RankProfile& p) {
  int_field(io, p.rank);
  io.str(p.host);
  io.u64(p.run_ns);
  io.u64(p.mpi_ns);
  io.items(p.functions, 5 * 8, [&](FunctionTotal& f) {
    io.str(f.name);
    for (uint64_t* v : {&f.calls, &f.ns, &f.max_ns, &f.bytes}) io.u64(*v);
  });
  io.items(p.sites, 6 * 8, [&](CallSite& s) {
    io.str(s.function);
    io.str(s.module);
    io.u64(s.offset);
    io.str(s.symbol);
    io.u64(s.calls);
    io.u64(s.ns);
  });
  io.u64(p.unplaced_site_calls);
  io.items(p.sent, 3 * 8, [&](PeerTraffic& t) {
    int_field(io, t.peer);
    io.u64(t.bytes);
    io.u64(t.messages);
  });
  io.u64(p.sent_outside_world.bytes);
  io.u64(p.sent_outside_world.messages);
}

}  // namespace

std::string encode(const RankProfile& profile) {
  Writer w;
  RankProfile copy = profile;
  fields(w, copy);
  return w.out;
}

bool decode(const std::string& bytes, RankProfile* out) {
  Reader r{bytes};
  RankProfile p;
  fields(r, p);
  if (!r.ok || r.at != bytes.size()) return false;
  *out = std::move(p);
  return true;
}

}  // namespace weft::profile
