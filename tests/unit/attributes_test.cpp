// The attribute table: set/get/replace/remove, keyval lifetime, the order of copy and delete
// callbacks, failing callbacks, keyval checks, and callbacks that call back into the table.
#include "runtime/comm/attributes.hpp"

#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "mpi.h"

using namespace weft;

namespace {

std::vector<std::string> g_log;  // what the callbacks did, in order

int logging_copy(int, int keyval, void*, void* in, void* out, int* flag) {
  g_log.push_back("copy " + std::to_string(keyval));
  *static_cast<void**>(out) = in;
  *flag = 1;
  return MPI_SUCCESS;
}

int logging_delete(int handle, int keyval, void*, void*) {
  g_log.push_back("delete " + std::to_string(keyval) + " on " + std::to_string(handle));
  return MPI_SUCCESS;
}

int declining_copy(int, int, void*, void*, void*, int* flag) {
  *flag = 0;
  return MPI_SUCCESS;
}

int failing_copy(int, int, void*, void*, void*, int*) { return MPI_ERR_OTHER; }
int failing_delete(int, int, void*, void*) { return MPI_ERR_ARG; }

// Deleting sets an attribute on handle 99 of the table passed as extra_state.
int reentrant_delete(int, int keyval, void* value, void* extra_state) {
  auto* table = static_cast<AttributeTable*>(extra_state);
  return table->set(AttrKind::kComm, 99, keyval, value).ok() ? MPI_SUCCESS : MPI_ERR_OTHER;
}

void* lookup(const AttributeTable& t, AttrKind kind, int handle, int keyval) {
  void* value = nullptr;
  bool found = false;
  REQUIRE(t.get(kind, handle, keyval, &value, &found).ok());
  return found ? value : nullptr;
}

const AttrKind kComm = AttrKind::kComm;
const AttrKind kType = AttrKind::kDatatype;

}  // namespace

TEST_CASE("attributes: set, get, replace and remove, per kind and handle") {
  AttributeTable t;
  const int k = t.create_keyval(kComm, logging_copy, logging_delete, nullptr);
  CHECK(k >= kFirstUserKeyval);
  int a = 0, b = 0;
  REQUIRE(t.set(kComm, 1, k, &a).ok());
  CHECK(lookup(t, kComm, 1, k) == &a);
  CHECK(lookup(t, kComm, 2, k) == nullptr);
  g_log.clear();
  REQUIRE(t.set(kComm, 1, k, &b).ok());  // replacing deletes the old value first
  CHECK(g_log == std::vector<std::string>{"delete " + std::to_string(k) + " on 1"});
  CHECK(lookup(t, kComm, 1, k) == &b);
  REQUIRE(t.remove(kComm, 1, k).ok());
  CHECK(lookup(t, kComm, 1, k) == nullptr);
  CHECK(t.remove(kComm, 1, k).ok());  // nothing set: nothing to do
  CHECK(t.attribute_count(kComm, 1) == 0);

  const int tk = t.create_keyval(kType, nullptr, nullptr, nullptr);
  REQUIRE(t.set(kType, 1, tk, &a).ok());  // datatype 1 is not communicator 1
  CHECK(lookup(t, kType, 1, tk) == &a);
  CHECK(t.attribute_count(kComm, 1) == 0);
}

TEST_CASE("attributes: a freed keyval lives until its last attribute is deleted") {
  AttributeTable t;
  const int k = t.create_keyval(kComm, logging_copy, logging_delete, nullptr);
  int v = 0;
  REQUIRE(t.set(kComm, 1, k, &v).ok());
  REQUIRE(t.set(kComm, 2, k, &v).ok());
  REQUIRE(t.free_keyval(kComm, k).ok());
  CHECK(t.live_keyvals() == 1);
  Status reuse = t.set(kComm, 3, k, &v);  // the user's handle is gone
  CHECK(reuse.error_class == MPI_ERR_KEYVAL);
  CHECK(reuse.message.find("freed") != std::string::npos);
  CHECK(t.free_keyval(kComm, k).error_class == MPI_ERR_KEYVAL);
  g_log.clear();
  REQUIRE(t.copy_all(kComm, 1, 4).ok());  // duplication still runs its callbacks
  CHECK(g_log == std::vector<std::string>{"copy " + std::to_string(k)});
  REQUIRE(t.delete_all(kComm, 1).ok());
  REQUIRE(t.delete_all(kComm, 2).ok());
  CHECK(t.live_keyvals() == 1);
  REQUIRE(t.delete_all(kComm, 4).ok());
  CHECK(t.live_keyvals() == 0);
  CHECK(g_log.size() == 4);

  const int unused = t.create_keyval(kComm, nullptr, nullptr, nullptr);
  REQUIRE(t.free_keyval(kComm, unused).ok());  // no attribute: gone at once
  CHECK(t.live_keyvals() == 0);
}

