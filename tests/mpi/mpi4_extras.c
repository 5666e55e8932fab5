/* MPI 4.0 additions: MPI_Isendrecv and MPI_Isendrecv_replace (and their _c forms) around a ring,
 * with derived types, wildcards, MPI_PROC_NULL, several in flight at once and truncation; and
 * MPI_Comm_idup_with_info, whose new communicator carries the given hints (taken at the call)
 * and works; MPI_Comm_(i)dup_with_info with MPI_INFO_NULL, whose duplicate has no hints at all
 * (not the parent's). Argument errors under MPI_ERRORS_RETURN name the function, argument and value. */
#include "expect_error.h"

static int rank, size, left, right;

static int value(int who, int round, int k) { return mix3(who, round, k) % 1000; }
static int wrap_rank(int r, int n) { return ((r % n) + n) % n; }

static void isendrecv_ring(void) {
  check_context("MPI_Isendrecv around a ring");
  enum { n = 40 };
  int out[n], in[n], back[n];
  for (int k = 0; k < n; ++k) out[k] = value(rank, 1, k);
  MPI_Request r;
  MPI_Status st;
  int count = -1;
  CHECK_MPI(MPI_Isendrecv(out, n, MPI_INT, right, 5, in, n, MPI_INT, left, 5, MPI_COMM_WORLD, &r));
  CHECK_MPI(MPI_Wait(&r, &st));
  CHECK(r == MPI_REQUEST_NULL);
  CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 5);
  CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
  CHECK(count == n);
  for (int k = 0; k < n; ++k) CHECK(in[k] == value(left, 1, k));

  /* both directions at once, completed by MPI_Waitall; the receive from the left takes any
   * source, and its status says who sent it */
  MPI_Request two[2];
  MPI_Status sts[2];
  for (int k = 0; k < n; ++k) out[k] = value(rank, 2, k);
  CHECK_MPI(MPI_Isendrecv(out, n, MPI_INT, right, 6, in, n, MPI_INT, MPI_ANY_SOURCE, 6,
                          MPI_COMM_WORLD, &two[0]));
  CHECK_MPI(MPI_Isendrecv(out, n / 2, MPI_INT, left, 7, back, n, MPI_INT, right, 7, MPI_COMM_WORLD,
                          &two[1]));
  CHECK_MPI(MPI_Waitall(2, two, sts));
  CHECK(sts[0].MPI_SOURCE == left && sts[0].MPI_TAG == 6);
  for (int k = 0; k < n; ++k) CHECK(in[k] == value(left, 2, k));
  CHECK(sts[1].MPI_SOURCE == right && sts[1].MPI_TAG == 7);
  CHECK_MPI(MPI_Get_count(&sts[1], MPI_INT, &count));
  CHECK(count == n / 2);
  for (int k = 0; k < n / 2; ++k) CHECK(back[k] == value(right, 2, k));

  /* polled with MPI_Test; the large-count form */
  for (int k = 0; k < n; ++k) out[k] = value(rank, 3, k);
  CHECK_MPI(
      MPI_Isendrecv_c(out, n, MPI_INT, right, 8, in, n, MPI_INT, left, 8, MPI_COMM_WORLD, &r));
  int done = 0;
  while (!done) CHECK_MPI(MPI_Test(&r, &done, &st));
  CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 8);
  for (int k = 0; k < n; ++k) CHECK(in[k] == value(left, 3, k));

  /* MPI_PROC_NULL on both sides: completes at once with an empty receive */
  CHECK_MPI(MPI_Isendrecv(out, n, MPI_INT, MPI_PROC_NULL, 9, in, n, MPI_INT, MPI_PROC_NULL, 9,
                          MPI_COMM_WORLD, &r));
  CHECK_MPI(MPI_Wait(&r, &st));
  CHECK(st.MPI_SOURCE == MPI_PROC_NULL && st.MPI_TAG == MPI_ANY_TAG);
  CHECK_MPI(MPI_Get_count(&st, MPI_INT, &count));
  CHECK(count == 0);

  /* a cancelled MPI_Isendrecv completes normally (its send may already be matched) */
  CHECK_MPI(
      MPI_Isendrecv(out, n, MPI_INT, right, 10, in, n, MPI_INT, left, 10, MPI_COMM_WORLD, &r));
  CHECK_MPI(MPI_Cancel(&r));
  CHECK_MPI(MPI_Wait(&r, &st));
  int cancelled = 1;
  CHECK_MPI(MPI_Test_cancelled(&st, &cancelled));
  CHECK(!cancelled && st.MPI_SOURCE == left);
}

