/* Struct datatypes: a struct of absolute addresses sent from MPI_BOTTOM into an array of C
 * structs (same signature, different layout), a vector of structs, MPI_Get_address/Aint_add/
 * Aint_diff, and MPI_Pack/MPI_Unpack and their external32 forms with MPI_BOTTOM. */
#include <stdlib.h>

#include "check.h"

struct particle {
  double position[3];
  int id;
  char tag;
};

static MPI_Datatype particle_type(void) {
  struct particle p;
  MPI_Aint base, at[3];
  MPI_Get_address(&p, &base);
  MPI_Get_address(&p.position, &at[0]);
  MPI_Get_address(&p.id, &at[1]);
  MPI_Get_address(&p.tag, &at[2]);
  for (int i = 0; i < 3; ++i) at[i] = MPI_Aint_diff(at[i], base);
  const int lens[3] = {3, 1, 1};
  const MPI_Datatype types[3] = {MPI_DOUBLE, MPI_INT, MPI_CHAR};
  MPI_Datatype t;
  CHECK_MPI(MPI_Type_create_struct(3, lens, at, types, &t));
  MPI_Aint lb, extent;
  CHECK_MPI(MPI_Type_get_extent(t, &lb, &extent));
  CHECK(lb == 0 && extent == (MPI_Aint)sizeof(struct particle));
  CHECK_MPI(MPI_Type_commit(&t));
  return t;
}

static void make_particle(struct particle* p, int owner, int i) {
  for (int k = 0; k < 3; ++k) p->position[k] = owner + i * 0.5 + k * 0.25;
  p->id = owner * 100 + i;
  p->tag = (char)('a' + i);
}

