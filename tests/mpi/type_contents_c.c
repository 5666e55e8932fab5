/* MPI_Type_get_envelope_c/get_contents_c (MPI 4.0 §5.1.13): a type made by a _c constructor
 * reports its MPI_Count arguments as large counts (beyond INT_MAX too), one made by an int
 * constructor reports what the int queries do; argument errors name the function and argument. */
#include <limits.h>

#include "expect_error.h"

enum { kMax = 16 };

/* The _c envelope and contents of `t`: they must match the wanted combiner, integers, addresses,
 * large counts and (predefined) types. */
static void check_contents(MPI_Datatype t, int combiner, int ni, const int* ints, int na,
                           const MPI_Aint* aints, int nc, const MPI_Count* counts, int nd,
                           const MPI_Datatype* types) {
  MPI_Count gi = -1, ga = -1, gc = -1, gd = -1;
  int gcomb = -1;
  CHECK_MPI(MPI_Type_get_envelope_c(t, &gi, &ga, &gc, &gd, &gcomb));
  CHECK(gcomb == combiner && gi == ni && ga == na && gc == nc && gd == nd);
  int got_ints[kMax];
  MPI_Aint got_aints[kMax];
  MPI_Count got_counts[kMax];
  MPI_Datatype got_types[kMax];
  CHECK_MPI(MPI_Type_get_contents_c(t, gi, ga, gc, gd, got_ints, got_aints, got_counts, got_types));
  for (int i = 0; i < ni; ++i) CHECK(got_ints[i] == ints[i]);
  for (int i = 0; i < na; ++i) CHECK(got_aints[i] == aints[i]);
  for (int i = 0; i < nc; ++i) CHECK(got_counts[i] == counts[i]);
  for (int i = 0; i < nd; ++i) CHECK(got_types[i] == types[i]); /* predefined: as they are */
}

/* MPI_Type_vector_c with a count no int holds: a description only, nothing is allocated. */
static void vector_beyond_int(void) {
  check_context("MPI_Type_vector_c beyond INT_MAX");
  const MPI_Count count = 3000000000LL;
  MPI_Datatype t;
  CHECK_MPI(MPI_Type_vector_c(count, 2, 5, MPI_INT, &t));
  const MPI_Count counts[] = {count, 2, 5};
  const MPI_Datatype types[] = {MPI_INT};
  check_contents(t, MPI_COMBINER_VECTOR, 0, NULL, 0, NULL, 3, counts, 1, types);
  int ni, na, nd, combiner;
  EXPECT_ERROR(MPI_Type_get_envelope(t, &ni, &na, &nd, &combiner), MPI_ERR_VALUE_TOO_LARGE,
               "MPI_Type_get_envelope", "large-count");
  CHECK_MPI(MPI_Type_free(&t));
  /* the same _c constructor with small values: the int queries still answer in int form */
  CHECK_MPI(MPI_Type_vector_c(3, 2, 5, MPI_INT, &t));
  const MPI_Count small[] = {3, 2, 5};
  check_contents(t, MPI_COMBINER_VECTOR, 0, NULL, 0, NULL, 3, small, 1, types);
  CHECK_MPI(MPI_Type_get_envelope(t, &ni, &na, &nd, &combiner));
  CHECK(ni == 3 && na == 0 && nd == 1 && combiner == MPI_COMBINER_VECTOR);
  CHECK_MPI(MPI_Type_free(&t));
}

/* MPI_Type_create_struct_c: count, block lengths and displacements all large counts. */
static void struct_c(void) {
  check_context("MPI_Type_create_struct_c");
  const MPI_Count blocklengths[] = {1, 4, 2};
  const MPI_Count displacements[] = {0, 8, 5000000000LL};
  const MPI_Datatype types[] = {MPI_DOUBLE, MPI_INT, MPI_CHAR};
  MPI_Datatype t;
  CHECK_MPI(MPI_Type_create_struct_c(3, blocklengths, displacements, types, &t));
  const MPI_Count counts[] = {3, 1, 4, 2, 0, 8, 5000000000LL};
  check_contents(t, MPI_COMBINER_STRUCT, 0, NULL, 0, NULL, 7, counts, 3, types);
  CHECK_MPI(MPI_Type_free(&t));
}

