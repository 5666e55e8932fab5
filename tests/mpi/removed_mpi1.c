/* The MPI-1 functions removed in MPI 3.0 (MPI_Address, MPI_Type_extent/lb/ub, MPI_Type_hvector,
 * MPI_Type_hindexed, MPI_Type_struct, MPI_Errhandler_create/get/set) give what their
 * replacements give, and their errors name them; MPI_LB and MPI_UB set a struct type's bounds
 * (and stay set in types built from it); a struct type with them carries data correctly. Built
 * with -Wno-deprecated-declarations: mpi.h declares these deprecated (tests/mpi/CMakeLists.txt
 * checks that the compiler says so). */
#include "expect_error.h"

static void address(void) {
  check_context("MPI_Address");
  double x[4];
  MPI_Aint a = 0, b = 0;
  CHECK_MPI(MPI_Address(&x[2], &a));
  CHECK_MPI(MPI_Get_address(&x[2], &b));
  CHECK(a == b && a != 0);
}

/* Size, lb and extent from the old calls equal MPI_Type_size and MPI_Type_get_extent's. */
static void check_bounds(MPI_Datatype t, int size, MPI_Aint lb, MPI_Aint extent) {
  int got_size = -1;
  MPI_Aint got_lb = -1, got_extent = -1, old_lb = -1, old_ub = -1, old_extent = -1;
  CHECK_MPI(MPI_Type_size(t, &got_size));
  CHECK_MPI(MPI_Type_get_extent(t, &got_lb, &got_extent));
  CHECK_MPI(MPI_Type_extent(t, &old_extent));
  CHECK_MPI(MPI_Type_lb(t, &old_lb));
  CHECK_MPI(MPI_Type_ub(t, &old_ub));
  if (got_size != size || got_lb != lb || got_extent != extent)
    fprintf(stderr, "size %d lb %ld extent %ld, expected %d %ld %ld\n", got_size, (long)got_lb,
            (long)got_extent, size, (long)lb, (long)extent);
  CHECK(got_size == size && got_lb == lb && got_extent == extent);
  CHECK(old_extent == extent && old_lb == lb && old_ub == lb + extent);
}

/* The type an MPI-1 constructor made and the one its replacement made: both as expected. */
static void check_both(MPI_Datatype old_form, MPI_Datatype new_form, int size, MPI_Aint lb,
                       MPI_Aint extent) {
  check_bounds(old_form, size, lb, extent);
  check_bounds(new_form, size, lb, extent);
  MPI_Type_free(&old_form);
  MPI_Type_free(&new_form);
}

static void constructors(void) {
  check_context("MPI_Type_hvector and MPI_Type_hindexed against their MPI_Type_create_ forms");
  MPI_Datatype old_form, new_form;
  CHECK_MPI(MPI_Type_hvector(3, 2, 24, MPI_INT, &old_form));
  CHECK_MPI(MPI_Type_create_hvector(3, 2, 24, MPI_INT, &new_form));
  check_both(old_form, new_form, 24, 0, 56);
  int lengths[3] = {1, 2, 1};
  MPI_Aint displacements[3] = {40, 0, 16};
  CHECK_MPI(MPI_Type_hindexed(3, lengths, displacements, MPI_DOUBLE, &old_form));
  CHECK_MPI(MPI_Type_create_hindexed(3, lengths, displacements, MPI_DOUBLE, &new_form));
  check_both(old_form, new_form, 32, 0, 48);

  check_context("MPI_Type_struct against MPI_Type_create_struct");
  MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE};
  int two[2] = {1, 1};
  MPI_Aint at[2] = {0, 8};
  CHECK_MPI(MPI_Type_struct(2, two, at, types, &old_form));
  CHECK_MPI(MPI_Type_create_struct(2, two, at, types, &new_form));
  check_both(old_form, new_form, 12, 0, 16);
}

/* {MPI_LB at -4, int at 0, double at 8, MPI_UB at 32}: size 12, lb -4, extent 36; made by
 * MPI_Type_struct, or by MPI_Type_create_struct when `modern`. */
