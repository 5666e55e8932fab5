// The trace file: Chrome's trace-event format (JSON object form: "traceEvents" of complete "X"
// events, one process per rank and one thread id per thread, "M" metadata events naming them,
// and "otherData" with the event budget and each rank's dropped events), which Perfetto
// (ui.perfetto.dev) and chrome://tracing load.
#include "profile/trace.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

#include "profile/collect.hpp"
#include "profile/recorder.hpp"

namespace weft::profile {
namespace {

constexpr int kTag = 0x7eef;
constexpr size_t kChunkBytes = size_t(1) << 26;  // a message's share of a rank's events

std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (unsigned char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += char(c);
    } else if (c < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
      out += escaped;
    } else {
      out += char(c);
    }
  }
  return out + "\"";
}

// This rank's kept events, converted to nanoseconds since its start of the run.
std::vector<WireEvent> own_events(Tick start, double ns_per_tick) {
  const size_t kept = std::min<uint64_t>(g_profile.trace_claimed.load(), g_profile.trace_events.size());
  std::vector<WireEvent> out(kept);
  for (size_t i = 0; i < kept; ++i) {
    const TraceEvent& e = g_profile.trace_events[i];
    out[i] = {uint64_t(double(e.start - std::min(e.start, start)) * ns_per_tick),
              uint64_t(double(e.end - e.start) * ns_per_tick), e.bytes, e.function, e.thread, e.peer};
  }
  return out;
}

uint64_t own_dropped() {
  const uint64_t claimed = g_profile.trace_claimed.load();
  return claimed - std::min<uint64_t>(claimed, g_profile.trace_events.size());
}

void write_rank(std::FILE* out, int rank, const std::string& host,
                const std::vector<WireEvent>& events, bool* first) {
  std::fprintf(out, "%s\n{\"name\":\"process_name\",\"ph\":\"M\",\"pid\":%d,\"tid\":0,"
               "\"args\":{\"name\":%s}},\n{\"name\":\"process_sort_index\",\"ph\":\"M\","
               "\"pid\":%d,\"tid\":0,\"args\":{\"sort_index\":%d}}",
               *first ? "" : ",", rank, json_string("rank " + std::to_string(rank) + " (" + host + ")").c_str(),
               rank, rank);
  *first = false;
  for (const WireEvent& e : events) {
    const char* name = e.function < kFunctionCount ? kFunctionNames[e.function] : "?";
    std::fprintf(out, ",\n{\"name\":\"%s\",\"cat\":\"MPI\",\"ph\":\"X\",\"pid\":%d,\"tid\":%u,"
                 "\"ts\":%.3f,\"dur\":%.3f",
                 name, rank, unsigned(e.thread), double(e.start_ns) / 1e3, double(e.duration_ns) / 1e3);
    if (e.bytes > 0 || e.peer != kNoPeer) {
      std::fprintf(out, ",\"args\":{\"bytes\":%llu", (unsigned long long)e.bytes);
      if (e.peer != kNoPeer) std::fprintf(out, ",\"to\":%d", e.peer);
      std::fputc('}', out);
    }
    std::fputc('}', out);
  }
}

void send_bytes(const void* data, size_t bytes, MPI_Comm comm) {
  const char* at = static_cast<const char*>(data);
  for (size_t sent = 0; sent < bytes; sent += kChunkBytes)
    PMPI_Send(at + sent, int(std::min(kChunkBytes, bytes - sent)), MPI_BYTE, 0, kTag, comm);
}

void recv_bytes(void* data, size_t bytes, int from, MPI_Comm comm) {
  char* at = static_cast<char*>(data);
  for (size_t got = 0; got < bytes; got += kChunkBytes)
    PMPI_Recv(at + got, int(std::min(kChunkBytes, bytes - got)), MPI_BYTE, from, kTag, comm,
              MPI_STATUS_IGNORE);
}

}  // namespace

bool write_trace(MPI_Comm comm, const std::string& path, Tick start, double ns_per_tick,
                 std::string* error) {
  int rank = 0, size = 1;
  PMPI_Comm_rank(comm, &rank);
  PMPI_Comm_size(comm, &size);
  const std::vector<WireEvent> mine = own_events(start, ns_per_tick);
  if (rank != 0) {
    int wanted = 0;  // rank 0 says when to send, and whether it has a file to write to
    PMPI_Recv(&wanted, 1, MPI_INT, 0, kTag, comm, MPI_STATUS_IGNORE);
    if (!wanted) return true;
    const std::string host = host_name();
    const uint64_t header[3] = {mine.size(), own_dropped(), host.size()};
    PMPI_Send(header, 3, MPI_UINT64_T, 0, kTag, comm);
    send_bytes(host.data(), host.size(), comm);
    send_bytes(mine.data(), mine.size() * sizeof(WireEvent), comm);
    return true;
  }
  std::FILE* out = std::fopen(path.c_str(), "w");
  if (out == nullptr) *error = "cannot write " + path + ": " + std::strerror(errno);
  const int wanted = out != nullptr;
  std::vector<uint64_t> dropped(size_t(size), 0);
  dropped[0] = own_dropped();
  bool first = true;
  if (out) {
    std::fputs("{\"traceEvents\":[", out);
    write_rank(out, 0, host_name(), mine, &first);
  }
  for (int r = 1; r < size; ++r) {
    PMPI_Send(&wanted, 1, MPI_INT, r, kTag, comm);
    if (!wanted) continue;
    uint64_t header[3];
    PMPI_Recv(header, 3, MPI_UINT64_T, r, kTag, comm, MPI_STATUS_IGNORE);
    std::string host(header[2], '\0');
    recv_bytes(host.data(), host.size(), r, comm);
    std::vector<WireEvent> events(header[0]);
    recv_bytes(events.data(), events.size() * sizeof(WireEvent), r, comm);
    dropped[size_t(r)] = header[1];
    write_rank(out, r, host, events, &first);
  }
  if (!out) return false;
  std::fprintf(out, "\n],\n\"displayTimeUnit\":\"ns\",\n\"otherData\":{\"generator\":\"weft profile\","
               "\"ranks\":%d,\"event_budget_per_rank\":%zu,\"dropped_events\":[",
               size, g_profile.trace_events.size());
  for (int r = 0; r < size; ++r) std::fprintf(out, "%s%llu", r ? "," : "", (unsigned long long)dropped[size_t(r)]);
  std::fputs("]}}\n", out);
  const bool written = std::ferror(out) == 0;
  if (std::fclose(out) != 0 || !written) {
    *error = "cannot write " + path + ": " + std::strerror(errno);
    return false;
  }
  return true;
}

}  // namespace weft::profile
