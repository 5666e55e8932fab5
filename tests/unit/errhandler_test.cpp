// The error handler table: handler lifetime under references from the user and communicators.
#include "runtime/comm/errhandler.hpp"

#include <catch2/catch.hpp>

#include "mpi.h"

using namespace weft;

namespace {
void handler(MPI_Comm*, int*, ...) {}
}  // namespace

TEST_CASE("errhandlers: a freed handler lives while a communicator uses it") {
  ErrhandlerTable t;
  const MPI_Errhandler h = t.create(handler);
  CHECK(h > MPI_ERRORS_ABORT);
  CHECK(t.check(h, "errhandler").ok());
  CHECK(t.function(h) == handler);
  t.retain(h);   // set on a communicator
  t.release(h);  // MPI_Errhandler_free by the user
  CHECK(t.function(h) == handler);
  t.release(h);  // the communicator is freed or takes another handler
  CHECK(t.function(h) == nullptr);
  Status gone = t.check(h, "errhandler");
  CHECK(gone.error_class == MPI_ERR_ERRHANDLER);
  CHECK(gone.message == "invalid error handler errhandler=" + std::to_string(h));
  CHECK(t.user_handlers() == 0);
}

TEST_CASE("errhandlers: predefined handlers are always valid and never erased") {
  ErrhandlerTable t;
  for (MPI_Errhandler h : {MPI_ERRORS_ARE_FATAL, MPI_ERRORS_RETURN, MPI_ERRORS_ABORT}) {
    t.release(h);
    t.release(h);
    CHECK(t.check(h, "errhandler").ok());
    CHECK(t.function(h) == nullptr);
  }
  CHECK(t.check(MPI_ERRHANDLER_NULL, "errhandler").message ==
        "invalid error handler errhandler=MPI_ERRHANDLER_NULL");
}

TEST_CASE("errhandlers: handles are not reused") {
  ErrhandlerTable t;
  const MPI_Errhandler first = t.create(handler);
  t.release(first);
  const MPI_Errhandler second = t.create(handler);
  CHECK(second != first);
  CHECK_FALSE(t.check(first, "errhandler").ok());
}
