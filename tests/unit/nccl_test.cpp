// The NCCL path without a GPU: the loader's failures (no file, a library that is not NCCL), the
// MPI-to-NCCL type and op mapping, forcing with WEFT_<COLL>_ALGORITHM=nccl, which calls NCCL can
// take, their NCCL form over a fake device memory, and the calls issued to a fake NCCL table.
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "coll/nccl_call.hpp"
#include "coll/nccl_path.hpp"
#include "coll/regular_call.hpp"
#include "coll/select.hpp"
#include "gpu/memory.hpp"
#include "inert_device_memory.hpp"
#include "runtime/datatype/datatype.hpp"
#include "runtime/op/op.hpp"

using namespace weft;
using namespace weft::coll;

namespace {

// Device memory is whatever lies in `device`; the rest is host memory.
class FakeDeviceMemory final : public test::InertDeviceMemory {
 public:
  std::vector<unsigned char> device = std::vector<unsigned char>(4096);
  gpu::MemoryKind kind_of(const void* p) override {
    const auto* c = static_cast<const unsigned char*>(p);
    return c >= device.data() && c < device.data() + device.size() ? gpu::MemoryKind::kDevice
                                                                   : gpu::MemoryKind::kHost;
  }
};

// Installs a fake device memory for one test.
struct OnFakeDevice {
  FakeDeviceMemory memory;
  OnFakeDevice() { gpu::set_device_memory(&memory); }
  ~OnFakeDevice() { gpu::set_device_memory(nullptr); }
  unsigned char* at(size_t offset) { return memory.device.data() + offset; }
};

CallSpec reduction_spec(CollKind kind, MPI_Op op, MPI_Datatype type, size_t type_size,
                        size_t count) {
  CallSpec spec;
  spec.args.kind = kind;
  spec.args.size = 4;
  OpTable ops;
  REQUIRE(ops.bind(op, type, type_size, &spec.reduction).ok());
  spec.args.elem_size = type_size;
  spec.args.bytes = count * type_size;
  return spec;
}

// What the fake NCCL table was asked to do, in order.
struct Issued {
  std::string what;
  const void* send;
  const void* recv;
  size_t count;
  int type, op_or_peer;
};
std::vector<Issued> g_issued;
gpu::NcclResult g_send_result = gpu::kNcclSuccess;

gpu::NcclLibrary fake_nccl() {
  gpu::NcclLibrary n;
  n.all_reduce = [](const void* s, void* r, size_t c, int t, int op, gpu::NcclComm, void*) {
    g_issued.push_back({"allreduce", s, r, c, t, op});
    return gpu::kNcclSuccess;
  };
  n.reduce_scatter = [](const void* s, void* r, size_t c, int t, int op, gpu::NcclComm, void*) {
    g_issued.push_back({"reduce_scatter", s, r, c, t, op});
    return gpu::kNcclSuccess;
  };
  n.broadcast = [](const void* s, void* r, size_t c, int t, int root, gpu::NcclComm, void*) {
    g_issued.push_back({"bcast", s, r, c, t, root});
    return gpu::kNcclSuccess;
  };
  n.group_start = [] {
    g_issued.push_back({"group_start", nullptr, nullptr, 0, 0, 0});
    return gpu::kNcclSuccess;
  };
  n.group_end = [] {
    g_issued.push_back({"group_end", nullptr, nullptr, 0, 0, 0});
    return gpu::kNcclSuccess;
  };
  n.send = [](const void* b, size_t c, int t, int peer, gpu::NcclComm, void*) {
    g_issued.push_back({"send", b, nullptr, c, t, peer});
    return g_send_result;
  };
  n.recv = [](void* b, size_t c, int t, int peer, gpu::NcclComm, void*) {
    g_issued.push_back({"recv", nullptr, b, c, t, peer});
    return gpu::kNcclSuccess;
  };
  return n;
}

}  // namespace

TEST_CASE("nccl loader: a missing file and a library without NCCL's symbols say why") {
  gpu::NcclLibrary n;
  std::string why;
  CHECK_FALSE(gpu::load_nccl_file("/nonexistent/libnccl.so.2", &n, &why));
  CHECK(why.find("cannot load /nonexistent/libnccl.so.2") != std::string::npos);
  why.clear();
  CHECK_FALSE(gpu::load_nccl_file("libm.so.6", &n, &why));
  CHECK(why == "libm.so.6 is not NCCL: it lacks ncclGetVersion");
  CHECK(n.all_reduce == nullptr);  // nothing half-loaded
}