/* Every other int of 2n: the gaps must stay untouched. */
static void isendrecv_derived(void) {
  check_context("MPI_Isendrecv/MPI_Isendrecv_replace with a strided datatype");
  enum { n = 25 };
  MPI_Datatype every_other;
  CHECK_MPI(MPI_Type_vector(n, 1, 2, MPI_INT, &every_other));
  CHECK_MPI(MPI_Type_commit(&every_other));
  int out[2 * n], in[2 * n];
  for (int k = 0; k < 2 * n; ++k) {
    out[k] = value(rank, 4, k);
    in[k] = -1;
  }
  MPI_Request r;
  MPI_Status st;
  CHECK_MPI(MPI_Isendrecv(out, 1, every_other, right, 11, in, 1, every_other, left, 11,
                          MPI_COMM_WORLD, &r));
  CHECK_MPI(MPI_Wait(&r, &st));
  for (int k = 0; k < 2 * n; ++k) CHECK(in[k] == (k % 2 == 0 ? value(left, 4, k) : -1));
  int elements = -1;
  CHECK_MPI(MPI_Get_elements(&st, every_other, &elements));
  CHECK(elements == n);

  /* replace: the strided ints come from the left, the gaps keep this rank's values */
  int buf[2 * n];
  for (int k = 0; k < 2 * n; ++k) buf[k] = value(rank, 5, k);
  CHECK_MPI(MPI_Isendrecv_replace(buf, 1, every_other, right, 12, left, 12, MPI_COMM_WORLD, &r));
  CHECK_MPI(MPI_Wait(&r, &st));
  CHECK(st.MPI_SOURCE == left && st.MPI_TAG == 12);
  for (int k = 0; k < 2 * n; ++k) CHECK(buf[k] == value(k % 2 == 0 ? left : rank, 5, k));
  CHECK_MPI(MPI_Type_free(&every_other));

  /* contiguous replace, twice around in flight at once (tags keep them apart), then _c */
  int a[n], b[n];
  for (int k = 0; k < n; ++k) {
    a[k] = value(rank, 6, k);
    b[k] = value(rank, 7, k);
  }
  MPI_Request two[2];
  CHECK_MPI(MPI_Isendrecv_replace(a, n, MPI_INT, right, 13, left, 13, MPI_COMM_WORLD, &two[0]));
  CHECK_MPI(MPI_Isendrecv_replace(b, n, MPI_INT, left, 14, right, 14, MPI_COMM_WORLD, &two[1]));
  CHECK_MPI(MPI_Waitall(2, two, MPI_STATUSES_IGNORE));
  for (int k = 0; k < n; ++k) CHECK(a[k] == value(left, 6, k) && b[k] == value(right, 7, k));
  CHECK_MPI(MPI_Isendrecv_replace_c(a, n, MPI_INT, right, 15, left, 15, MPI_COMM_WORLD, &r));
  CHECK_MPI(MPI_Wait(&r, &st));
  MPI_Count count = -1;
  CHECK_MPI(MPI_Get_count_c(&st, MPI_INT, &count));
  CHECK(count == n);
  for (int k = 0; k < n; ++k) CHECK(a[k] == value(wrap_rank(rank - 2, size), 6, k));
}

/* A message longer than the receive buffer: the request completes with MPI_ERR_TRUNCATE. */
static void isendrecv_truncated(void) {
  check_context("MPI_Isendrecv whose receive is truncated");
  int out[8] = {1, 2, 3, 4, 5, 6, 7, 8}, in[8] = {0};
  MPI_Request r;
  CHECK_MPI(
      MPI_Isendrecv(out, 8, MPI_INT, right, 16, in, 3, MPI_INT, left, 16, MPI_COMM_WORLD, &r));
  EXPECT_ERROR(MPI_Wait(&r, MPI_STATUS_IGNORE), MPI_ERR_TRUNCATE, "MPI_Wait", "truncated");
  CHECK(r == MPI_REQUEST_NULL);
}

