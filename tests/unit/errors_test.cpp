// Error codes, classes and the Status -> MPI error mapping.
#include <catch2/catch.hpp>

#include "mpi.h"
#include "runtime/datatype/datatype.hpp"
#include "runtime/errors.hpp"

using namespace weft;

TEST_CASE("success stays MPI_SUCCESS") {
  CHECK(make_error_code(MPI_SUCCESS, "anything") == MPI_SUCCESS);
  CHECK(error_class_of(MPI_SUCCESS) == MPI_SUCCESS);
}

TEST_CASE("a code keeps its class and its message") {
  const int code = make_error_code(MPI_ERR_RANK, "MPI_Send: invalid rank dest=9");
  CHECK(code != MPI_ERR_RANK);
  CHECK(code <= MPI_ERR_LASTCODE);
  CHECK(error_class_of(code) == MPI_ERR_RANK);
  CHECK(error_string(code) == "MPI_Send: invalid rank dest=9");
}

TEST_CASE("bare classes are valid codes with a description") {
  for (int cls = MPI_SUCCESS; cls <= MPI_ERR_ERRHANDLER; ++cls) {
    CHECK(error_class_of(cls) == cls);
    CHECK_FALSE(error_string(cls).empty());
  }
  CHECK(error_string(MPI_ERR_TRUNCATE).find("MPI_ERR_TRUNCATE") == 0);
}

TEST_CASE("invalid codes are rejected") {
  CHECK(error_class_of(-1) == -1);
  CHECK(error_class_of(last_used_code() + 1) == -1);  // above the user-defined values too
  CHECK(error_class_of(MPI_ERR_ERRHANDLER + 1) == -1);
}

TEST_CASE("many errors: each recent code still finds its own message") {
  int codes[50];
  for (int i = 0; i < 50; ++i) codes[i] = make_error_code(MPI_ERR_TAG, "error " + std::to_string(i));
  for (int i = 0; i < 50; ++i) CHECK(error_string(codes[i]) == "error " + std::to_string(i));
}

TEST_CASE("datatype lookup: sizes of predefined types and errors for bad handles") {
  const DatatypeInfo* t = nullptr;
  REQUIRE(lookup_datatype(MPI_DOUBLE, "datatype", &t).ok());
  CHECK(t->size == sizeof(double));
  REQUIRE(lookup_datatype(MPI_2INT, "datatype", &t).ok());
  CHECK(t->size == 2 * sizeof(int));
  REQUIRE(lookup_datatype(MPI_INT64_T, "datatype", &t).ok());
  CHECK(t->size == 8);
  Status bad = lookup_datatype(MPI_DATATYPE_NULL, "sendtype", &t);
  CHECK(bad.error_class == MPI_ERR_TYPE);
  CHECK(bad.message.find("sendtype=MPI_DATATYPE_NULL") != std::string::npos);
  Status worse = lookup_datatype(999, "datatype", &t);
  CHECK(worse.error_class == MPI_ERR_TYPE);
  CHECK(worse.message.find("999") != std::string::npos);
}