TEST_CASE("nccl loader: the CUDA toolkit's NCCL loads with its version, where it is installed") {
  struct stat st;
  const char* toolkit = "/usr/local/cuda/lib64/libnccl.so.2";
  if (stat(toolkit, &st) != 0) return;  // no toolkit NCCL on this machine
  gpu::NcclLibrary n;
  std::string why;
  REQUIRE(gpu::load_nccl_file(toolkit, &n, &why));
  CHECK(why.empty());
  CHECK(n.version >= 20000);  // NCCL 2
  CHECK(n.comm_init_rank != nullptr);
  CHECK(n.group_end != nullptr);
  CHECK(gpu::nccl_error_text(n, gpu::kNcclInvalidUsage).find("(5)") != std::string::npos);
}

TEST_CASE("nccl version codes read as NCCL_VERSION builds them, before and after 2.9") {
  CHECK(gpu::nccl_version_text(22809) == "2.28.9");
  CHECK(gpu::nccl_version_text(21903) == "2.19.3");
  CHECK(gpu::nccl_version_text(2708) == "2.7.8");
}

TEST_CASE("nccl types: integers by size and sign, IEEE floats; none for what NCCL lacks") {
  gpu::NcclDataType t = -1;
  REQUIRE(gpu::nccl_datatype_of(MPI_INT, sizeof(int), &t));
  CHECK(t == gpu::kNcclInt32);
  REQUIRE(gpu::nccl_datatype_of(MPI_UNSIGNED_LONG, sizeof(unsigned long), &t));
  CHECK(t == (sizeof(unsigned long) == 8 ? gpu::kNcclUint64 : gpu::kNcclUint32));
  REQUIRE(gpu::nccl_datatype_of(MPI_INT8_T, 1, &t));
  CHECK(t == gpu::kNcclInt8);
  REQUIRE(gpu::nccl_datatype_of(MPI_UNSIGNED_CHAR, 1, &t));
  CHECK(t == gpu::kNcclUint8);
  REQUIRE(gpu::nccl_datatype_of(MPI_INTEGER8, 8, &t));
  CHECK(t == gpu::kNcclInt64);
  REQUIRE(gpu::nccl_datatype_of(MPI_FLOAT, 4, &t));
  CHECK(t == gpu::kNcclFloat32);
  REQUIRE(gpu::nccl_datatype_of(MPI_DOUBLE_PRECISION, 8, &t));
  CHECK(t == gpu::kNcclFloat64);
  CHECK_FALSE(gpu::nccl_datatype_of(MPI_SHORT, sizeof(short), &t));  // no 16-bit integers
  CHECK_FALSE(gpu::nccl_datatype_of(MPI_INT16_T, 2, &t));
  CHECK_FALSE(gpu::nccl_datatype_of(MPI_LONG_DOUBLE, sizeof(long double), &t));
  CHECK_FALSE(gpu::nccl_datatype_of(MPI_C_FLOAT_COMPLEX, 8, &t));
  CHECK_FALSE(gpu::nccl_datatype_of(MPI_2INT, 8, &t));
  CHECK_FALSE(gpu::nccl_datatype_of(MPI_C_BOOL, 1, &t));
  CHECK(gpu::nccl_type_size(gpu::kNcclBfloat16) == 2);
  CHECK(gpu::nccl_type_size(gpu::kNcclUint64) == 8);
}

TEST_CASE("nccl ops: SUM, PROD, MAX, MIN only") {
  gpu::NcclRedOp op = -1;
  REQUIRE(gpu::nccl_op_of(MPI_SUM, &op));
  CHECK(op == gpu::kNcclSum);
  REQUIRE(gpu::nccl_op_of(MPI_PROD, &op));
  CHECK(op == gpu::kNcclProd);
  REQUIRE(gpu::nccl_op_of(MPI_MAX, &op));
  CHECK(op == gpu::kNcclMax);
  REQUIRE(gpu::nccl_op_of(MPI_MIN, &op));
  CHECK(op == gpu::kNcclMin);
  for (MPI_Op other : {MPI_BAND, MPI_LOR, MPI_MAXLOC, MPI_REPLACE, MPI_OP_NULL})
    CHECK_FALSE(gpu::nccl_op_of(other, &op));
}

