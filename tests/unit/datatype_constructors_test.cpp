// Every datatype constructor: size, bounds, true bounds, envelope (combiner, integers,
// addresses, types), contiguity and basic type, against values worked out by hand from MPI 4.0
// chapter 5. Also the handle table: predefined names, freeing, reference counting.
#include <catch2/catch.hpp>

#include "runtime/datatype/build.hpp"
#include "runtime/datatype/table.hpp"
#include "tests/unit/datatype_reference.hpp"

using namespace weft;
using weft::test::predefined;

namespace {

void check_geometry(const Datatype& t, size_t size, ptrdiff_t lb, ptrdiff_t extent,
                    ptrdiff_t true_lb, ptrdiff_t true_extent) {
  CHECK(t.size() == size);
  CHECK(t.lb() == lb);
  CHECK(t.extent() == extent);
  CHECK(t.true_lb() == true_lb);
  CHECK(t.true_extent() == true_extent);
}

void check_envelope(const Datatype& t, int combiner, std::vector<int> ints,
                    std::vector<MPI_Aint> aints, std::vector<const Datatype*> types) {
  const Envelope& e = t.envelope();
  CHECK(e.combiner == combiner);
  CHECK(e.ints == ints);
  CHECK(e.aints == aints);
  REQUIRE(e.types.size() == types.size());
  for (size_t i = 0; i < types.size(); ++i) CHECK(e.types[i].get() == types[i]);
}

}  // namespace

TEST_CASE("predefined types: committed, named, NAMED combiner, their own basic type",
          "[datatype]") {
  const Datatype* t = nullptr;
  REQUIRE(find_datatype(MPI_DOUBLE, "datatype", &t).ok());
  CHECK(t->committed());
  CHECK(t->is_predefined());
  CHECK(t->name() == "MPI_DOUBLE");
  CHECK(t->envelope().combiner == MPI_COMBINER_NAMED);
  check_geometry(*t, 8, 0, 8, 0, 8);
  CHECK(t->basic_type() == MPI_DOUBLE);
  CHECK(t->basic_count() == 1);
  REQUIRE(find_datatype(MPI_LONG_LONG, "datatype", &t).ok());
  CHECK(t->name() == "MPI_LONG_LONG_INT");
  REQUIRE(find_datatype(MPI_2INT, "datatype", &t).ok());
  check_geometry(*t, 8, 0, 8, 0, 8);
}

TEST_CASE("contiguous: n back-to-back copies", "[datatype]") {
  auto t = make_contiguous(3, predefined(MPI_DOUBLE));
  check_geometry(*t, 24, 0, 24, 0, 24);
  check_envelope(*t, MPI_COMBINER_CONTIGUOUS, {3}, {}, {predefined(MPI_DOUBLE).get()});
  CHECK(t->is_contiguous());
  CHECK(t->basic_type() == MPI_DOUBLE);
  CHECK(t->basic_count() == 3);
  CHECK_FALSE(t->committed());

  auto empty = make_contiguous(0, predefined(MPI_INT));
  check_geometry(*empty, 0, 0, 0, 0, 0);
  CHECK(empty->basic_type() == MPI_DATATYPE_NULL);
}

TEST_CASE("vector and hvector: blocks at a stride, positive and negative", "[datatype]") {
  auto v = make_vector(3, 2, 4, predefined(MPI_INT));  // ints 0,1 4,5 8,9
  check_geometry(*v, 24, 0, 40, 0, 40);
  check_envelope(*v, MPI_COMBINER_VECTOR, {3, 2, 4}, {}, {predefined(MPI_INT).get()});
  CHECK_FALSE(v->is_contiguous());
  CHECK(v->basic_type() == MPI_INT);
  CHECK(v->basic_count() == 6);

  auto back = make_vector(3, 1, -2, predefined(MPI_INT));  // ints at 0, -8, -16
  check_geometry(*back, 12, -16, 20, -16, 20);

  auto h = make_hvector(2, 3, 100, predefined(MPI_SHORT));
  check_geometry(*h, 12, 0, 106, 0, 106);
  check_envelope(*h, MPI_COMBINER_HVECTOR, {2, 3}, {100}, {predefined(MPI_SHORT).get()});

  auto dense = make_vector(4, 2, 2, predefined(MPI_FLOAT));  // stride = block: contiguous
  CHECK(dense->is_contiguous());
  check_geometry(*dense, 32, 0, 32, 0, 32);
}

