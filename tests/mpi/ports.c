/* Ports and names between the two app contexts of one job (weftrun -n A ./mpi_ports server :
 * -n B ./mpi_ports client): the server group opens a port and publishes it, the client group
 * looks it up and connects; both check the intercommunicator and disconnect; the name is
 * unpublished and the port closed. Then MPI_Comm_join between world ranks 0 and 1 over a
 * loopback TCP socket (where they share a host), and the error paths of these calls. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

#include "expect_error.h"

static void errors(void) {
  char port[MPI_MAX_PORT_NAME];
  MPI_Comm c;
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  EXPECT_ERROR(MPI_Lookup_name("weft-no-such-service", MPI_INFO_NULL, port), MPI_ERR_NAME,
               "MPI_Lookup_name", "weft-no-such-service");
  EXPECT_ERROR(MPI_Comm_connect("not-a-port", MPI_INFO_NULL, 0, MPI_COMM_SELF, &c), MPI_ERR_PORT,
               "MPI_Comm_connect", "not-a-port");
  CHECK(c == MPI_COMM_NULL);
  EXPECT_ERROR(MPI_Comm_join(-1, &c), MPI_ERR_ARG, "MPI_Comm_join", "fd=-1");
  char* args[] = {NULL};
  int code = 0;
  EXPECT_ERROR(MPI_Comm_spawn("/nonexistent/program", args, 1, MPI_INFO_NULL, 0, MPI_COMM_SELF, &c,
                              &code),
               MPI_ERR_SPAWN, "MPI_Comm_spawn", "PMIx_Spawn");
  CHECK(c == MPI_COMM_NULL && code == MPI_ERR_SPAWN);
  EXPECT_ERROR(MPI_Comm_spawn("x", args, 0, MPI_INFO_NULL, 0, MPI_COMM_SELF, &c, &code),
               MPI_ERR_SPAWN, "MPI_Comm_spawn", "maxprocs=0");
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "host", "no-such-host.invalid");
  EXPECT_ERROR(MPI_Comm_spawn("/bin/true", args, 1, info, 0, MPI_COMM_SELF, &c, &code),
               MPI_ERR_SPAWN, "MPI_Comm_spawn", "PMIx_Spawn");
  MPI_Info_free(&info);
  EXPECT_ERROR(MPI_Comm_disconnect(&c), MPI_ERR_COMM, "MPI_Comm_disconnect", "comm");
}

/* World ranks 0 and 1 join over a socket and exchange their world ranks. */
static void join(int rank) {
  int fd = -1, port = 0;
  if (rank == 0) {
    int listener = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof a;
    CHECK(bind(listener, (struct sockaddr*)&a, sizeof a) == 0 && listen(listener, 1) == 0);
    CHECK(getsockname(listener, (struct sockaddr*)&a, &len) == 0);
    port = ntohs(a.sin_port);
    MPI_Send(&port, 1, MPI_INT, 1, 5, MPI_COMM_WORLD);
    fd = accept(listener, NULL, NULL);
    close(listener);
  } else {
    MPI_Recv(&port, 1, MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port),
                            .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    CHECK(connect(fd, (struct sockaddr*)&a, sizeof a) == 0);
  }
  CHECK(fd >= 0);
  MPI_Comm inter;
  CHECK_MPI(MPI_Comm_join(fd, &inter));
  close(fd);
  int remote = -1, theirs = -1;
  MPI_Comm_remote_size(inter, &remote);
  CHECK(remote == 1);
  CHECK_MPI(MPI_Sendrecv(&rank, 1, MPI_INT, 0, 3, &theirs, 1, MPI_INT, 0, 3, inter,
                         MPI_STATUS_IGNORE));
  CHECK(theirs == 1 - rank);
  CHECK_MPI(MPI_Comm_disconnect(&inter));
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  CHECK(argc == 2);
  const int server = strcmp(argv[1], "server") == 0;
  int wrank, appnum = 0, *attr = NULL, flag = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
  MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_APPNUM, &attr, &flag);
  CHECK(flag);
  appnum = *attr;
  CHECK(appnum == (server ? 0 : 1));
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, appnum, 0, &half);
  int rank, size;
  MPI_Comm_rank(half, &rank);
  MPI_Comm_size(half, &size);

  char port[MPI_MAX_PORT_NAME] = "";
  MPI_Comm inter;
  if (server) {
    if (rank == 0) {
      CHECK_MPI(MPI_Open_port(MPI_INFO_NULL, port));
      CHECK_MPI(MPI_Publish_name("weft-test-service", MPI_INFO_NULL, port));
    }
    MPI_Barrier(MPI_COMM_WORLD); /* published before any client looks */
    CHECK_MPI(MPI_Comm_accept(port, MPI_INFO_NULL, 0, half, &inter));
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) CHECK_MPI(MPI_Lookup_name("weft-test-service", MPI_INFO_NULL, port));
    CHECK_MPI(MPI_Comm_connect(port, MPI_INFO_NULL, 0, half, &inter));
  }
  int remote = 0, sum = 0, mine = server ? 1 : 10;
  MPI_Comm_remote_size(inter, &remote);
  CHECK_MPI(MPI_Allreduce(&mine, &sum, 1, MPI_INT, MPI_SUM, inter));
  CHECK(sum == remote * (server ? 10 : 1));
  if (rank == 0) {  /* the two roots swap their group sizes */
    int got = -1;
    CHECK_MPI(MPI_Sendrecv(&size, 1, MPI_INT, 0, 1, &got, 1, MPI_INT, 0, 1, inter,
                           MPI_STATUS_IGNORE));
    CHECK(got == remote);
  }
  CHECK_MPI(MPI_Comm_disconnect(&inter));
  if (server && rank == 0) {
    CHECK_MPI(MPI_Unpublish_name("weft-test-service", MPI_INFO_NULL, port));
    CHECK_MPI(MPI_Close_port(port));
  }
  MPI_Barrier(MPI_COMM_WORLD);
  /* The joining socket is a loopback one: only where ranks 0 and 1 share a host (the multi-host
   * test runs this program with the client on another host). */
  MPI_Comm host;
  int host_size = 0;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host);
  MPI_Comm_size(host, &host_size);
  MPI_Comm_free(&host);
  int together = wrank == 0 ? host_size > 1 : 0, joint = 0;
  MPI_Allreduce(&together, &joint, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (wrank < 2 && joint) join(wrank);
  if (wrank == 0) errors();
  MPI_Barrier(MPI_COMM_WORLD);
  if (wrank == 0) printf("ports: ok\n");
  MPI_Comm_free(&half);
  MPI_Finalize();
  return 0;
}