/* Types made by int constructors: the _c queries report what the int ones do, no large counts. */
static void int_constructors(void) {
  check_context("int constructors through the _c queries");
  MPI_Datatype t;
  CHECK_MPI(MPI_Type_vector(4, 3, -7, MPI_DOUBLE, &t));
  const int ints[] = {4, 3, -7};
  const MPI_Datatype types[] = {MPI_DOUBLE};
  check_contents(t, MPI_COMBINER_VECTOR, 3, ints, 0, NULL, 0, NULL, 1, types);
  /* no array_of_large_counts is needed when there are none */
  int got_ints[3];
  MPI_Datatype got_type;
  CHECK_MPI(MPI_Type_get_contents_c(t, 3, 0, 0, 1, got_ints, NULL, NULL, &got_type));
  CHECK(got_ints[0] == 4 && got_ints[1] == 3 && got_ints[2] == -7 && got_type == MPI_DOUBLE);
  /* a derived inner type comes back as a new handle with its own _c contents */
  MPI_Datatype outer;
  CHECK_MPI(MPI_Type_create_hvector(2, 1, 1000, t, &outer));
  const int outer_ints[] = {2, 1};
  const MPI_Aint outer_aints[] = {1000};
  MPI_Count ni, na, nc, nd;
  int combiner;
  CHECK_MPI(MPI_Type_get_envelope_c(outer, &ni, &na, &nc, &nd, &combiner));
  CHECK(combiner == MPI_COMBINER_HVECTOR && ni == 2 && na == 1 && nc == 0 && nd == 1);
  int oi[2];
  MPI_Aint oa[1];
  MPI_Datatype inner;
  CHECK_MPI(MPI_Type_get_contents_c(outer, 2, 1, 0, 1, oi, oa, NULL, &inner));
  CHECK(oi[0] == outer_ints[0] && oi[1] == outer_ints[1] && oa[0] == outer_aints[0]);
  check_contents(inner, MPI_COMBINER_VECTOR, 3, ints, 0, NULL, 0, NULL, 1, types);
  CHECK_MPI(MPI_Type_free(&inner));
  CHECK_MPI(MPI_Type_free(&outer));
  CHECK_MPI(MPI_Type_free(&t));
  /* a predefined type: MPI_COMBINER_NAMED, nothing to decode */
  CHECK_MPI(MPI_Type_get_envelope_c(MPI_INT, &ni, &na, &nc, &nd, &combiner));
  CHECK(combiner == MPI_COMBINER_NAMED && ni == 0 && na == 0 && nc == 0 && nd == 0);
}

/* The error paths, under MPI_ERRORS_RETURN. */
static void errors(void) {
  check_context("errors");
  MPI_Datatype t;
  CHECK_MPI(MPI_Type_vector_c(3000000000LL, 2, 5, MPI_INT, &t));
  MPI_Count n = 0;
  int combiner;
  EXPECT_ERROR(MPI_Type_get_envelope_c(MPI_DATATYPE_NULL, &n, &n, &n, &n, &combiner), MPI_ERR_TYPE,
               "MPI_Type_get_envelope_c", "datatype");
  EXPECT_ERROR(MPI_Type_get_envelope_c(t, NULL, &n, &n, &n, &combiner), MPI_ERR_ARG,
               "MPI_Type_get_envelope_c", "num_integers");
  EXPECT_ERROR(MPI_Type_get_envelope_c(t, &n, &n, NULL, &n, &combiner), MPI_ERR_ARG,
               "MPI_Type_get_envelope_c", "num_large_counts");
  EXPECT_ERROR(MPI_Type_get_envelope_c(t, &n, &n, &n, &n, NULL), MPI_ERR_ARG,
               "MPI_Type_get_envelope_c", "combiner");
  int ints[kMax];
  MPI_Aint aints[kMax];
  MPI_Count counts[kMax];
  MPI_Datatype types[kMax];
  EXPECT_ERROR(MPI_Type_get_contents_c(MPI_INT, 0, 0, 0, 0, ints, aints, counts, types),
               MPI_ERR_TYPE, "MPI_Type_get_contents_c", "predefined");
  EXPECT_ERROR(MPI_Type_get_contents_c(MPI_DATATYPE_NULL, 0, 0, 3, 1, ints, aints, counts, types),
               MPI_ERR_TYPE, "MPI_Type_get_contents_c", "datatype");
  EXPECT_ERROR(MPI_Type_get_contents_c(t, 0, 0, 2, 1, ints, aints, counts, types), MPI_ERR_ARG,
               "MPI_Type_get_contents_c", "max_large_counts=2");
  EXPECT_ERROR(MPI_Type_get_contents_c(t, 0, 0, 3, 0, ints, aints, counts, types), MPI_ERR_ARG,
               "MPI_Type_get_contents_c", "max_datatypes=0");
  EXPECT_ERROR(MPI_Type_get_contents_c(t, 0, 0, 3, 1, ints, aints, NULL, types), MPI_ERR_ARG,
               "MPI_Type_get_contents_c", "array_of_large_counts");
  EXPECT_ERROR(MPI_Type_get_contents_c(t, 0, 0, 3, 1, ints, aints, counts, NULL), MPI_ERR_ARG,
               "MPI_Type_get_contents_c", "array_of_datatypes");
  EXPECT_ERROR(MPI_Type_get_contents(t, 3, 0, 1, ints, aints, types), MPI_ERR_VALUE_TOO_LARGE,
               "MPI_Type_get_contents", "large-count");
  CHECK_MPI(MPI_Type_free(&t));
  CHECK_MPI(MPI_Type_vector(4, 3, 7, MPI_DOUBLE, &t));
  EXPECT_ERROR(MPI_Type_get_contents_c(t, 2, 0, 0, 1, ints, aints, counts, types), MPI_ERR_ARG,
               "MPI_Type_get_contents_c", "max_integers=2");
  EXPECT_ERROR(MPI_Type_get_contents_c(t, 3, -1, 0, 1, ints, aints, counts, types), MPI_ERR_ARG,
               "MPI_Type_get_contents_c", "max_addresses=-1");
  EXPECT_ERROR(MPI_Type_get_contents_c(t, 3, 0, 0, 1, NULL, aints, counts, types), MPI_ERR_ARG,
               "MPI_Type_get_contents_c", "array_of_integers");
  CHECK_MPI(MPI_Type_free(&t));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  vector_beyond_int();
  struct_c();
  int_constructors();
  errors();
  MPI_Finalize();
  return 0;
}