TEST_CASE("indexed family: blocks at listed displacements, negative ones included", "[datatype]") {
  const int lens[] = {2, 1};
  const int displs[] = {4, 0};
  auto t = make_indexed(2, lens, displs, predefined(MPI_INT));  // ints at 16, 20, then 0
  check_geometry(*t, 12, 0, 24, 0, 24);
  check_envelope(*t, MPI_COMBINER_INDEXED, {2, 2, 1, 4, 0}, {}, {predefined(MPI_INT).get()});

  const int ones[] = {1, 1};
  const int negative[] = {-2, 3};
  auto n = make_indexed(2, ones, negative, predefined(MPI_INT));
  check_geometry(*n, 8, -8, 24, -8, 24);

  const MPI_Aint bytes[] = {8, -4};
  const int hl[] = {1, 2};
  auto h = make_hindexed(2, hl, bytes, predefined(MPI_INT));  // 8; -4, 0
  check_geometry(*h, 12, -4, 16, -4, 16);
  check_envelope(*h, MPI_COMBINER_HINDEXED, {2, 1, 2}, {8, -4}, {predefined(MPI_INT).get()});

  const int block_displs[] = {0, 5, 10};
  auto b = make_indexed_block(3, 2, block_displs, predefined(MPI_DOUBLE));
  check_geometry(*b, 48, 0, 96, 0, 96);
  check_envelope(*b, MPI_COMBINER_INDEXED_BLOCK, {3, 2, 0, 5, 10}, {},
                 {predefined(MPI_DOUBLE).get()});

  const MPI_Aint hb_displs[] = {0, 20};
  auto hb = make_hindexed_block(2, 1, hb_displs, predefined(MPI_INT));
  check_geometry(*hb, 8, 0, 24, 0, 24);
  check_envelope(*hb, MPI_COMBINER_HINDEXED_BLOCK, {2, 1}, {0, 20}, {predefined(MPI_INT).get()});

  const int zero_lens[] = {0, 3};
  const int zero_displs[] = {-100, 1};
  auto z = make_indexed(2, zero_lens, zero_displs, predefined(MPI_INT));  // empty block ignored
  check_geometry(*z, 12, 4, 12, 4, 12);
}

TEST_CASE(
    "large-count builders: MPI_Count arrays build what int arrays build; values no int "
    "holds mark the envelope instead",
    "[datatype]") {
  const MPI_Count lens[] = {2, 1};
  const MPI_Count displs[] = {4, 0};
  auto t = make_indexed(2, lens, displs, predefined(MPI_INT));
  check_geometry(*t, 12, 0, 24, 0, 24);
  check_envelope(*t, MPI_COMBINER_INDEXED, {2, 2, 1, 4, 0}, {}, {predefined(MPI_INT).get()});
  CHECK_FALSE(t->envelope().ints_overflow);
  const MPI_Count bytes[] = {8, -4};
  auto h = make_struct(2, lens, bytes, std::vector<TypeRef>(2, predefined(MPI_INT)).data());
  check_geometry(*h, 12, -4, 20, -4, 20);  // ints at 8, 12 and -4

  const MPI_Count big = 3000000000LL;  // descriptions only: nothing this large is allocated
  auto c = make_contiguous(big, predefined(MPI_BYTE));
  check_geometry(*c, size_t(big), 0, ptrdiff_t(big), 0, ptrdiff_t(big));
  CHECK(c->is_contiguous());
  CHECK(c->envelope().ints_overflow);
  auto v = make_vector(2, 1, big, predefined(MPI_INT));
  check_geometry(*v, 8, 0, 4 * ptrdiff_t(big) + 4, 0, 4 * ptrdiff_t(big) + 4);
  CHECK(v->envelope().ints_overflow);
  auto hv = make_hvector(2, 1, -big, predefined(MPI_INT));  // a byte stride goes to the addresses
  check_envelope(*hv, MPI_COMBINER_HVECTOR, {2, 1}, {-MPI_Aint(big)}, {predefined(MPI_INT).get()});
  CHECK_FALSE(hv->envelope().ints_overflow);
}