static void check_particle(const struct particle* p, int owner, int i) {
  struct particle want;
  make_particle(&want, owner, i);
  for (int k = 0; k < 3; ++k) CHECK(p->position[k] == want.position[k]);
  CHECK(p->id == want.id && p->tag == want.tag);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  int rank, size, left, right;
  world_ring(&rank, &size, &left, &right);
  MPI_Datatype particle = particle_type();

  check_context("a struct of absolute addresses from MPI_BOTTOM into an array of structs");
  double xyz[3];
  int id;
  char tag;
  struct particle mine;
  make_particle(&mine, rank, 2);
  for (int k = 0; k < 3; ++k) xyz[k] = mine.position[k];
  id = mine.id;
  tag = mine.tag;
  MPI_Aint addresses[3];
  MPI_Get_address(xyz, &addresses[0]);
  MPI_Get_address(&id, &addresses[1]);
  MPI_Get_address(&tag, &addresses[2]);
  CHECK(MPI_Aint_add(addresses[0], 8) == addresses[0] + 8);
  const int lens[3] = {3, 1, 1};
  const MPI_Datatype types[3] = {MPI_DOUBLE, MPI_INT, MPI_CHAR};
  MPI_Datatype scattered;
  CHECK_MPI(MPI_Type_create_struct(3, lens, addresses, types, &scattered));
  CHECK_MPI(MPI_Type_commit(&scattered));
  struct particle got[2];
  memset(got, 0, sizeof got);
  MPI_Status st;
  CHECK_MPI(MPI_Sendrecv(MPI_BOTTOM, 1, scattered, right, 1, &got[1], 1, particle, left, 1,
                         MPI_COMM_WORLD, &st));
  check_particle(&got[1], left, 2);
  int count = -1;
  CHECK_MPI(MPI_Get_elements(&st, particle, &count));
  CHECK(count == 5);

  check_context("receiving into MPI_BOTTOM with absolute addresses");
  memset(xyz, 0, sizeof xyz);
  id = 0;
  tag = 0;
  CHECK_MPI(MPI_Sendrecv(&mine, 1, particle, right, 2, MPI_BOTTOM, 1, scattered, left, 2,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  struct particle assembled;
  for (int k = 0; k < 3; ++k) assembled.position[k] = xyz[k];
  assembled.id = id;
  assembled.tag = tag;
  check_particle(&assembled, left, 2);

  check_context("a strided vector of structs");
  enum { N = 9 };
  struct particle many[N], into[N];
  for (int i = 0; i < N; ++i) make_particle(&many[i], rank, i);
  MPI_Datatype every_other;
  CHECK_MPI(MPI_Type_vector(5, 1, 2, particle, &every_other));
  CHECK_MPI(MPI_Type_commit(&every_other));
  memset(into, 0, sizeof into);
  CHECK_MPI(MPI_Sendrecv(many, 1, every_other, right, 3, into, 5, particle, left, 3,
                         MPI_COMM_WORLD, MPI_STATUS_IGNORE));
  for (int i = 0; i < 5; ++i) check_particle(&into[i], left, 2 * i);

  check_context("MPI_Pack/MPI_Unpack with MPI_BOTTOM and a mixed buffer");
  int packed_size = 0, one = 0;
  CHECK_MPI(MPI_Pack_size(1, scattered, MPI_COMM_WORLD, &packed_size));
  CHECK_MPI(MPI_Pack_size(1, MPI_INT, MPI_COMM_WORLD, &one));
  char* packed = malloc((size_t)(packed_size + one));
  int position = 0;
  const int header = 42;
  make_particle(&mine, rank, 4);
  for (int k = 0; k < 3; ++k) xyz[k] = mine.position[k];
  id = mine.id;
  tag = mine.tag;
  CHECK_MPI(MPI_Pack(&header, 1, MPI_INT, packed, packed_size + one, &position, MPI_COMM_WORLD));
  CHECK_MPI(MPI_Pack(MPI_BOTTOM, 1, scattered, packed, packed_size + one, &position,
                     MPI_COMM_WORLD));
  CHECK(position == packed_size + one);
  CHECK_MPI(MPI_Sendrecv_replace(packed, position, MPI_PACKED, right, 4, left, 4, MPI_COMM_WORLD,
                                 MPI_STATUS_IGNORE));
  int got_header = 0;
  struct particle unpacked;
  position = 0;
  CHECK_MPI(MPI_Unpack(packed, packed_size + one, &position, &got_header, 1, MPI_INT,
                       MPI_COMM_WORLD));
  CHECK_MPI(MPI_Unpack(packed, packed_size + one, &position, &unpacked, 1, particle,
                       MPI_COMM_WORLD));
  CHECK(got_header == 42);
  check_particle(&unpacked, left, 4);
  free(packed);

  check_context("external32 round trip of structs");
  MPI_Aint ext_size = 0, ext_position = 0;
  CHECK_MPI(MPI_Pack_external_size("external32", N, particle, &ext_size));
  CHECK(ext_size == N * (3 * 8 + 4 + 1));
  unsigned char* ext = malloc((size_t)ext_size);
  CHECK_MPI(MPI_Pack_external("external32", many, N, particle, ext, ext_size, &ext_position));
  CHECK(ext_position == ext_size);
  CHECK(ext[3 * 8 + 3] == (unsigned char)(many[0].id & 0xff)); /* big-endian int */
  CHECK_MPI(MPI_Sendrecv_replace(ext, (int)ext_size, MPI_BYTE, right, 5, left, 5, MPI_COMM_WORLD,
                                 MPI_STATUS_IGNORE));
  ext_position = 0;
  memset(into, 0, sizeof into);
  CHECK_MPI(MPI_Unpack_external("external32", ext, ext_size, &ext_position, into, N, particle));
  for (int i = 0; i < N; ++i) check_particle(&into[i], left, i);
  free(ext);

  CHECK_MPI(MPI_Type_free(&every_other));
  CHECK_MPI(MPI_Type_free(&scattered));
  CHECK_MPI(MPI_Type_free(&particle));
  MPI_Finalize();
  return 0;
}