static MPI_Datatype marked_struct(int modern) {
  MPI_Datatype types[4] = {MPI_LB, MPI_INT, MPI_DOUBLE, MPI_UB}, t;
  int lengths[4] = {1, 1, 1, 1};
  MPI_Aint displacements[4] = {-4, 0, 8, 32};
  if (modern) {
    CHECK_MPI(MPI_Type_create_struct(4, lengths, displacements, types, &t));
  } else {
    CHECK_MPI(MPI_Type_struct(4, lengths, displacements, types, &t));
  }
  return t;
}

static void bound_markers(void) {
  check_context("MPI_LB and MPI_UB");
  int size = -1;
  MPI_Aint lb = -1, extent = -1;
  CHECK_MPI(MPI_Type_size(MPI_LB, &size));
  CHECK_MPI(MPI_Type_get_extent(MPI_UB, &lb, &extent));
  CHECK(size == 0 && lb == 0 && extent == 0);
  MPI_Datatype t = marked_struct(0), with_create = marked_struct(1);
  check_bounds(t, 12, -4, 36);
  check_bounds(with_create, 12, -4, 36);
  MPI_Type_free(&with_create);
  int elements = -1;
  MPI_Status st;
  CHECK_MPI(MPI_Status_set_elements(&st, t, 2));
  CHECK_MPI(MPI_Get_elements(&st, t, &elements));
  CHECK(elements == 2); /* the markers are no elements */

  check_context("the markers stay set in a type built from the struct");
  MPI_Datatype pair;
  CHECK_MPI(MPI_Type_contiguous(2, t, &pair));
  check_bounds(pair, 24, -4, 72);
  MPI_Type_free(&pair);

  check_context("a struct type with markers carries its data between ranks");
  int rank, nranks, left, right;
  world_ring(&rank, &nranks, &left, &right);
  CHECK_MPI(MPI_Type_commit(&t));
  /* two elements 36 bytes apart, each {int at 0, double at 8} */
  unsigned char out[80], in[80];
  memset(out, 0, sizeof out);
  memset(in, 0x5a, sizeof in);
  for (int e = 0; e < 2; ++e) {
    const int i = 100 * rank + e;
    const double d = rank + e / 4.0;
    memcpy(out + 4 + 36 * e, &i, sizeof i);
    memcpy(out + 4 + 36 * e + 8, &d, sizeof d);
  }
  CHECK_MPI(MPI_Sendrecv(out + 4, 2, t, right, 3, in + 4, 2, t, left, 3, MPI_COMM_WORLD, &st));
  for (int e = 0; e < 2; ++e) {
    int i = -1;
    double d = -1;
    memcpy(&i, in + 4 + 36 * e, sizeof i);
    memcpy(&d, in + 4 + 36 * e + 8, sizeof d);
    CHECK(i == 100 * left + e && d == left + e / 4.0);
  }
  CHECK(in[4 + 4] == 0x5a); /* the gap between the int and the double is not written */
  MPI_Type_free(&t);
}

static int handler_calls = 0, handler_class = -1;
static void count_errors(MPI_Comm* comm, int* code, ...) {
  (void)comm;
  ++handler_calls;
  MPI_Error_class(*code, &handler_class);
}

static void error_handlers(void) {
  check_context("MPI_Errhandler_create/set/get");
  MPI_Comm dup;
  CHECK_MPI(MPI_Comm_dup(MPI_COMM_WORLD, &dup));
  MPI_Errhandler handler = MPI_ERRHANDLER_NULL, got = MPI_ERRHANDLER_NULL,
                 modern = MPI_ERRHANDLER_NULL;
  CHECK_MPI(MPI_Errhandler_create(count_errors, &handler));
  CHECK_MPI(MPI_Errhandler_set(dup, handler));
  CHECK_MPI(MPI_Errhandler_get(dup, &got));
  CHECK_MPI(MPI_Comm_get_errhandler(dup, &modern));
  CHECK(got == handler && modern == handler);
  int size;
  MPI_Comm_size(dup, &size);
  int x = 0;
  MPI_Send(&x, 1, MPI_INT, size + 5, 0, dup); /* an invalid rank: the handler is called */
  CHECK(handler_calls == 1 && handler_class == MPI_ERR_RANK);
  MPI_Errhandler_free(&got);
  MPI_Errhandler_free(&modern);
  MPI_Errhandler_free(&handler);
  MPI_Comm_free(&dup);
}

