// Ping-pong and local reduction timing for weft_tune.
#include "runtime/info/tune_measure.hpp"

#include <algorithm>

namespace weft::tune {
namespace {

constexpr int kOrderTag = 1, kDataTag = 2;

// What the leader asks of the follower next; round_trips 0: stop.
struct Order {
  long long bytes = 0;
  long long round_trips = 0;
};

}  // namespace

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

void serve(int leader) {
  std::vector<char> buffer(kMaxMessage);
  for (;;) {
    Order order;
    MPI_Recv(&order, int(sizeof order), MPI_BYTE, leader, kOrderTag, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
    if (order.round_trips == 0) return;
    for (long long i = 0; i < order.round_trips; ++i) {
      MPI_Recv(buffer.data(), int(order.bytes), MPI_BYTE, leader, kDataTag, MPI_COMM_WORLD,
               MPI_STATUS_IGNORE);
      MPI_Send(buffer.data(), int(order.bytes), MPI_BYTE, leader, kDataTag, MPI_COMM_WORLD);
    }
  }
}

PingPong::PingPong(int follower) : follower_(follower), buffer_(kMaxMessage, 1) {}

PingPong::~PingPong() {
  const Order stop;
  MPI_Send(&stop, int(sizeof stop), MPI_BYTE, follower_, kOrderTag, MPI_COMM_WORLD);
}

double PingPong::run(size_t bytes, long round_trips) {
  const Order order{static_cast<long long>(bytes), round_trips};
  MPI_Send(&order, int(sizeof order), MPI_BYTE, follower_, kOrderTag, MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  for (long i = 0; i < round_trips; ++i) {
    MPI_Send(buffer_.data(), int(bytes), MPI_BYTE, follower_, kDataTag, MPI_COMM_WORLD);
    MPI_Recv(buffer_.data(), int(bytes), MPI_BYTE, follower_, kDataTag, MPI_COMM_WORLD,
             MPI_STATUS_IGNORE);
  }
  return MPI_Wtime() - start;
}

Timing PingPong::measure(size_t bytes, int repetitions, double run_seconds) {
  bytes = std::min(bytes, kMaxMessage);
  // Warm up (connections, registration caches) and find how many round trips fill a run. The
  // best of three tries counts, so a run stalled by other processes does not cut the count.
  long round_trips = 1;
  for (;;) {
    double t = run(bytes, round_trips);
    for (int i = 0; i < 2; ++i) t = std::min(t, run(bytes, round_trips));
    if (t >= run_seconds || round_trips >= (1L << 20)) break;
    round_trips *= 2;
  }
  return measure_runs(bytes, repetitions, round_trips);
}

Timing PingPong::measure_runs(size_t bytes, int repetitions, long round_trips) {
  bytes = std::min(bytes, kMaxMessage);
  run(bytes, round_trips);
  std::vector<double> half;
  for (int r = 0; r < repetitions; ++r) half.push_back(run(bytes, round_trips) / round_trips / 2);
  Timing timing;
  timing.bytes = bytes;
  timing.min = *std::min_element(half.begin(), half.end());
  timing.median = median(half);
  timing.repetitions = repetitions;
  timing.round_trips = round_trips;
  return timing;
}

double reduce_seconds_per_byte(MPI_Datatype type, size_t bytes, int repetitions) {
  const bool is_double = type == MPI_DOUBLE;
  const size_t elem = is_double ? sizeof(double) : sizeof(float);
  const int count = int(bytes / elem);
  // Small inputs, so the running sums stay normal numbers however often they are added.
  std::vector<double> in_d, inout_d;
  std::vector<float> in_f, inout_f;
  void* in = nullptr;
  void* inout = nullptr;
  if (is_double) {
    in_d.assign(size_t(count), 1e-6);
    inout_d.assign(size_t(count), 1.0);
    in = in_d.data();
    inout = inout_d.data();
  } else {
    in_f.assign(size_t(count), 1e-6f);
    inout_f.assign(size_t(count), 1.0f);
    in = in_f.data();
    inout = inout_f.data();
  }
  for (int i = 0; i < 3; ++i) MPI_Reduce_local(in, inout, count, type, MPI_SUM);
  std::vector<double> times;
  for (int r = 0; r < repetitions; ++r) {
    const double start = MPI_Wtime();
    MPI_Reduce_local(in, inout, count, type, MPI_SUM);
    times.push_back(MPI_Wtime() - start);
  }
  return *std::min_element(times.begin(), times.end()) / double(size_t(count) * elem);
}

RegionTimes region_seconds(MPI_Comm pair, int repetitions) {
  int rank = 0;
  MPI_Comm_rank(pair, &rank);
  // How many broadcasts took the region: the MPI_T counter of the shm algorithm's calls.
  int provided = 0, index = -1, count = 0;
  MPI_T_init_thread(MPI_THREAD_SINGLE, &provided);
  MPI_T_pvar_session session;
  MPI_T_pvar_handle counter = MPI_T_PVAR_HANDLE_NULL;
  MPI_T_pvar_session_create(&session);
  if (MPI_T_pvar_get_index("coll_bcast_shm_calls", MPI_T_PVAR_CLASS_COUNTER, &index) ==
      MPI_SUCCESS)
    MPI_T_pvar_handle_alloc(session, index, nullptr, &counter, &count);
  constexpr long kCalls = 2000;
  constexpr size_t kSmall = 8, kLarge = 16 * 1024;  // a line's post; a slot's, within its room
  std::vector<char> data(kLarge);
  MPI_Barrier(pair);  // the first blocking call claims the region
  // The best of `repetitions` runs of kCalls broadcasts of `bytes`, in seconds per broadcast.
  auto best_run = [&](size_t bytes) {
    double best = 0;
    for (int r = 0; r < repetitions; ++r) {
      MPI_Barrier(pair);
      const double start = MPI_Wtime();
      for (long k = 0; k < kCalls; ++k)
        MPI_Bcast(data.data(), int(bytes), MPI_CHAR, int(k % 2), pair);
      const double seconds = (MPI_Wtime() - start) / kCalls;
      if (r == 0 || seconds < best) best = seconds;
    }
    return best;
  };
  const double small = best_run(kSmall), large = best_run(kLarge);
  unsigned long long through_region = 0;
  if (counter != MPI_T_PVAR_HANDLE_NULL) {
    MPI_T_pvar_read(session, counter, &through_region);
    MPI_T_pvar_handle_free(session, &counter);
  }
  MPI_T_pvar_session_free(&session);
  MPI_T_finalize();
  RegionTimes times;
  if (rank != 0 || through_region < 2ull * kCalls * (unsigned long long)(repetitions)) return times;
  times.handover = small;
  // A shm broadcast copies its bytes twice: into the root's slot, and out of it (bcast_shm.cpp).
  times.per_byte = std::max(large - small, 0.0) / double(2 * (kLarge - kSmall));
  return times;
}

}  // namespace weft::tune
