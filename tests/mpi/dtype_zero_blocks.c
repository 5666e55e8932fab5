/* Indexed and hindexed types whose empty blocks sit at extreme displacements (INT_MAX elements,
 * LLONG_MAX bytes): the bounds come from the non-empty block only, packing and unpacking move
 * exactly that block, alone and as a member of a struct with a hole before it.
 *
 * Then the sequence of MPICH's indexed_misc test, which frees the indexed type and builds the
 * second struct from a types[] array that still holds the freed handle: Open MPI and MPICH give
 * the next new type (the hindexed one) the freed handle, so there it names the new type. Weft
 * does the same (the most recently freed handle goes to the next new type), so the program works
 * alike; a freed handle used before any new type is made is still reported. */
#include <limits.h>
#include <stdlib.h>

#include "expect_error.h"

enum { kInts = 10 };

/* Packs `count` of `type` from buf and unpacks into a zeroed buf. */
static void pack_and_unpack(int* buf, MPI_Datatype type) {
  int size = 0, position = 0;
  CHECK_MPI(MPI_Pack_size(1, type, MPI_COMM_WORLD, &size));
  char* packed = malloc((size_t)size + 1);
  CHECK(packed != NULL);
  CHECK_MPI(MPI_Pack(buf, 1, type, packed, size, &position, MPI_COMM_WORLD));
  CHECK(position == size);
  for (int i = 0; i < kInts; ++i) buf[i] = 0;
  position = 0;
  CHECK_MPI(MPI_Unpack(packed, size, &position, buf, 1, type, MPI_COMM_WORLD));
  CHECK(position == size);
  free(packed);
}

/* After pack_and_unpack: ints 2..5 (and `extra`, -1 for none) hold i+1, the others 0. */
static void check_moved(const int* buf, int extra) {
  for (int i = 0; i < kInts; ++i) {
    const int want = ((i >= 2 && i < 6) || i == extra) ? i + 1 : 0;
    CHECK(buf[i] == want);
  }
}

static void fill(int* buf) {
  for (int i = 0; i < kInts; ++i) buf[i] = i + 1;
}

/* The type alone: bounds, size, pack/unpack. */
static void check_alone(MPI_Datatype type) {
  MPI_Aint lb = -1, extent = -1, true_lb = -1, true_extent = -1;
  int size = -1;
  CHECK_MPI(MPI_Type_get_extent(type, &lb, &extent));
  CHECK_MPI(MPI_Type_get_true_extent(type, &true_lb, &true_extent));
  CHECK_MPI(MPI_Type_size(type, &size));
  CHECK(lb == 2 * (MPI_Aint)sizeof(int) && extent == 4 * (MPI_Aint)sizeof(int));
  CHECK(true_lb == lb && true_extent == extent);
  CHECK(size == 4 * (int)sizeof(int));
  int buf[kInts];
  fill(buf);
  pack_and_unpack(buf, type);
  check_moved(buf, -1);
}

/* A struct of the type at 0 and one MPI_INT at int 8: xx0123xx4x. */
static void check_in_struct(const MPI_Datatype types[2]) {
  const int lengths[2] = {1, 1};
  const MPI_Aint displs[2] = {0, 8 * sizeof(int)};
  MPI_Datatype s;
  CHECK_MPI(MPI_Type_create_struct(2, lengths, displs, types, &s));
  CHECK_MPI(MPI_Type_commit(&s));
  int size = -1;
  CHECK_MPI(MPI_Type_size(s, &size));
  CHECK(size == 5 * (int)sizeof(int));
  int buf[kInts];
  fill(buf);
  pack_and_unpack(buf, s);
  check_moved(buf, 8);
  CHECK_MPI(MPI_Type_free(&s));
}

static void indexed_misc_sequence(void) {
  MPI_Datatype type, types[2];
  int len[3] = {0, 4, 0};
  int disp[3] = {INT_MAX, 2, INT_MAX};

  check_context("MPI_Type_indexed with empty blocks at INT_MAX");
  CHECK_MPI(MPI_Type_indexed(3, len, disp, MPI_INT, &type));
  CHECK_MPI(MPI_Type_commit(&type));
  check_alone(type);
  check_context("the indexed type in a struct");
  types[0] = type;
  types[1] = MPI_INT;
  check_in_struct(types);
  CHECK_MPI(MPI_Type_free(&type));

  check_context("a freed handle used before any new type is made");
  const int one = 1;
  const MPI_Aint zero = 0;
  MPI_Datatype s = MPI_DATATYPE_NULL;
  EXPECT_ERROR(MPI_Type_create_struct(1, &one, &zero, types, &s), MPI_ERR_TYPE,
               "MPI_Type_create_struct", "freed or never created");

  check_context("MPI_Type_create_hindexed with empty blocks at LLONG_MAX bytes");
  MPI_Aint adisp[3] = {(MPI_Aint)LLONG_MAX, 2 * sizeof(int), (MPI_Aint)LLONG_MAX};
  CHECK_MPI(MPI_Type_create_hindexed(3, len, adisp, MPI_INT, &type));
  CHECK_MPI(MPI_Type_commit(&type));
  check_alone(type);
  /* As in MPICH's test, types[0] still holds the freed indexed type's handle, which the new
   * hindexed type has taken over. */
  check_context("the struct from types[] holding the freed handle, now the hindexed type's");
  CHECK(types[0] == type);
  check_in_struct(types);
  CHECK_MPI(MPI_Type_free(&type));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  indexed_misc_sequence();
  MPI_Finalize();
  return 0;
}