TEST_CASE("attributes: copies in keyval creation order, deletes last set first") {
  AttributeTable t;
  const int k1 = t.create_keyval(kComm, logging_copy, logging_delete, nullptr);
  const int k2 = t.create_keyval(kComm, logging_copy, logging_delete, nullptr);
  const int k3 = t.create_keyval(kComm, logging_copy, logging_delete, nullptr);
  int v = 0;
  for (int k : {k3, k1, k2}) REQUIRE(t.set(kComm, 1, k, &v).ok());
  auto copy = [](int k) { return "copy " + std::to_string(k); };
  auto del = [](int k, int h) {
    return "delete " + std::to_string(k) + " on " + std::to_string(h);
  };
  g_log.clear();
  REQUIRE(t.copy_all(kComm, 1, 2).ok());
  CHECK(g_log == std::vector<std::string>{copy(k1), copy(k2), copy(k3)});
  CHECK(lookup(t, kComm, 2, k2) == &v);
  g_log.clear();
  REQUIRE(t.delete_all(kComm, 1).ok());
  CHECK(g_log == std::vector<std::string>{del(k2, 1), del(k1, 1), del(k3, 1)});
  g_log.clear();
  REQUIRE(t.delete_all(kComm, 2).ok());
  CHECK(g_log == std::vector<std::string>{del(k3, 2), del(k2, 2), del(k1, 2)});
}

TEST_CASE("attributes: null and declining copy callbacks copy nothing") {
  AttributeTable t;
  const int none = t.create_keyval(kComm, nullptr, nullptr, nullptr);
  const int declines = t.create_keyval(kComm, declining_copy, nullptr, nullptr);
  int v = 0;
  REQUIRE(t.set(kComm, 1, none, &v).ok());
  REQUIRE(t.set(kComm, 1, declines, &v).ok());
  REQUIRE(t.copy_all(kComm, 1, 2).ok());
  CHECK(t.attribute_count(kComm, 2) == 0);
  CHECK(t.attribute_count(kComm, 1) == 2);
}

TEST_CASE("attributes: a failing copy callback fails the copy and undoes the copies made") {
  AttributeTable t;
  const int good = t.create_keyval(kComm, logging_copy, logging_delete, nullptr);
  const int bad = t.create_keyval(kComm, failing_copy, logging_delete, nullptr);
  int v = 0;
  REQUIRE(t.set(kComm, 1, good, &v).ok());
  REQUIRE(t.set(kComm, 1, bad, &v).ok());
  g_log.clear();
  Status s = t.copy_all(kComm, 1, 2);
  CHECK(s.error_class == MPI_ERR_OTHER);
  CHECK(s.message.find("copy callback of comm_keyval=" + std::to_string(bad)) != std::string::npos);
  CHECK(t.attribute_count(kComm, 2) == 0);
  CHECK(g_log == std::vector<std::string>{"copy " + std::to_string(good),
                                          "delete " + std::to_string(good) + " on 2"});
  CHECK(t.attribute_count(kComm, 1) == 2);
}

TEST_CASE("attributes: a failing delete callback keeps the attribute") {
  AttributeTable t;
  const int k = t.create_keyval(kType, nullptr, failing_delete, nullptr);
  int v = 0;
  REQUIRE(t.set(kType, 7, k, &v).ok());
  Status removed = t.remove(kType, 7, k);
  CHECK(removed.error_class == MPI_ERR_ARG);
  CHECK(removed.message.find("delete callback of type_keyval=") != std::string::npos);
  CHECK(lookup(t, kType, 7, k) == &v);
  CHECK(t.delete_all(kType, 7).error_class == MPI_ERR_ARG);
  CHECK(t.set(kType, 7, k, nullptr).error_class == MPI_ERR_ARG);  // replacing deletes too
  CHECK(lookup(t, kType, 7, k) == &v);
}

TEST_CASE("attributes: keyvals are checked for existence and kind") {
  AttributeTable t;
  const int type_keyval = t.create_keyval(kType, nullptr, nullptr, nullptr);
  int v = 0;
  Status wrong_kind = t.set(kComm, 1, type_keyval, &v);
  CHECK(wrong_kind.error_class == MPI_ERR_KEYVAL);
  CHECK(wrong_kind.message.find("created for datatype attributes") != std::string::npos);
  Status unknown = t.set(kComm, 1, 12345, &v);
  CHECK(unknown.error_class == MPI_ERR_KEYVAL);
  CHECK(unknown.message.find("comm_keyval=12345") != std::string::npos);
  Status invalid = t.free_keyval(kType, MPI_KEYVAL_INVALID);
  CHECK(invalid.message.find("type_keyval=MPI_KEYVAL_INVALID") != std::string::npos);
  void* value = nullptr;
  bool found = true;
  CHECK(t.get(kComm, 1, type_keyval, &value, &found).error_class == MPI_ERR_KEYVAL);
}

TEST_CASE("attributes: delete callbacks may call back into the table") {
  AttributeTable t;
  const int k = t.create_keyval(kComm, nullptr, reentrant_delete, &t);
  const int other = t.create_keyval(kComm, nullptr, nullptr, nullptr);
  int v = 0;
  REQUIRE(t.set(kComm, 1, k, &v).ok());
  REQUIRE(t.set(kComm, 1, other, &v).ok());
  REQUIRE(t.delete_all(kComm, 1).ok());
  CHECK(t.attribute_count(kComm, 1) == 0);
  CHECK(lookup(t, kComm, 99, k) == &v);  // set by the callback
}