TEST_CASE("struct: mixed types, padded to the strictest alignment unless an upper bound is set",
          "[datatype]") {
  struct S {
    char c;
    double d;
    int i;
  };
  const int lens[] = {1, 1, 1};
  const MPI_Aint displs[] = {offsetof(S, c), offsetof(S, d), offsetof(S, i)};
  const TypeRef types[] = {predefined(MPI_CHAR), predefined(MPI_DOUBLE), predefined(MPI_INT)};
  auto t = make_struct(3, lens, displs, types);
  check_geometry(*t, 13, 0, sizeof(S), 0, 20);
  check_envelope(*t, MPI_COMBINER_STRUCT, {3, 1, 1, 1}, {0, 8, 16},
                 {types[0].get(), types[1].get(), types[2].get()});
  CHECK(t->basic_type() == MPI_DATATYPE_NULL);

  // A resized part sets the bounds: lb = 8 + (-4), ub = lb + 16, no padding.
  auto r = make_resized(predefined(MPI_INT), -4, 16);
  const int one[] = {1, 1};
  const MPI_Aint at[] = {8, 100};
  const TypeRef parts[] = {r, predefined(MPI_DOUBLE)};
  auto marked = make_struct(2, one, at, parts);
  check_geometry(*marked, 12, 4, 16, 8, 100);

  const MPI_Aint pair_at[] = {0, 8};
  const TypeRef doubles[] = {predefined(MPI_DOUBLE), predefined(MPI_DOUBLE)};
  auto pair = make_struct(2, one, pair_at, doubles);
  CHECK(pair->is_contiguous());
  CHECK(pair->basic_type() == MPI_DOUBLE);
  CHECK(pair->basic_count() == 2);
}

TEST_CASE("subarray: C and Fortran order, resized to the whole array", "[datatype]") {
  const int sizes[] = {4, 5}, subsizes[] = {2, 3}, starts[] = {1, 1};
  std::shared_ptr<Datatype> c, f;
  REQUIRE(make_subarray(2, sizes, subsizes, starts, MPI_ORDER_C, predefined(MPI_DOUBLE), &c).ok());
  // C: element (i, j) at (5i + j) × 8; from (1,1) = 6 to (2,3) = 13.
  check_geometry(*c, 48, 0, 160, 48, 64);
  check_envelope(*c, MPI_COMBINER_SUBARRAY, {2, 4, 5, 2, 3, 1, 1, MPI_ORDER_C}, {},
                 {predefined(MPI_DOUBLE).get()});
  REQUIRE(make_subarray(2, sizes, subsizes, starts, MPI_ORDER_FORTRAN, predefined(MPI_DOUBLE), &f)
              .ok());
  // Fortran: (i, j) at (i + 4j) × 8; from (1,1) = 5 to (2,3) = 14.
  check_geometry(*f, 48, 0, 160, 40, 80);

  const int bad_sub[] = {5, 1};
  Status s = make_subarray(2, sizes, bad_sub, starts, MPI_ORDER_C, predefined(MPI_INT), &c);
  CHECK(s.error_class == MPI_ERR_ARG);
  CHECK(s.message.find("array_of_subsizes[0]=5") != std::string::npos);
  s = make_subarray(2, sizes, subsizes, starts, 99, predefined(MPI_INT), &c);
  CHECK(s.message.find("order=99") != std::string::npos);
}