TEST_CASE(
    "WEFT_<COLL>_ALGORITHM=nccl: forced for the collectives NCCL runs, the model's pick kept") {
  Selector s;
  REQUIRE(s.force(CollKind::kAllreduce, "nccl").ok());
  CHECK(s.nccl_forced(CollKind::kAllreduce));
  CHECK(s.forced(CollKind::kAllreduce) == nullptr);  // host buffers: the model chooses
  RegularCall call;
  call.kind = CollKind::kAllreduce;
  call.size = 8;
  call.bytes = 1 << 20;
  const CollArgs args = regular_args(call);
  Selector unforced;
  CHECK(s.choose(args) == unforced.choose(args));
  REQUIRE(s.force(CollKind::kAllreduce, "ring").ok());  // another name replaces it
  CHECK_FALSE(s.nccl_forced(CollKind::kAllreduce));
  REQUIRE(s.force(CollKind::kAlltoall, "nccl").ok());
  REQUIRE(s.force(CollKind::kAlltoall, "auto").ok());
  CHECK_FALSE(s.nccl_forced(CollKind::kAlltoall));

  const Status scan = s.force(CollKind::kScan, "nccl");
  CHECK(scan.error_class == MPI_ERR_ARG);
  CHECK(scan.message.find("'nccl' is not a scan algorithm") != std::string::npos);
  CHECK(scan.message.find("nccl,") == std::string::npos);
  const Status bogus = s.force(CollKind::kBcast, "bogus");
  CHECK(bogus.message.find(", nccl, auto)") != std::string::npos);
  for (CollKind k :
       {CollKind::kBcast, CollKind::kReduce, CollKind::kAllgather, CollKind::kReduceScatter})
    CHECK(s.force(k, "nccl").ok());
  for (CollKind k : {CollKind::kBarrier, CollKind::kGather, CollKind::kScatter, CollKind::kExscan,
                     CollKind::kNeighborAlltoall})
    CHECK_FALSE(s.force(k, "nccl").ok());
}

TEST_CASE("nccl candidates: calls every rank sees alike that NCCL can run, with the reason") {
  size_t bytes = 0;
  std::string why;
  CallSpec sum = reduction_spec(CollKind::kAllreduce, MPI_SUM, MPI_FLOAT, 4, 1000);
  CHECK(nccl_candidate(sum, &bytes, &why));
  CHECK(bytes == 4000);
  const struct {
    CollKind kind;
    MPI_Op op;
    MPI_Datatype type;
    size_t type_size, count;
    const char* why;
  } refused[] = {{CollKind::kAllreduce, MPI_BAND, MPI_INT, 4, 1000, "NCCL has no MPI_BAND"},
                 {CollKind::kReduce, MPI_SUM, MPI_SHORT, 2, 1000, "NCCL has no such datatype"},
                 {CollKind::kScan, MPI_SUM, MPI_INT, 4, 10, "NCCL has no scan"},
                 {CollKind::kAllreduce, MPI_SUM, MPI_INT, 4, 0, "no data"}};
  for (const auto& r : refused) {
    CHECK_FALSE(
        nccl_candidate(reduction_spec(r.kind, r.op, r.type, r.type_size, r.count), &bytes, &why));
    CHECK(why == r.why);
  }

  CallSpec gather;  // allgather of 64 bytes from each of 4 ranks: measured by all 256
  gather.args.kind = CollKind::kAllgather;
  gather.args.blocks = packed_blocks(4, 64);
  CHECK(nccl_candidate(gather, &bytes, &why));
  CHECK(bytes == 256);
  gather.args.uniform = false;  // allgatherv
  CHECK_FALSE(nccl_candidate(gather, &bytes, &why));
  CHECK(why.find("v-variant") != std::string::npos);
  CallSpec inter = sum;
  inter.args.remote_size = 2;
  CHECK_FALSE(nccl_candidate(inter, &bytes, &why));
}

