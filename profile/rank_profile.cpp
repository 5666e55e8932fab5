// Encoding of a rank's profile for the gather to rank 0: 64-bit integers in the machine's byte
// order (every rank of a job runs the same build) and strings prefixed by their length.
#include "profile/rank_profile.hpp"

#include <cstring>

namespace weft::profile {
namespace {

struct Writer {
  std::string out;
  void u64(uint64_t v) { out.append(reinterpret_cast<const char*>(&v), sizeof v); }
  void str(const std::string& s) {
    u64(s.size());
    out += s;
  }
};

struct Reader {
  const std::string& in;
  size_t at = 0;
  bool ok = true;
  uint64_t u64() {
    uint64_t v = 0;
    if (in.size() - at < sizeof v) {
      ok = false;
      return 0;
    }
    std::memcpy(&v, in.data() + at, sizeof v);
    at += sizeof v;
    return v;
  }
  std::string str() {
    const uint64_t n = u64();
    if (!ok || in.size() - at < n) {
      ok = false;
      return {};
    }
    at += n;
    return in.substr(at - n, n);
  }
  // A count of items each at least `min_bytes` long: more than the rest could hold is corrupt.
  uint64_t count(size_t min_bytes) {
    const uint64_t n = u64();
    if (n > (in.size() - at) / min_bytes) ok = false;
    return ok ? n : 0;
  }
};

}  // namespace

std::string encode(const RankProfile& p) {
  Writer w;
  w.u64(uint64_t(p.rank));
  w.str(p.host);
  w.u64(p.run_ns);
  w.u64(p.mpi_ns);
  w.u64(p.functions.size());
  for (const FunctionTotal& f : p.functions) {
    w.str(f.name);
    for (uint64_t v : {f.calls, f.ns, f.max_ns, f.bytes}) w.u64(v);
  }
  w.u64(p.sites.size());
  for (const CallSite& s : p.sites) {
    for (const std::string* text : {&s.function, &s.module}) w.str(*text);
    w.u64(s.offset);
    w.str(s.symbol);
    w.u64(s.calls);
    w.u64(s.ns);
  }
  w.u64(p.unplaced_site_calls);
  w.u64(p.sent.size());
  for (const PeerTraffic& t : p.sent) {
    w.u64(uint64_t(t.peer));
    w.u64(t.bytes);
    w.u64(t.messages);
  }
  w.u64(p.sent_outside_world.bytes);
  w.u64(p.sent_outside_world.messages);
  return w.out;
}

bool decode(const std::string& bytes, RankProfile* out) {
  Reader r{bytes};
  RankProfile p;
  p.rank = int(r.u64());
  p.host = r.str();
  p.run_ns = r.u64();
  p.mpi_ns = r.u64();
  for (uint64_t n = r.count(5 * 8), i = 0; i < n; ++i) {
    FunctionTotal f;
    f.name = r.str();
    f.calls = r.u64();
    f.ns = r.u64();
    f.max_ns = r.u64();
    f.bytes = r.u64();
    p.functions.push_back(std::move(f));
  }
  for (uint64_t n = r.count(6 * 8), i = 0; i < n; ++i) {
    CallSite s;
    s.function = r.str();
    s.module = r.str();
    s.offset = r.u64();
    s.symbol = r.str();
    s.calls = r.u64();
    s.ns = r.u64();
    p.sites.push_back(std::move(s));
  }
  p.unplaced_site_calls = r.u64();
  for (uint64_t n = r.count(3 * 8), i = 0; i < n; ++i) {
    PeerTraffic t;
    t.peer = int(r.u64());
    t.bytes = r.u64();
    t.messages = r.u64();
    p.sent.push_back(t);
  }
  p.sent_outside_world.bytes = r.u64();
  p.sent_outside_world.messages = r.u64();
  if (!r.ok || r.at != bytes.size()) return false;
  *out = std::move(p);
  return true;
}

}  // namespace weft::profile