TEST_CASE("darray: block, cyclic and none distributions", "[datatype]") {
  const int gsize[] = {10}, block[] = {MPI_DISTRIBUTE_BLOCK}, dflt[] = {MPI_DISTRIBUTE_DFLT_DARG};
  const int four[] = {4};
  std::shared_ptr<Datatype> t;
  // Blocks of 3: rank 3 holds only index 9.
  REQUIRE(
      make_darray(4, 3, 1, gsize, block, dflt, four, MPI_ORDER_C, predefined(MPI_DOUBLE), &t).ok());
  check_geometry(*t, 8, 0, 80, 72, 8);
  CHECK(t->envelope().combiner == MPI_COMBINER_DARRAY);
  CHECK(t->envelope().ints == std::vector<int>{4, 3, 1, 10, MPI_DISTRIBUTE_BLOCK,
                                               MPI_DISTRIBUTE_DFLT_DARG, 4, MPI_ORDER_C});

  // Cyclic blocks of 2 over 3 processes: rank 1 holds 2, 3, 8, 9.
  const int cyclic[] = {MPI_DISTRIBUTE_CYCLIC}, two[] = {2}, three[] = {3};
  REQUIRE(
      make_darray(3, 1, 1, gsize, cyclic, two, three, MPI_ORDER_C, predefined(MPI_INT), &t).ok());
  check_geometry(*t, 16, 0, 40, 8, 32);

  // 2-D: rows not distributed, columns cyclic over 2 processes.
  const int g2[] = {3, 4}, d2[] = {MPI_DISTRIBUTE_NONE, MPI_DISTRIBUTE_CYCLIC};
  const int a2[] = {MPI_DISTRIBUTE_DFLT_DARG, MPI_DISTRIBUTE_DFLT_DARG}, p2[] = {1, 2};
  REQUIRE(make_darray(2, 1, 2, g2, d2, a2, p2, MPI_ORDER_C, predefined(MPI_INT), &t).ok());
  check_geometry(*t, 24, 0, 48, 4, 44);

  const int bad_p[] = {3};
  Status s = make_darray(4, 0, 1, gsize, block, dflt, bad_p, MPI_ORDER_C, predefined(MPI_INT), &t);
  CHECK(s.error_class == MPI_ERR_ARG);
  CHECK(s.message.find("product 3 must equal size=4") != std::string::npos);
  const int small[] = {2};
  s = make_darray(4, 0, 1, gsize, block, small, four, MPI_ORDER_C, predefined(MPI_INT), &t);
  CHECK(s.message.find("array_of_dargs[0]=2") != std::string::npos);
}

TEST_CASE("resized and dup", "[datatype]") {
  auto r = make_resized(predefined(MPI_INT), -4, 16);
  check_geometry(*r, 4, -4, 16, 0, 4);
  check_envelope(*r, MPI_COMBINER_RESIZED, {}, {-4, 16}, {predefined(MPI_INT).get()});
  CHECK_FALSE(r->is_contiguous());
  CHECK(r->is_contiguous(1));

  auto v = make_vector(2, 1, 3, predefined(MPI_DOUBLE));
  v->commit();
  auto d = make_dup(v);
  check_geometry(*d, v->size(), v->lb(), v->extent(), v->true_lb(), v->true_extent());
  check_envelope(*d, MPI_COMBINER_DUP, {}, {}, {v.get()});
  CHECK(d->committed());  // a dup has the committed state of its original
}

