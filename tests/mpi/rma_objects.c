/* What windows carry: the predefined attributes (base, size, displacement unit, flavor, memory
 * model), user keyvals with delete callbacks run at MPI_Win_free, names, the info hints, the
 * group, Fortran handle conversion. */
#include <stdlib.h>
#include <string.h>

#include "check.h"

static int deleted = 0;
static int on_delete(MPI_Win win, int keyval, void* value, void* extra) {
  (void)win, (void)keyval, (void)extra;
  deleted += *(int*)value;
  return MPI_SUCCESS;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double mem[10];
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "no_locks", "true");
  MPI_Info_set(info, "accumulate_ops", "same_op");
  MPI_Win win;
  CHECK_MPI(MPI_Win_create(mem, sizeof mem, sizeof(double), info, MPI_COMM_WORLD, &win));
  MPI_Info_free(&info);
  CHECK_MPI(MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN));

  void* base = NULL;
  MPI_Aint* bytes = NULL;
  int *unit = NULL, *flavor = NULL, *model = NULL, flag = 0;
  CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_BASE, &base, &flag));
  CHECK(flag && base == mem);
  CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_SIZE, &bytes, &flag));
  CHECK(flag && *bytes == sizeof mem);
  CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_DISP_UNIT, &unit, &flag));
  CHECK(flag && *unit == sizeof(double));
  CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_CREATE_FLAVOR, &flavor, &flag));
  CHECK(flag && *flavor == MPI_WIN_FLAVOR_CREATE);
  CHECK_MPI(MPI_Win_get_attr(win, MPI_WIN_MODEL, &model, &flag));
  CHECK(flag && *model == MPI_WIN_UNIFIED);

  int keyval;
  CHECK_MPI(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, on_delete, &keyval, NULL));
  static int three = 3;
  CHECK_MPI(MPI_Win_set_attr(win, keyval, &three));
  int* got = NULL;
  CHECK_MPI(MPI_Win_get_attr(win, keyval, &got, &flag));
  CHECK(flag && got == &three);
  CHECK(error_class(MPI_Win_set_attr(win, MPI_WIN_BASE, &three)) == MPI_ERR_KEYVAL);

  char name[MPI_MAX_OBJECT_NAME];
  int len = -1;
  CHECK_MPI(MPI_Win_get_name(win, name, &len));
  CHECK(len == 0 && name[0] == '\0');
  CHECK_MPI(MPI_Win_set_name(win, "halo window"));
  CHECK_MPI(MPI_Win_get_name(win, name, &len));
  CHECK(len == 11 && strcmp(name, "halo window") == 0);

  MPI_Info used;
  char value[MPI_MAX_INFO_VAL];
  CHECK_MPI(MPI_Win_get_info(win, &used));
  CHECK_MPI(MPI_Info_get(used, "no_locks", sizeof value - 1, value, &flag));
  CHECK(flag && strcmp(value, "true") == 0);
  CHECK_MPI(MPI_Info_get(used, "accumulate_ops", sizeof value - 1, value, &flag));
  CHECK(flag && strcmp(value, "same_op") == 0);
  CHECK_MPI(MPI_Info_get(used, "accumulate_ordering", sizeof value - 1, value, &flag));
  CHECK(flag && strcmp(value, "rar,raw,war,waw") == 0);
  MPI_Info_free(&used);

  MPI_Group g, world;
  CHECK_MPI(MPI_Win_get_group(win, &g));
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int cmp = MPI_UNEQUAL;
  MPI_Group_compare(g, world, &cmp);
  CHECK(cmp == MPI_IDENT);
  MPI_Group_free(&g);
  MPI_Group_free(&world);

  CHECK(MPI_Win_f2c(MPI_Win_c2f(win)) == win);
  CHECK_MPI(MPI_Win_free(&win));
  CHECK(deleted == 3);
  CHECK_MPI(MPI_Win_free_keyval(&keyval));
  CHECK(keyval == MPI_KEYVAL_INVALID);
  MPI_Finalize();
  if (rank == 0) printf("rma_objects: ok\n");
  return 0;
}