static void errors(void) {
  check_context("error paths");
  EXPECT_ERROR(MPI_Type_extent(MPI_INT, NULL), MPI_ERR_ARG, "MPI_Type_extent", "extent=NULL");
  EXPECT_ERROR(MPI_Type_lb(MPI_INT, NULL), MPI_ERR_ARG, "MPI_Type_lb", "displacement=NULL");
  EXPECT_ERROR(MPI_Type_ub(MPI_INT, NULL), MPI_ERR_ARG, "MPI_Type_ub", "displacement=NULL");
  MPI_Aint a;
  EXPECT_ERROR(MPI_Type_extent(MPI_DATATYPE_NULL, &a), MPI_ERR_TYPE, "MPI_Type_extent",
               "MPI_DATATYPE_NULL");
  EXPECT_ERROR(MPI_Address(&a, NULL), MPI_ERR_ARG, "MPI_Address", "address=NULL");
  MPI_Datatype t;
  EXPECT_ERROR(MPI_Type_hvector(-1, 1, 8, MPI_INT, &t), MPI_ERR_COUNT, "MPI_Type_hvector",
               "count=-1");
  MPI_Datatype one_type[1] = {MPI_DATATYPE_NULL};
  int one[1] = {1};
  MPI_Aint zero[1] = {0};
  EXPECT_ERROR(MPI_Type_struct(1, one, zero, one_type, &t), MPI_ERR_TYPE, "MPI_Type_struct",
               "array_of_types[0]");
  EXPECT_ERROR(MPI_Errhandler_create(NULL, &(MPI_Errhandler){0}), MPI_ERR_ARG,
               "MPI_Errhandler_create", "comm_errhandler_fn=NULL");
  EXPECT_ERROR(MPI_Errhandler_get(MPI_COMM_NULL, &(MPI_Errhandler){0}), MPI_ERR_COMM,
               "MPI_Errhandler_get", "MPI_COMM_NULL");
}

/* The MPI-2 names older codes (and mpi4py's configure) still use compile, and the MPI-1
 * combiners are told apart from today's (a switch over all of them compiles). */
static void old_names(void) {
  check_context("MPI-2 type names and MPI-1 combiners");
  MPI_Comm_errhandler_fn* comm_fn = NULL;
  MPI_Win_errhandler_fn* win_fn = NULL;
  MPI_File_errhandler_fn* file_fn = NULL;
  CHECK(comm_fn == NULL && win_fn == NULL && file_fn == NULL);
  int seen = 0;
  const int combiners[] = {MPI_COMBINER_HVECTOR, MPI_COMBINER_HVECTOR_INTEGER,
                           MPI_COMBINER_HINDEXED_INTEGER, MPI_COMBINER_STRUCT_INTEGER};
  for (int i = 0; i < 4; ++i) {
    switch (combiners[i]) {
      case MPI_COMBINER_HVECTOR:
      case MPI_COMBINER_HVECTOR_INTEGER:
      case MPI_COMBINER_HINDEXED_INTEGER:
      case MPI_COMBINER_STRUCT_INTEGER:
        ++seen;
        break;
    }
  }
  CHECK(seen == 4);
  CHECK(MPI_LOGICAL1 == MPI_DATATYPE_NULL && MPI_LOGICAL8 == MPI_DATATYPE_NULL);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  old_names();
  address();
  constructors();
  bound_markers();
  error_handlers();
  errors();
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
