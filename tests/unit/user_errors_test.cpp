// User-defined error classes, codes and strings (MPI_Add_error_class/_code/_string, and MPI 4.1's
// MPI_Remove_error_class/_code/_string).
#include <catch2/catch.hpp>
#include <string>

#include "mpi.h"
#include "runtime/errors.hpp"

using namespace weft;

TEST_CASE("user errors: classes and codes share one sequence above MPI_ERR_LASTCODE") {
  UserErrors t;
  CHECK(t.last_used() == MPI_ERR_LASTCODE);
  const int cls = t.add_class();
  CHECK(cls == MPI_ERR_LASTCODE + 1);
  int code = 0;
  REQUIRE(t.add_code(cls, &code).ok());
  CHECK(code == MPI_ERR_LASTCODE + 2);
  int predefined_code = 0;
  REQUIRE(t.add_code(MPI_ERR_ARG, &predefined_code).ok());
  CHECK(t.class_of(cls) == cls);
  CHECK(t.class_of(code) == cls);
  CHECK(t.class_of(predefined_code) == MPI_ERR_ARG);
  CHECK(t.class_of(MPI_ERR_ARG) == -1);  // predefined values are not the table's
  CHECK(t.class_of(predefined_code + 1) == -1);
  CHECK(t.last_used() == predefined_code);
}

TEST_CASE("user errors: only error classes take codes") {
  UserErrors t;
  const int cls = t.add_class();
  int code = 0;
  REQUIRE(t.add_code(cls, &code).ok());
  int unused = 0;
  Status of_code = t.add_code(code, &unused);
  CHECK(of_code.error_class == MPI_ERR_ARG);
  CHECK(of_code.message.find("a user-defined error code, not a class") != std::string::npos);
  CHECK(t.add_code(MPI_SUCCESS, &unused).message.find("MPI_SUCCESS is not an error class") !=
        std::string::npos);
  CHECK(t.add_code(MPI_ERR_ERRHANDLER + 1, &unused).error_class == MPI_ERR_ARG);
  CHECK(t.add_code(code + 100, &unused).error_class == MPI_ERR_ARG);
  CHECK(t.last_used() == code);  // failures allocate nothing
}

TEST_CASE("user errors: strings are empty until set, only on user values, and bounded") {
  UserErrors t;
  const int cls = t.add_class();
  std::string text = "x";
  REQUIRE(t.string_of(cls, &text));
  CHECK(text.empty());
  REQUIRE(t.set_string(cls, "my class").ok());
  REQUIRE(t.set_string(cls, "my class, renamed").ok());
  REQUIRE(t.string_of(cls, &text));
  CHECK(text == "my class, renamed");
  CHECK_FALSE(t.string_of(MPI_ERR_ARG, &text));
  Status predefined = t.set_string(MPI_ERR_ARG, "no");
  CHECK(predefined.error_class == MPI_ERR_ARG);
  CHECK(predefined.message.find("invalid errorcode=13") == 0);
  CHECK(t.set_string(cls, std::string(MPI_MAX_ERROR_STRING - 1, 's')).ok());
  Status too_long = t.set_string(cls, std::string(MPI_MAX_ERROR_STRING, 's'));
  CHECK(too_long.error_class == MPI_ERR_ARG);
  CHECK(too_long.message.find("MPI_MAX_ERROR_STRING is 512") != std::string::npos);
}

TEST_CASE("user errors: removal goes string, codes, class; values above the last in use are free") {
  UserErrors t;
  const int cls = t.add_class();
  int first = 0, second = 0;
  REQUIRE(t.add_code(cls, &first).ok());
  REQUIRE(t.add_code(cls, &second).ok());
  REQUIRE(t.set_string(first, "first").ok());
  Status busy_class = t.remove_class(cls);
  CHECK(busy_class.error_class == MPI_ERR_ARG);
  CHECK(busy_class.message.find("still has 2 error codes (" + std::to_string(first) + ", " +
                                std::to_string(second) + ")") != std::string::npos);
  CHECK(t.remove_code(first).message.find("still has its string") != std::string::npos);
  CHECK(t.remove_string(second).message.find("it has no string") != std::string::npos);
  CHECK(t.remove_code(cls).message.find("a user-defined error class, not a code") !=
        std::string::npos);
  CHECK(t.remove_class(first).message.find("a user-defined error code, not a class") !=
        std::string::npos);
  REQUIRE(t.remove_string(first).ok());
  REQUIRE(t.remove_code(first).ok());
  CHECK(t.class_of(first) == -1);
  CHECK(t.last_used() == second);  // the gap at `first` stays below a value in use
  CHECK(t.remove_code(first).message.find("removed already") != std::string::npos);
  REQUIRE(t.remove_code(second).ok());
  CHECK(t.last_used() == cls);
  REQUIRE(t.remove_class(cls).ok());
  CHECK(t.last_used() == MPI_ERR_LASTCODE);
  CHECK(t.add_class() == MPI_ERR_LASTCODE + 1);  // the values are free again
  CHECK(t.remove_class(MPI_ERR_ARG).message.find("a predefined value") != std::string::npos);
}

TEST_CASE("user errors: the process-wide table answers MPI_Error_class and MPI_Error_string") {
  const int cls = user_errors().add_class();
  int code = 0;
  REQUIRE(user_errors().add_code(cls, &code).ok());
  REQUIRE(user_errors().set_string(code, "disk on fire").ok());
  CHECK(error_class_of(cls) == cls);
  CHECK(error_class_of(code) == cls);
  CHECK(error_string(code) == "disk on fire");
  CHECK(error_string(cls).empty());
  CHECK(error_class_description(cls) == "user-defined error class " + std::to_string(cls));
  CHECK(last_used_code() == code);
  CHECK(error_class_of(code + 1) == -1);
  CHECK(make_error_code(cls, "a message with no room") == cls);
}
