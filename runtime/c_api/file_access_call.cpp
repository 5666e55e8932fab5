// Checking and completing the data-access calls (file_access_call.hpp).
#include "runtime/c_api/file_access_call.hpp"

#include <cstring>

#include "runtime/c_api/file_args.hpp"
#include "runtime/c_api/host_buffer.hpp"
#include "runtime/c_api/pt2pt_args.hpp"
#include "runtime/c_api/request_status.hpp"

namespace weft::capi {
namespace {

// Checks c and runs it on its file; *status holds the outcome. With `background`, the call is
// only started: *background is its request, completed by a thread of io/background.hpp.
int run(const FileCall& c, MPI_Status* status, MPI_Request* background = nullptr) {
  io::File* f = nullptr;
  WEFT_FILE_LOOKUP(c.fh, c.fn, f);
  MessageArgs m;
  WEFT_FILE_CHECK(c.fh, c.fn, check_message(c.buf, c.count, c.datatype, kArgs, &m));
  WEFT_FILE_CHECK(c.fh, c.fn, check_host_buffer(c.buf, "buf", "MPI-IO calls"));
  io::Access a;
  a.where = c.where;
  a.write = c.write;
  a.collective = c.collective;
  a.offset = c.offset;
  a.buf = const_cast<void*>(c.buf);
  a.count = m.count;
  a.type = m.type;
  a.background = background;
  a.fn = c.fn;
  size_t bytes = 0;
  const Status s = io::access(*f, a, &bytes);
  io::set_status(status, bytes);
  WEFT_FILE_CHECK(c.fh, c.fn, s);
  return MPI_SUCCESS;
}

}  // namespace

int file_blocking(const FileCall& c, MPI_Status* status) {
  WEFT_REQUIRE_RUNNING(c.fn);
  return run(c, status);
}

int file_nonblocking(const FileCall& c, MPI_Request* request) {
  WEFT_REQUIRE_RUNNING(c.fn);
  WEFT_FILE_CHECK(c.fh, c.fn, check_not_null(request, "request"));
  MPI_Status status;
  if (const int rc = run(c, &status, request)) return rc;
  (*request)->file = c.fh;
  return MPI_SUCCESS;
}

int file_begin(const FileCall& c, const char* end_fn) {
  WEFT_REQUIRE_RUNNING(c.fn);
  io::File* f = nullptr;
  WEFT_FILE_LOOKUP(c.fh, c.fn, f);
  if (f->split.active)
    WEFT_FILE_CHECK(
        c.fh, c.fn,
        Status::error(MPI_ERR_OTHER, std::string("a split collective (ended by ") +
                                         f->split.end_fn + ") is already active on this file"));
  MPI_Status status;
  if (const int rc = run(c, &status, &f->split.request)) return rc;
  f->split.request->file = c.fh;
  f->split.active = true;
  f->split.end_fn = end_fn;
  f->split.buf = c.buf;
  return MPI_SUCCESS;
}

int file_end(const char* fn, MPI_File fh, const void* buf, MPI_Status* status) {
  WEFT_REQUIRE_RUNNING(fn);
  io::File* f = nullptr;
  WEFT_FILE_LOOKUP(fh, fn, f);
  if (!f->split.active || std::strcmp(f->split.end_fn, fn) != 0)
    WEFT_FILE_CHECK(
        fh, fn,
        Status::error(MPI_ERR_OTHER,
                      f->split.active
                          ? std::string("the active split collective ends with ") + f->split.end_fn
                          : std::string("no split collective was begun on this file")));
  if (buf != f->split.buf)
    WEFT_FILE_CHECK(fh, fn, Status::error(MPI_ERR_BUFFER, "buf is not the buffer of the _begin"));
  MPI_Request r = f->split.request;
  world().progress.wait_until([r] { return r->completion.done; });
  f->split.active = false;
  WEFT_FILE_CHECK(fh, fn, finish_request(&f->split.request, status));
  return MPI_SUCCESS;
}

}  // namespace weft::capi
