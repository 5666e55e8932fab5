/* MPI_Barrier, MPI_Ibarrier and MPI_Barrier_init: no rank leaves before the last one entered
 * (each rank in turn enters late), many barriers back to back, and barriers on MPI_COMM_SELF. */
#include "coll_check.h"

static void barrier(int form, MPI_Comm comm) {
  MPI_Request req = MPI_REQUEST_NULL;
  if (form == FORM_BLOCKING) CHECK_MPI(MPI_Barrier(comm));
  if (form == FORM_NONBLOCKING) CHECK_MPI(MPI_Ibarrier(comm, &req));
  if (form == FORM_PERSISTENT) CHECK_MPI(MPI_Barrier_init(comm, MPI_INFO_NULL, &req));
  finish_form(form, &req);
}

/* Rank `late` waits 10 ms before it enters; everyone else tells it "I left the barrier" right
 * after leaving. If such a message arrives before `late` entered, a rank left early. A correct
 * barrier can never trip this; a broken one trips it within the wait. Every form and late rank
 * is tried and each early exit reported; returns how many rounds saw one. */
static int late_entries(int rank, int size) {
  int early_rounds = 0;
  for (int form = 0; form < NUM_FORMS; ++form) {
    for (int late = 0; late < size; ++late) {
      check_context("%s barrier, rank %d enters late", form_name(form), late);
      const int tag = 100 + form * 64 + late;
      if (rank == late) {
        int early = 0;
        MPI_Status st;
        for (const double t0 = MPI_Wtime(); !early && MPI_Wtime() - t0 < 0.01;)
          CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &early, &st));
        if (early) {
          fprintf(stderr,
                  "rank %d: %s barrier: rank %d left it before rank %d (late by 10 ms) entered\n",
                  rank, form_name(form), st.MPI_SOURCE, rank);
          ++early_rounds;
        }
        barrier(form, MPI_COMM_WORLD);
        for (int k = 0; k < size - 1; ++k) {
          int from = -1;
          CHECK_MPI(MPI_Recv(&from, 1, MPI_INT, MPI_ANY_SOURCE, tag, MPI_COMM_WORLD, &st));
          CHECK(from == st.MPI_SOURCE && from != late);
        }
      } else {
        barrier(form, MPI_COMM_WORLD);
        CHECK_MPI(MPI_Send(&rank, 1, MPI_INT, late, tag, MPI_COMM_WORLD));
      }
    }
  }
  return early_rounds;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  world_ring(&rank, &size, NULL, NULL);
  errors_return();

  /* Back to back, forms mixed, with self barriers in between: no barrier's messages may be
   * taken for another's. */
  check_context("200 barriers back to back");
  for (int i = 0; i < 200; ++i) {
    barrier(i % NUM_FORMS, MPI_COMM_WORLD);
    if (i % 7 == 0) barrier((i / 7) % NUM_FORMS, MPI_COMM_SELF);
  }

  /* Several nonblocking barriers outstanding at once, completed in reverse order. */
  check_context("8 outstanding MPI_Ibarrier completed in reverse");
  MPI_Request reqs[8];
  for (int i = 0; i < 8; ++i) CHECK_MPI(MPI_Ibarrier(MPI_COMM_WORLD, &reqs[i]));
  for (int i = 7; i >= 0; --i) CHECK_MPI(MPI_Wait(&reqs[i], MPI_STATUS_IGNORE));

  const int early_rounds = late_entries(rank, size);

  /* Nothing is left over: no stray message of ours, none of the barriers'. */
  check_context("no message left over");
  int stray = 0;
  CHECK_MPI(MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &stray, MPI_STATUS_IGNORE));
  CHECK(!stray);
  check_context("a rank left a barrier before another entered it (see above)");
  CHECK(early_rounds == 0);
  MPI_Finalize();
  return 0;
}