TEST_CASE("nccl form: device buffers only, in-place forms as NCCL spells them") {
  OnFakeDevice gpu;
  std::string why;
  NcclCall c;
  CallSpec sum = reduction_spec(CollKind::kAllreduce, MPI_SUM, MPI_INT, 4, 100);
  sum.binding.send = gpu.at(0);
  sum.binding.recv = gpu.at(1024);
  REQUIRE(nccl_form(sum, &c, &why));
  CHECK(c.count == 100);
  CHECK(c.type == gpu::kNcclInt32);
  CHECK(c.op == gpu::kNcclSum);
  CHECK(c.send == gpu.at(0));
  CHECK(c.recv == gpu.at(1024));
  std::vector<int> host(100);
  sum.binding.recv = host.data();  // a host output: not for NCCL
  CHECK_FALSE(nccl_form(sum, &c, &why));
  CHECK(why == "a buffer in host memory");

  CallSpec reduce = reduction_spec(CollKind::kReduce, MPI_MAX, MPI_DOUBLE, 8, 10);
  reduce.args.rank = 1;
  reduce.args.root = 0;
  reduce.binding.send = gpu.at(0);
  reduce.binding.recv = host.data();  // not significant off the root
  REQUIRE(nccl_form(reduce, &c, &why));
  CHECK(c.recv == nullptr);
  CHECK(c.op == gpu::kNcclMax);

  CallSpec gather;  // in place on rank 2 of 4: the input is its own block of the output
  gather.args.kind = CollKind::kAllgather;
  gather.args.rank = 2;
  gather.args.in_place = true;
  gather.args.blocks = packed_blocks(4, 64);
  gather.binding.recv = gpu.at(512);
  gather.binding.send = gpu.at(512 + 2 * 64);
  REQUIRE(nccl_form(gather, &c, &why));
  CHECK(c.count == 64);
  CHECK(c.type == gpu::kNcclUint8);
  CHECK(c.send == gpu.at(512 + 128));
  gather.args.blocks[3].offset += 8;  // a gap before the last block
  CHECK_FALSE(nccl_form(gather, &c, &why));

  CallSpec scatter = reduction_spec(CollKind::kReduceScatter, MPI_SUM, MPI_FLOAT, 4, 4 * 16);
  scatter.args.rank = 2;
  scatter.args.in_place = true;
  scatter.args.blocks = packed_blocks(4, 64);
  scatter.binding.send = scatter.binding.recv = gpu.at(0);
  REQUIRE(nccl_form(scatter, &c, &why));
  CHECK(c.count == 16);
  CHECK(c.recv == gpu.at(128));  // NCCL leaves rank 2's result in its block
  CHECK(c.result_to == gpu.at(0));
  CHECK(c.result_bytes == 64);

  CallSpec alltoall;  // in place: sent from a copy of the whole buffer
  alltoall.args.kind = CollKind::kAlltoall;
  alltoall.args.recv_blocks = alltoall.args.send_blocks = packed_blocks(4, 32);
  alltoall.stage_recv_bytes = 128;
  alltoall.binding.recv = gpu.at(256);
  REQUIRE(nccl_form(alltoall, &c, &why));
  CHECK(c.stage_bytes == 128);
  CHECK(c.count == 32);

  const Datatype* t = nullptr;
  REQUIRE(find_datatype(MPI_INT, "datatype", &t).ok());
  sum.binding.recv = gpu.at(1024);
  sum.send_typed.add(0, 100, t->share());  // a side Weft packs
  CHECK_FALSE(nccl_form(sum, &c, &why));
  CHECK(why == "a non-contiguous datatype");
}

TEST_CASE("nccl enqueue: the call's NCCL form reaches NCCL; all-to-all as one group") {
  const gpu::NcclLibrary nccl = fake_nccl();
  unsigned char send[96], recv[96];
  NcclCall c;
  c.kind = CollKind::kAllreduce;
  c.type = gpu::kNcclFloat64;
  c.op = gpu::kNcclMin;
  c.count = 12;
  c.send = send;
  c.recv = recv;
  g_issued.clear();
  CHECK(enqueue(nccl, nullptr, c, 3, nullptr) == gpu::kNcclSuccess);
  REQUIRE(g_issued.size() == 1);
  CHECK(g_issued[0].what == "allreduce");
  CHECK(g_issued[0].count == 12);
  CHECK(g_issued[0].type == gpu::kNcclFloat64);
  CHECK(g_issued[0].op_or_peer == gpu::kNcclMin);

  c.kind = CollKind::kAlltoall;
  c.type = gpu::kNcclUint8;
  c.count = 32;
  g_issued.clear();
  CHECK(enqueue(nccl, nullptr, c, 3, nullptr) == gpu::kNcclSuccess);
  REQUIRE(g_issued.size() == 8);
  CHECK(g_issued.front().what == "group_start");
  CHECK(g_issued.back().what == "group_end");
  for (int peer = 0; peer < 3; ++peer) {
    const Issued& s = g_issued[size_t(1 + 2 * peer)];
    const Issued& r = g_issued[size_t(2 + 2 * peer)];
    CHECK(s.what == "send");
    CHECK(s.send == send + 32 * peer);
    CHECK(s.op_or_peer == peer);
    CHECK(r.what == "recv");
    CHECK(r.recv == recv + 32 * peer);
    CHECK(r.count == 32);
  }

  g_send_result = gpu::kNcclInvalidUsage;  // a failed send still ends the group
  g_issued.clear();
  CHECK(enqueue(nccl, nullptr, c, 3, nullptr) == gpu::kNcclInvalidUsage);
  CHECK(g_issued.back().what == "group_end");
  g_send_result = gpu::kNcclSuccess;
}
