/* What the generated error check program (man/gen/check_program.py) calls with: valid buffers
 * and objects of every kind (communicators with each topology, a window in an access epoch, an
 * open file, a session, keyvals), the checks themselves, and a watchdog that names a call that
 * does not return. Run as a singleton: every rank argument is 0, every array has one entry. */
#ifndef WEFT_TESTS_MAN_CHECK_FIXTURES_H
#define WEFT_TESTS_MAN_CHECK_FIXTURES_H
#define WEFT_NO_DEPRECATION_WARNINGS 1
#include <fcntl.h>
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char g_in[4096] __attribute__((aligned(64)));
static char g_out[4096] __attribute__((aligned(64)));
static char g_str[4096];
static void* g_ptr;
static MPI_Status g_status;
static char g_path[256];
static int g_comm_keyval, g_type_keyval, g_win_keyval;
static MPI_Group g_group;
static MPI_Info g_info;
static MPI_Win g_win;
static MPI_File g_file;
static MPI_Session g_session;
static MPI_Comm g_cart, g_graph, g_dist_graph;
static MPI_T_pvar_session g_pvar_session;

static void weft_check_dummy(void) {}

static const char* g_function = "";
static const char* g_what = "";
static int g_checks, g_failures;

static void watchdog(int sig) {
  (void)sig;
  static const char text[] = "check_errors: a call did not return within 20 s: ";
  write(1, text, sizeof text - 1);
  write(1, g_function, strlen(g_function));
  write(1, " ", 1);
  write(1, g_what, strlen(g_what));
  write(1, "\n", 1);
  _exit(3);
}

static void begin_check(const char* function, const char* what) {
  g_function = function;
  g_what = what;
  ++g_checks;
  alarm(20);
}

static void fail(int rc, const char* expected) {
  char text[MPI_MAX_ERROR_STRING] = "";
  int len = 0, cls = -1;
  MPI_Error_class(rc, &cls);
  MPI_Error_string(rc, text, &len);
  printf("FAIL %s with %s: returned %d (class %d: %s); its page says %s\n", g_function, g_what,
         rc, cls, text, expected);
  ++g_failures;
}

/* The call must fail with class `cls`, with a message that names the function. */
static void end_check(int cls, const char* cls_name, int rc) {
  alarm(0);
  int got = -1;
  char text[MPI_MAX_ERROR_STRING] = "";
  int len = 0;
  if (rc != MPI_SUCCESS) {
    MPI_Error_class(rc, &got);
    MPI_Error_string(rc, text, &len);
  }
  char name[128];
  snprintf(name, sizeof name, "%s", g_function);
  const size_t n = strlen(name);
  if (n > 2 && strcmp(name + n - 2, "_c") == 0) name[n - 2] = '\0';  /* the int form's name */
  /* MPI_T codes carry no message: only the class is compared. */
  const int names_function = strncmp(cls_name, "MPI_T_", 6) != 0;
  if (got != cls || (names_function && strstr(text, name) == NULL)) fail(rc, cls_name);
}

/* A function usable before MPI_Init must not refuse for that reason. */
static void end_anytime(int rc) {
  alarm(0);
  char text[MPI_MAX_ERROR_STRING] = "";
  int len = 0, cls = -1;
  if (rc == MPI_SUCCESS || MPI_Error_class(rc, &cls) != MPI_SUCCESS || cls != MPI_ERR_OTHER)
    return;
  MPI_Error_string(rc, text, &len);
  if (strstr(text, "before MPI_Init") != NULL) fail(rc, "it works before MPI_Init");
}

#define CHECK_CLASS(function, what, cls, call) \
  do {                                         \
    begin_check(function, what);               \
    const int rc_ = (call);                    \
    end_check(cls, #cls, rc_);                 \
  } while (0)
#define CHECK_ANYTIME(function, call) \
  do {                                \
    begin_check(function, "");        \
    const int rc_ = (call);           \
    end_anytime(rc_);                 \
  } while (0)
#define CHECK_RETURNS(function, call) \
  do {                                \
    begin_check(function, "");        \
    (void)(call);                     \
    alarm(0);                         \
  } while (0)

static int must(int rc, const char* what) {
  if (rc != MPI_SUCCESS) {
    printf("setting up %s failed with %d\n", what, rc);
    exit(1);
  }
  return rc;
}

static void make_fixtures(void) {
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 1) {
    printf("run this program alone (a one-rank world)\n");
    exit(1);
  }
  must(MPI_Comm_group(MPI_COMM_WORLD, &g_group), "a group");
  must(MPI_Info_create(&g_info), "an info object");
  must(MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &g_comm_keyval,
                              NULL), "a communicator keyval");
  must(MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &g_type_keyval,
                              NULL), "a datatype keyval");
  must(MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, MPI_WIN_NULL_DELETE_FN, &g_win_keyval, NULL),
       "a window keyval");
  void* base = NULL;
  must(MPI_Win_allocate(4096, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &base, &g_win), "a window");
  MPI_Win_set_errhandler(g_win, MPI_ERRORS_RETURN);
  must(MPI_Win_lock_all(0, g_win), "an access epoch");
  snprintf(g_path, sizeof g_path, "/tmp/weft_check_errors_%d", (int)getpid());
  must(MPI_File_open(MPI_COMM_SELF, g_path, MPI_MODE_CREATE | MPI_MODE_RDWR | MPI_MODE_DELETE_ON_CLOSE,
                     MPI_INFO_NULL, &g_file), "a file");
  must(MPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_RETURN, &g_session), "a session");
  const int one = 1, zero = 0;
  must(MPI_Cart_create(MPI_COMM_WORLD, 1, &one, &one, 0, &g_cart), "a Cartesian communicator");
  must(MPI_Graph_create(MPI_COMM_WORLD, 1, &zero, &zero, 0, &g_graph), "a graph communicator");
  must(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 1, &zero, MPI_UNWEIGHTED, 1, &zero,
                                      MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g_dist_graph),
       "a distributed graph communicator");
  MPI_Comm_set_errhandler(g_cart, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(g_graph, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(g_dist_graph, MPI_ERRORS_RETURN);
  int provided = 0;
  must(MPI_T_init_thread(MPI_THREAD_SINGLE, &provided), "MPI_T");
  must(MPI_T_pvar_session_create(&g_pvar_session), "a performance variable session");
}

/* Runs the checks made before MPI_Init (the library's complaints to stderr silenced), then
 * those with the fixtures; prints every failure and a summary. */
static int run_checks(int argc, char** argv, void (*before_init)(void),
                      void (*with_fixtures)(void)) {
  setvbuf(stdout, NULL, _IOLBF, 0);  /* a check that ends the process leaves the ones before */
  signal(SIGALRM, watchdog);
  const int saved_stderr = dup(2);
  const int null_fd = open("/dev/null", O_WRONLY);
  dup2(null_fd, 2);
  before_init();
  dup2(saved_stderr, 2);
  const int before = g_checks;
  MPI_Init(&argc, &argv);
  make_fixtures();
  with_fixtures();
  MPI_Win_unlock_all(g_win);
  MPI_T_pvar_session_free(&g_pvar_session);
  MPI_T_finalize();
  printf("%d calls before MPI_Init and %d with a bad argument checked, %d failed\n", before,
         g_checks - before, g_failures);
  MPI_File_close(&g_file);
  MPI_Session_finalize(&g_session);
  MPI_Finalize();
  return g_failures == 0 ? 0 : 1;
}
#endif
