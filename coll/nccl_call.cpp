// Translating a blocking collective into NCCL's calls.
#include "coll/nccl_call.hpp"

#include "gpu/memory.hpp"

namespace weft::coll {
namespace {

unsigned char* at(const void* p, size_t offset) {
  return static_cast<unsigned char*>(const_cast<void*>(p)) + offset;
}

bool is_reduction(CollKind kind) {
  return kind == CollKind::kReduce || kind == CollKind::kAllreduce ||
         kind == CollKind::kReduceScatter;
}

// Blocks of `bytes` each, one after another from the first: where they start, or false.
bool consecutive(const std::vector<Block>& blocks, size_t* first) {
  if (blocks.empty() || !back_to_back(blocks)) return false;
  for (const Block& b : blocks)
    if (b.bytes != blocks.front().bytes) return false;
  *first = blocks.front().offset;
  return true;
}

bool device(const void* p) { return gpu::on_device(p); }

}  // namespace

bool nccl_runs(CollKind kind) {
  return kind == CollKind::kBcast || is_reduction(kind) || kind == CollKind::kAllgather ||
         kind == CollKind::kAlltoall;
}

bool nccl_candidate(const CallSpec& spec, size_t* bytes, std::string* why) {
  const CollArgs& a = spec.args;
  *bytes = 0;
  if (!nccl_runs(a.kind)) {
    *why = std::string("NCCL has no ") + coll_name(a.kind);
    return false;
  }
  if (a.remote_size > 0) {
    *why = "an intercommunicator";
    return false;
  }
  if (!a.uniform) {
    *why = "a v-variant (blocks of different sizes)";
    return false;
  }
  if (is_reduction(a.kind)) {
    const Reduction& r = spec.reduction;
    gpu::NcclDataType type;
    gpu::NcclRedOp op;
    if (r.kernel == nullptr || !gpu::nccl_op_of(r.op, &op)) {
      *why = "NCCL has no " + op_name(r.op);
      return false;
    }
    if (!gpu::nccl_datatype_of(r.datatype, r.elem_size, &type)) {
      *why = "NCCL has no such datatype";
      return false;
    }
  }
  *bytes = nccl_measure(a);
  if (*bytes == 0) *why = "no data";
  return *bytes > 0;
}

size_t nccl_measure(const CollArgs& a) {
  switch (a.kind) {
    case CollKind::kAllgather:
      return a.blocks.empty() ? 0 : a.blocks.front().bytes * a.blocks.size();
    case CollKind::kAlltoall:
      return a.recv_blocks.empty() ? 0 : a.recv_blocks.front().bytes * a.recv_blocks.size();
    default:  // the vector; reduce_scatter's is all blocks
      return a.bytes;
  }
}

bool nccl_form(const CallSpec& spec, NcclCall* out, std::string* why) {
  const CollArgs& a = spec.args;
  const Binding& b = spec.binding;
  NcclCall c;
  c.kind = a.kind;
  c.root = a.root;
  if (!spec.send_typed.empty() || !spec.recv_typed.empty()) {
    *why = "a non-contiguous datatype";
    return false;
  }
  if (is_reduction(a.kind)) {
    gpu::nccl_op_of(spec.reduction.op, &c.op);
    gpu::nccl_datatype_of(spec.reduction.datatype, spec.reduction.elem_size, &c.type);
  }
  const size_t elem = gpu::nccl_type_size(c.type);
  size_t first = 0, recv_first = 0;
  bool on_device = true;
  switch (a.kind) {
    case CollKind::kBcast:
      c.count = a.bytes;
      c.send = c.recv = b.recv;
      on_device = device(b.recv);
      break;
    case CollKind::kReduce:
    case CollKind::kAllreduce: {
      c.count = a.bytes / elem;
      c.send = b.send;
      const bool gets_result = a.kind == CollKind::kAllreduce || a.rank == a.root;
      c.recv = gets_result ? b.recv : nullptr;
      on_device = device(b.send) && (!gets_result || device(b.recv));
      break;
    }
    case CollKind::kAllgather:
      if (!consecutive(a.blocks, &first)) {
        *why = "blocks with gaps between them";
        return false;
      }
      c.count = a.blocks.front().bytes;
      c.send = b.send;
      c.recv = at(b.recv, first);
      on_device = device(b.send) && device(b.recv);
      break;
    case CollKind::kReduceScatter: {
      if (!consecutive(a.blocks, &first) || first != 0) {
        *why = "blocks with gaps between them";
        return false;
      }
      const size_t block = a.blocks.front().bytes;
      c.count = block / elem;
      c.send = b.send;
      c.recv = b.recv;
      if (a.in_place) {  // NCCL's in-place form: the result stays in this rank's block
        c.recv = at(b.send, size_t(a.rank) * block);
        if (a.rank > 0) {
          c.result_to = b.recv;
          c.result_bytes = block;
        }
      }
      on_device = device(b.send) && device(b.recv);
      break;
    }
    case CollKind::kAlltoall:
      if (!consecutive(a.recv_blocks, &recv_first) ||
          (!spec.stage_recv_bytes && !consecutive(a.send_blocks, &first))) {
        *why = "blocks with gaps between them";
        return false;
      }
      c.count = a.recv_blocks.front().bytes;
      c.recv = at(b.recv, recv_first);
      if (spec.stage_recv_bytes > 0) {
        c.stage_bytes = c.count * a.recv_blocks.size();
        on_device = device(b.recv);
      } else {
        c.send = at(b.send, first);
        on_device = device(b.send) && device(b.recv);
      }
      break;
    default:
      *why = std::string("NCCL has no ") + coll_name(a.kind);
      return false;
  }
  if (!on_device) {
    *why = "a buffer in host memory";
    return false;
  }
  *out = c;
  return true;
}

gpu::NcclResult enqueue(const gpu::NcclLibrary& nccl, gpu::NcclComm comm, const NcclCall& c,
                        int size, gpu::CudaStreamHandle stream) {
  switch (c.kind) {
    case CollKind::kBcast:
      return nccl.broadcast(c.send, c.recv, c.count, c.type, c.root, comm, stream);
    case CollKind::kReduce:
      return nccl.reduce(c.send, c.recv, c.count, c.type, c.op, c.root, comm, stream);
    case CollKind::kAllreduce:
      return nccl.all_reduce(c.send, c.recv, c.count, c.type, c.op, comm, stream);
    case CollKind::kAllgather:
      return nccl.all_gather(c.send, c.recv, c.count, c.type, comm, stream);
    case CollKind::kReduceScatter:
      return nccl.reduce_scatter(c.send, c.recv, c.count, c.type, c.op, comm, stream);
    case CollKind::kAlltoall: {
      // One group: NCCL pairs every rank's send to a peer with that peer's receive, and runs
      // them all at once.
      gpu::NcclResult r = nccl.group_start();
      for (int peer = 0; peer < size && r == gpu::kNcclSuccess; ++peer) {
        const size_t offset = size_t(peer) * c.count;
        r = nccl.send(at(c.send, offset), c.count, c.type, peer, comm, stream);
        if (r == gpu::kNcclSuccess)
          r = nccl.recv(at(c.recv, offset), c.count, c.type, peer, comm, stream);
      }
      const gpu::NcclResult ended = nccl.group_end();  // a group once started is always ended
      return r != gpu::kNcclSuccess ? r : ended;
    }
    default:
      return gpu::kNcclInvalidUsage;
  }
}

}  // namespace weft::coll