TEST_CASE("handle table: derived handles, freeing, and types outliving their handles",
          "[datatype]") {
  DatatypeTable& table = datatypes();
  const size_t live = table.live_derived();
  MPI_Datatype inner = table.add(make_vector(4, 1, 2, predefined(MPI_INT)));
  CHECK(inner >= kFirstDerivedType);
  CHECK(table.find(inner)->label() == "derived datatype " + std::to_string(inner));
  MPI_Datatype outer = table.add(make_contiguous(2, table.share(inner)));
  const Datatype* inner_object = table.find(inner);
  REQUIRE(table.free(&inner, "datatype").ok());
  CHECK(inner == MPI_DATATYPE_NULL);
  // The contiguous type still holds the freed vector and can use it.
  Datatype* o = table.find(outer);
  CHECK(o->envelope().types[0].get() == inner_object);
  o->commit();
  CHECK(o->size() == 32);

  MPI_Datatype predefined_handle = MPI_INT;
  Status s = table.free(&predefined_handle, "datatype");
  CHECK(s.error_class == MPI_ERR_TYPE);
  CHECK(s.message.find("predefined datatype MPI_INT") != std::string::npos);
  const Datatype* t = nullptr;
  s = find_datatype(inner_object->handle(), "datatype", &t);
  CHECK(s.error_class == MPI_ERR_TYPE);
  CHECK(s.message.find("freed or never created") != std::string::npos);
  REQUIRE(table.free(&outer, "datatype").ok());
  CHECK(table.live_derived() == live);
}

TEST_CASE("handle table: the next new type takes the most recently freed handle", "[datatype]") {
  DatatypeTable table;
  MPI_Datatype a = table.add(make_contiguous(1, predefined(MPI_INT)));
  MPI_Datatype b = table.add(make_contiguous(2, predefined(MPI_INT)));
  MPI_Datatype c = table.add(make_contiguous(3, predefined(MPI_INT)));
  const MPI_Datatype a_value = a, b_value = b;
  REQUIRE(table.free(&a, "datatype").ok());
  REQUIRE(table.free(&b, "datatype").ok());
  // Until a new type is made, the freed handles are reported.
  CHECK(table.find(a_value) == nullptr);
  CHECK(table.find(b_value) == nullptr);
  // Then, as in MPICH and Open MPI, the freed handles name the new types, last freed first.
  MPI_Datatype d = table.add(make_contiguous(4, predefined(MPI_INT)));
  MPI_Datatype e = table.add(make_contiguous(5, predefined(MPI_INT)));
  MPI_Datatype f = table.add(make_contiguous(6, predefined(MPI_INT)));
  CHECK(d == b_value);
  CHECK(e == a_value);
  CHECK(f == c + 1);  // no freed handle left: a new one
  CHECK(table.find(b_value)->envelope().ints == std::vector<int>{4});  // the new type
  for (MPI_Datatype* h : {&c, &d, &e, &f}) REQUIRE(table.free(h, "datatype").ok());
  CHECK(table.live_derived() == 0);
}

TEST_CASE("commit is required for communication; lookup_datatype only takes dense types",
          "[datatype]") {
  DatatypeTable& table = datatypes();
  MPI_Datatype v = table.add(make_vector(2, 1, 2, predefined(MPI_DOUBLE)));
  MPI_Datatype c = table.add(make_contiguous(3, predefined(MPI_DOUBLE)));
  const Datatype* t = nullptr;
  Status s = find_committed_datatype(v, "sendtype", &t);
  CHECK(s.error_class == MPI_ERR_TYPE);
  CHECK(s.message.find("sendtype=derived datatype") != std::string::npos);
  CHECK(s.message.find("not committed") != std::string::npos);
  table.find(v)->commit();
  table.find(c)->commit();
  const DatatypeInfo* info = nullptr;
  CHECK(lookup_datatype(v, "datatype", &info).error_class == MPI_ERR_TYPE);
  REQUIRE(lookup_datatype(c, "datatype", &info).ok());
  CHECK(info->size == 24);
  REQUIRE(table.free(&v, "datatype").ok());
  REQUIRE(table.free(&c, "datatype").ok());
}