static void idup_with_info(void) {
  check_context("MPI_Comm_idup_with_info");
  MPI_Info hints, parent_hints;
  CHECK_MPI(MPI_Info_create(&parent_hints));
  CHECK_MPI(MPI_Info_set(parent_hints, "weft_test_parent", "only on the parent"));
  CHECK_MPI(MPI_Comm_set_info(MPI_COMM_WORLD, parent_hints));
  CHECK_MPI(MPI_Info_free(&parent_hints));
  CHECK_MPI(MPI_Info_create(&hints));
  CHECK_MPI(MPI_Info_set(hints, "mpi_assert_no_any_tag", "true"));
  CHECK_MPI(MPI_Info_set(hints, "weft_test_hint", "42"));
  MPI_Comm with_info, plain;
  MPI_Request r[2];
  CHECK_MPI(MPI_Comm_idup_with_info(MPI_COMM_WORLD, hints, &with_info, &r[0]));
  CHECK_MPI(MPI_Info_free(&hints)); /* the hints were taken at the call */
  CHECK_MPI(MPI_Comm_idup(MPI_COMM_WORLD, &plain, &r[1]));
  CHECK_MPI(MPI_Waitall(2, r, MPI_STATUSES_IGNORE));
  int result = -1;
  CHECK_MPI(MPI_Comm_compare(MPI_COMM_WORLD, with_info, &result));
  CHECK(result == MPI_CONGRUENT);

  MPI_Info got;
  char v[MPI_MAX_INFO_VAL + 1];
  int flag = 0;
  CHECK_MPI(MPI_Comm_get_info(with_info, &got));
  CHECK_MPI(MPI_Info_get(got, "weft_test_hint", MPI_MAX_INFO_VAL, v, &flag));
  CHECK(flag && strcmp(v, "42") == 0);
  CHECK_MPI(MPI_Info_get(got, "mpi_assert_no_any_tag", MPI_MAX_INFO_VAL, v, &flag));
  CHECK(flag && strcmp(v, "true") == 0);
  CHECK_MPI(MPI_Info_get(got, "weft_test_parent", MPI_MAX_INFO_VAL, v, &flag));
  CHECK(!flag); /* the given hints replace the parent's */
  CHECK_MPI(MPI_Info_free(&got));
  CHECK_MPI(MPI_Comm_get_info(plain, &got)); /* MPI_Comm_idup keeps the parent's */
  CHECK_MPI(MPI_Info_get(got, "weft_test_parent", MPI_MAX_INFO_VAL, v, &flag));
  CHECK(flag && strcmp(v, "only on the parent") == 0);
  CHECK_MPI(MPI_Info_free(&got));

  /* the new communicators work, and apart from each other */
  int sum = 0, mine = rank + 1;
  CHECK_MPI(MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, with_info));
  CHECK(sum == size * (size + 1) / 2);
  int from_left = -1, from_right = -1;
  CHECK_MPI(MPI_Sendrecv(&rank, 1, MPI_INT, right, 0, &from_left, 1, MPI_INT, left, 0, with_info,
                         MPI_STATUS_IGNORE));
  CHECK_MPI(MPI_Sendrecv(&rank, 1, MPI_INT, left, 0, &from_right, 1, MPI_INT, right, 0, plain,
                         MPI_STATUS_IGNORE));
  CHECK(from_left == left && from_right == right);
  CHECK_MPI(MPI_Comm_free(&with_info));
  CHECK_MPI(MPI_Comm_free(&plain));
}

/* MPI_INFO_NULL as the hints of MPI_Comm_dup_with_info and MPI_Comm_idup_with_info (Open MPI and
 * MPICH accept it): a working duplicate with no hints, not even the parent's. Run after
 * idup_with_info(), which left a hint on MPI_COMM_WORLD. */
static void dup_with_info_null(void) {
  check_context("MPI_Comm_dup_with_info and MPI_Comm_idup_with_info with MPI_INFO_NULL");
  MPI_Comm blocking = MPI_COMM_NULL, nonblocking = MPI_COMM_NULL;
  MPI_Request r = MPI_REQUEST_NULL;
  CHECK_MPI(MPI_Comm_dup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, &blocking));
  CHECK_MPI(MPI_Comm_idup_with_info(MPI_COMM_WORLD, MPI_INFO_NULL, &nonblocking, &r));
  CHECK_MPI(MPI_Wait(&r, MPI_STATUS_IGNORE));
  MPI_Comm both[2] = {blocking, nonblocking};
  for (int i = 0; i < 2; ++i) {
    int result = -1, nkeys = -1, flag = 1;
    CHECK_MPI(MPI_Comm_compare(MPI_COMM_WORLD, both[i], &result));
    CHECK(result == MPI_CONGRUENT);
    MPI_Info got;
    char v[MPI_MAX_INFO_VAL + 1];
    CHECK_MPI(MPI_Comm_get_info(both[i], &got));
    CHECK_MPI(MPI_Info_get(got, "weft_test_parent", MPI_MAX_INFO_VAL, v, &flag));
    CHECK(!flag);
    CHECK_MPI(MPI_Info_get_nkeys(got, &nkeys));
    CHECK(nkeys == 0);
    CHECK_MPI(MPI_Info_free(&got));
    int sum = 0, mine = rank + 1;
    CHECK_MPI(MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, both[i]));
    CHECK(sum == size * (size + 1) / 2);
  }
  CHECK_MPI(MPI_Comm_free(&blocking));
  CHECK_MPI(MPI_Comm_free(&nonblocking));
}

