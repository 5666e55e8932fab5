// Argument checks shared by the point-to-point entry points.
#include "runtime/c_api/pt2pt_args.hpp"

namespace weft::capi {

Status check_message(const void* buf, MPI_Count count, MPI_Datatype datatype, const ArgNames& args,
                     MessageArgs* m) {
  WEFT_TRY(check_count(count, args.count));
  WEFT_TRY(find_message_datatype(datatype, count, args.datatype, &m->type));
  // A derived type may hold absolute addresses, used with buf = MPI_BOTTOM (NULL).
  if (m->type->is_predefined()) WEFT_TRY(check_buffer(buf, count, args.buf));
  m->count = size_t(count);
  return Status::success();
}

Status check_send(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                  MPI_Comm comm, const ArgNames& args, const char* tag_arg, MessageArgs* m) {
  WEFT_TRY(lookup_comm(world().comms, comm, "comm", &m->comm));
  WEFT_TRY(check_message(buf, count, datatype, args, m));
  WEFT_TRY(check_dest(*m->comm, dest, "dest"));
  return check_send_tag(tag, tag_arg);
}

Status check_recv(const void* buf, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                  MPI_Comm comm, const ArgNames& args, const char* tag_arg, MessageArgs* m) {
  WEFT_TRY(lookup_comm(world().comms, comm, "comm", &m->comm));
  WEFT_TRY(check_message(buf, count, datatype, args, m));
  WEFT_TRY(check_source(*m->comm, source, "source"));
  return check_recv_tag(tag, tag_arg);
}

Status check_probe(int source, int tag, MPI_Comm comm, Comm** c) {
  WEFT_TRY(lookup_comm(world().comms, comm, "comm", c));
  WEFT_TRY(check_source(**c, source, "source"));
  return check_recv_tag(tag, "tag");
}

}  // namespace weft::capi