static void errors(void) {
  check_context("argument errors of MPI_Isendrecv(_replace) and MPI_Comm_idup_with_info");
  int buf[4] = {0};
  MPI_Request r = MPI_REQUEST_NULL;
  EXPECT_ERROR(
      MPI_Isendrecv(buf, -1, MPI_INT, right, 0, buf, 1, MPI_INT, left, 0, MPI_COMM_WORLD, &r),
      MPI_ERR_COUNT, "MPI_Isendrecv", "sendcount=-1");
  EXPECT_ERROR(
      MPI_Isendrecv(buf, 1, MPI_INT, right, 0, buf, 1, MPI_INT, left, 0, MPI_COMM_WORLD, NULL),
      MPI_ERR_ARG, "MPI_Isendrecv", "request=NULL");
  EXPECT_ERROR(MPI_Isendrecv(buf, 1, MPI_DATATYPE_NULL, right, 0, buf, 1, MPI_INT, left, 0,
                             MPI_COMM_WORLD, &r),
               MPI_ERR_TYPE, "MPI_Isendrecv", "sendtype=MPI_DATATYPE_NULL");
  EXPECT_ERROR(
      MPI_Isendrecv(buf, 1, MPI_INT, size, 0, buf, 1, MPI_INT, left, 0, MPI_COMM_WORLD, &r),
      MPI_ERR_RANK, "MPI_Isendrecv", "dest=");
  EXPECT_ERROR(MPI_Isendrecv_c(buf, 1, MPI_INT, right, 0, buf, -3000000000LL, MPI_INT, left, 0,
                               MPI_COMM_WORLD, &r),
               MPI_ERR_COUNT, "MPI_Isendrecv_c", "recvcount=-3000000000");
  EXPECT_ERROR(MPI_Isendrecv_replace(buf, 1, MPI_INT, right, 0, left, -5, MPI_COMM_WORLD, &r),
               MPI_ERR_TAG, "MPI_Isendrecv_replace", "recvtag=-5");
  EXPECT_ERROR(MPI_Isendrecv_replace(buf, 1, MPI_INT, right, 0, left, 0, MPI_COMM_WORLD, NULL),
               MPI_ERR_ARG, "MPI_Isendrecv_replace", "request=NULL");
  EXPECT_ERROR(MPI_Isendrecv_replace_c(buf, -7, MPI_INT, right, 0, left, 0, MPI_COMM_WORLD, &r),
               MPI_ERR_COUNT, "MPI_Isendrecv_replace_c", "count=-7");
  EXPECT_ERROR(MPI_Isendrecv_replace(NULL, 2, MPI_INT, right, 0, left, 0, MPI_COMM_WORLD, &r),
               MPI_ERR_BUFFER, "MPI_Isendrecv_replace", "buf=NULL");
  CHECK(r == MPI_REQUEST_NULL); /* no failed call handed out a request */

  MPI_Comm c = MPI_COMM_NULL;
  MPI_Info info;
  CHECK_MPI(MPI_Info_create(&info));
  EXPECT_ERROR(MPI_Comm_idup_with_info(MPI_COMM_WORLD, info, &c, NULL), MPI_ERR_ARG,
               "MPI_Comm_idup_with_info", "request=NULL");
  EXPECT_ERROR(MPI_Comm_idup_with_info(MPI_COMM_WORLD, info, NULL, &r), MPI_ERR_ARG,
               "MPI_Comm_idup_with_info", "newcomm=NULL");
  EXPECT_ERROR(MPI_Comm_idup_with_info(MPI_COMM_NULL, info, &c, &r), MPI_ERR_COMM,
               "MPI_Comm_idup_with_info", "comm");
  CHECK_MPI(MPI_Info_free(&info));
  CHECK(c == MPI_COMM_NULL && r == MPI_REQUEST_NULL);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  errors_return();
  world_ring(&rank, &size, &left, &right);
  isendrecv_ring();
  isendrecv_derived();
  isendrecv_truncated();
  idup_with_info();
  dup_with_info_null();
  errors();
  MPI_Finalize();
  return 0;
}
