/* Info objects: set/get/get_string/get_valuelen/delete/dup/free/nkeys/nthkey with keys kept in
 * the order first set, truncation, the MPI_MAX_INFO_KEY/MPI_MAX_INFO_VAL limits, use before
 * MPI_Init and after MPI_Finalize, MPI_INFO_ENV and MPI_Info_create_env, hints on
 * MPI_COMM_WORLD (MPI_Comm_set_info/get_info), and the error paths.
 * MPI_INFO_ENV holds the keys MPI 4.1 §11.2.1 lists, in its order, where Weft knows a value:
 * command, argv, maxprocs, mpi_initial_errhandler, soft (the one size the launch allows, as
 * maxprocs), host, arch, wdir and thread_level (the level MPI_Init_thread requested, not the one
 * provided); no "file" (weftrun reads none). MPI_Info_create_env gives the same before MPI_Init
 * (without thread_level: nothing is requested yet), while running and after MPI_Finalize. */
#include <unistd.h>

#include "expect_error.h"

static void check_value(MPI_Info info, const char* key, const char* want) {
  char value[MPI_MAX_INFO_VAL + 1];
  int flag = -1;
  CHECK(MPI_Info_get(info, key, MPI_MAX_INFO_VAL, value, &flag) == MPI_SUCCESS);
  if (!flag || strcmp(value, want) != 0) {
    fprintf(stderr, "info key '%s' is %s'%s', expected '%s'\n", key, flag ? "" : "absent ",
            flag ? value : "", want);
    CHECK(0);
  }
}

static void check_keys(MPI_Info info, int n, const char* const* want) {
  int nkeys = -1;
  CHECK_MPI(MPI_Info_get_nkeys(info, &nkeys));
  CHECK(nkeys == n);
  for (int i = 0; i < n; ++i) {
    char key[MPI_MAX_INFO_KEY + 1];
    CHECK_MPI(MPI_Info_get_nthkey(info, i, key));
    if (strcmp(key, want[i]) != 0) {
      fprintf(stderr, "key %d is '%s', expected '%s'\n", i, key, want[i]);
      CHECK(0);
    }
  }
}

/* Whether two info objects hold the same keys in the same order with the same values; usable
 * before MPI_Init and after MPI_Finalize (no CHECK). `skip_last` ignores b's last key. */
static int same_entries(MPI_Info a, MPI_Info b, int skip_last) {
  int na = -1, nb = -1;
  if (MPI_Info_get_nkeys(a, &na) != MPI_SUCCESS || MPI_Info_get_nkeys(b, &nb) != MPI_SUCCESS)
    return 0;
  if (na != nb - skip_last) {
    fprintf(stderr, "%d keys against %d\n", na, nb - skip_last);
    return 0;
  }
  for (int i = 0; i < na; ++i) {
    char ka[MPI_MAX_INFO_KEY + 1], kb[MPI_MAX_INFO_KEY + 1];
    char va[MPI_MAX_INFO_VAL + 1], vb[MPI_MAX_INFO_VAL + 1];
    int fa = 0, fb = 0;
    if (MPI_Info_get_nthkey(a, i, ka) != MPI_SUCCESS || MPI_Info_get_nthkey(b, i, kb) != MPI_SUCCESS)
      return 0;
    MPI_Info_get(a, ka, MPI_MAX_INFO_VAL, va, &fa);
    MPI_Info_get(b, kb, MPI_MAX_INFO_VAL, vb, &fb);
    if (strcmp(ka, kb) != 0 || !fa || !fb || strcmp(va, vb) != 0) {
      fprintf(stderr, "key %d: '%s'='%s' against '%s'='%s'\n", i, ka, va, kb, vb);
      return 0;
    }
  }
  return 1;
}

static void objects(void) {
  MPI_Info info;
  CHECK_MPI(MPI_Info_create(&info));
  check_keys(info, 0, NULL);
  CHECK_MPI(MPI_Info_set(info, "zeta", "last letter"));
  CHECK_MPI(MPI_Info_set(info, "alpha", "hello"));
  CHECK_MPI(MPI_Info_set(info, "mid", ""));
  CHECK_MPI(MPI_Info_set(info, "zeta", "changed")); /* keeps its place */
  const char* const order[] = {"zeta", "alpha", "mid"};
  check_keys(info, 3, order);
  check_value(info, "zeta", "changed");
  check_value(info, "mid", "");

  char value[16];
  int flag = -1, len = -1;
  CHECK_MPI(MPI_Info_get(info, "alpha", 3, value, &flag)); /* truncated to valuelen characters */
  CHECK(flag && strcmp(value, "hel") == 0);
  CHECK_MPI(MPI_Info_get(info, "absent", 3, value, &flag));
  CHECK(!flag);
  CHECK_MPI(MPI_Info_get_valuelen(info, "alpha", &len, &flag));
  CHECK(flag && len == 5);
  int buflen = 0;
  CHECK_MPI(MPI_Info_get_string(info, "alpha", &buflen, NULL, &flag)); /* asks for the size */
  CHECK(flag && buflen == 6);
  buflen = 4;
  CHECK_MPI(MPI_Info_get_string(info, "alpha", &buflen, value, &flag));
  CHECK(flag && buflen == 6 && strcmp(value, "hel") == 0);
  buflen = (int)sizeof value;
  CHECK_MPI(MPI_Info_get_string(info, "alpha", &buflen, value, &flag));
  CHECK(flag && buflen == 6 && strcmp(value, "hello") == 0);
  buflen = 9;
  CHECK_MPI(MPI_Info_get_string(info, "absent", &buflen, value, &flag));
  CHECK(!flag && buflen == 9);

  MPI_Info copy;
  CHECK_MPI(MPI_Info_dup(info, &copy));
  CHECK_MPI(MPI_Info_delete(info, "alpha"));
  const char* const after_delete[] = {"zeta", "mid"};
  check_keys(info, 2, after_delete);
  check_keys(copy, 3, order);
  CHECK_MPI(MPI_Info_free(&copy));
  CHECK(copy == MPI_INFO_NULL);

  /* The limits: the longest key and value are accepted and come back whole. */
  char key[MPI_MAX_INFO_KEY + 2];
  memset(key, 'k', MPI_MAX_INFO_KEY);
  key[MPI_MAX_INFO_KEY] = '\0';
  static char long_value[MPI_MAX_INFO_VAL + 2];
  memset(long_value, 'v', MPI_MAX_INFO_VAL);
  long_value[MPI_MAX_INFO_VAL] = '\0';
  CHECK_MPI(MPI_Info_set(info, key, long_value));
  check_value(info, key, long_value);
  char nth[MPI_MAX_INFO_KEY + 1];
  CHECK_MPI(MPI_Info_get_nthkey(info, 2, nth));
  CHECK(strcmp(nth, key) == 0);
  key[MPI_MAX_INFO_KEY] = 'k';
  key[MPI_MAX_INFO_KEY + 1] = '\0';
  char message[100];
  snprintf(message, sizeof message, "invalid key of %d characters (MPI_MAX_INFO_KEY is %d)",
           MPI_MAX_INFO_KEY + 1, MPI_MAX_INFO_KEY);
  EXPECT_ERROR(MPI_Info_set(info, key, "v"), MPI_ERR_INFO_KEY, "MPI_Info_set", message);
  long_value[MPI_MAX_INFO_VAL] = 'v';
  long_value[MPI_MAX_INFO_VAL + 1] = '\0';
  EXPECT_ERROR(MPI_Info_set(info, "k", long_value), MPI_ERR_INFO_VALUE, "MPI_Info_set",
               "MPI_MAX_INFO_VAL");
  CHECK_MPI(MPI_Info_free(&info));
}

static void environment(int argc, char** argv, int requested, MPI_Info before_init) {
  int size, len;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char text[MPI_MAX_INFO_VAL + 1];
  int flag = 0;
  CHECK_MPI(MPI_Info_get(MPI_INFO_ENV, "command", MPI_MAX_INFO_VAL, text, &flag));
  CHECK(flag && strcmp(text, argv[0]) == 0);
  CHECK_MPI(MPI_Info_get(MPI_INFO_ENV, "argv", MPI_MAX_INFO_VAL, text, &flag));
  CHECK(flag && (argc > 1 || text[0] == '\0'));
  snprintf(text, sizeof text, "%d", size);
  check_value(MPI_INFO_ENV, "maxprocs", text);
  char host[MPI_MAX_PROCESSOR_NAME];
  CHECK_MPI(MPI_Get_processor_name(host, &len));
  check_value(MPI_INFO_ENV, "host", host);
  char cwd[4096];
  CHECK(getcwd(cwd, sizeof cwd) != NULL);
  check_value(MPI_INFO_ENV, "wdir", cwd);
  CHECK_MPI(MPI_Info_get_valuelen(MPI_INFO_ENV, "arch", &len, &flag));
  CHECK(flag && len > 0);
  const char* levels[] = {"MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED", "MPI_THREAD_SERIALIZED",
                          "MPI_THREAD_MULTIPLE"};
  check_value(MPI_INFO_ENV, "thread_level", levels[requested]); /* requested, not provided */
  snprintf(text, sizeof text, "%d", size);
  check_value(MPI_INFO_ENV, "soft", text);
  check_value(MPI_INFO_ENV, "mpi_initial_errhandler", "mpi_errors_are_fatal");
  const char* const keys[] = {"command", "argv", "maxprocs", "mpi_initial_errhandler", "soft",
                              "host",    "arch", "wdir",     "thread_level"};
  check_keys(MPI_INFO_ENV, 9, keys);
  CHECK_MPI(MPI_Info_get_valuelen(MPI_INFO_ENV, "file", &len, &flag));
  CHECK(!flag);
  /* Before MPI_Init: the same, but for thread_level (last), which nothing had requested yet. */
  CHECK(same_entries(before_init, MPI_INFO_ENV, 1));
  EXPECT_ERROR(MPI_Info_set(MPI_INFO_ENV, "command", "x"), MPI_ERR_INFO, "MPI_Info_set",
               "MPI_INFO_ENV (predefined and read-only)");
  MPI_Info env = MPI_INFO_ENV;
  EXPECT_ERROR(MPI_Info_free(&env), MPI_ERR_INFO, "MPI_Info_free", "MPI_INFO_ENV");

  MPI_Info created;
  CHECK_MPI(MPI_Info_create_env(argc, argv, &created));
  CHECK(same_entries(created, MPI_INFO_ENV, 0));
  check_value(created, "command", argv[0]);
  CHECK_MPI(MPI_Info_set(created, "command", "mine to change"));
  CHECK_MPI(MPI_Info_free(&created));
}

static void communicator_hints(void) {
  MPI_Info first, second, used;
  CHECK_MPI(MPI_Info_create(&first));
  CHECK_MPI(MPI_Info_set(first, "mpi_assert_no_any_tag", "true"));
  CHECK_MPI(MPI_Info_set(first, "weft_test", "1"));
  CHECK_MPI(MPI_Info_create(&second));
  CHECK_MPI(MPI_Info_set(second, "weft_test", "2"));
  CHECK_MPI(MPI_Comm_set_info(MPI_COMM_WORLD, first));
  CHECK_MPI(MPI_Comm_set_info(MPI_COMM_WORLD, second)); /* updates weft_test, keeps the rest */
  CHECK_MPI(MPI_Comm_set_info(MPI_COMM_WORLD, MPI_INFO_NULL));
  CHECK_MPI(MPI_Info_free(&first));
  CHECK_MPI(MPI_Info_free(&second));
  CHECK_MPI(MPI_Comm_get_info(MPI_COMM_WORLD, &used));
  const char* const keys[] = {"mpi_assert_no_any_tag", "weft_test"};
  check_keys(used, 2, keys);
  check_value(used, "weft_test", "2");
  CHECK_MPI(MPI_Info_free(&used));
  CHECK_MPI(MPI_Comm_get_info(MPI_COMM_SELF, &used));
  check_keys(used, 0, NULL);
  CHECK_MPI(MPI_Info_free(&used));
}

static void error_paths(void) {
  MPI_Info info;
  CHECK_MPI(MPI_Info_create(&info));
  CHECK_MPI(MPI_Info_set(info, "a", "1"));
  char value[8], key[MPI_MAX_INFO_KEY + 1];
  int flag = 0, n = 0;
  EXPECT_ERROR(MPI_Info_get(MPI_INFO_NULL, "a", 7, value, &flag), MPI_ERR_INFO, "MPI_Info_get",
               "info=MPI_INFO_NULL");
  EXPECT_ERROR(MPI_Info_get(info, "a", -1, value, &flag), MPI_ERR_ARG, "MPI_Info_get",
               "valuelen=-1");
  EXPECT_ERROR(MPI_Info_get(info, "", 7, value, &flag), MPI_ERR_INFO_KEY, "MPI_Info_get",
               "empty key");
  EXPECT_ERROR(MPI_Info_set(info, NULL, "v"), MPI_ERR_INFO_KEY, "MPI_Info_set", "key=NULL");
  EXPECT_ERROR(MPI_Info_set(info, "k", NULL), MPI_ERR_INFO_VALUE, "MPI_Info_set", "value=NULL");
  EXPECT_ERROR(MPI_Info_delete(info, "absent"), MPI_ERR_INFO_NOKEY, "MPI_Info_delete",
               "\"absent\"");
  EXPECT_ERROR(MPI_Info_get_nthkey(info, 1, key), MPI_ERR_ARG, "MPI_Info_get_nthkey",
               "n=1 (the info object has 1 keys)");
  EXPECT_ERROR(MPI_Info_get_nthkey(info, -1, key), MPI_ERR_ARG, "MPI_Info_get_nthkey", "n=-1");
  EXPECT_ERROR(MPI_Info_get_nkeys(info, NULL), MPI_ERR_ARG, "MPI_Info_get_nkeys", "nkeys=NULL");
  int buflen = -2;
  EXPECT_ERROR(MPI_Info_get_string(info, "a", &buflen, value, &flag), MPI_ERR_ARG,
               "MPI_Info_get_string", "*buflen=-2");
  buflen = 4;
  EXPECT_ERROR(MPI_Info_get_string(info, "a", &buflen, NULL, &flag), MPI_ERR_ARG,
               "MPI_Info_get_string", "value=NULL");
  EXPECT_ERROR(MPI_Info_get_valuelen(info, "a", NULL, &flag), MPI_ERR_ARG, "MPI_Info_get_valuelen",
               "valuelen=NULL");
  EXPECT_ERROR(MPI_Info_dup(info, NULL), MPI_ERR_ARG, "MPI_Info_dup", "newinfo=NULL");
  EXPECT_ERROR(MPI_Info_create(NULL), MPI_ERR_ARG, "MPI_Info_create", "info=NULL");
  EXPECT_ERROR(MPI_Comm_set_info(MPI_COMM_NULL, info), MPI_ERR_COMM, "MPI_Comm_set_info",
               "MPI_COMM_NULL");
  EXPECT_ERROR(MPI_Comm_set_info(MPI_COMM_WORLD, 987654), MPI_ERR_INFO, "MPI_Comm_set_info",
               "info=987654");
  EXPECT_ERROR(MPI_Comm_get_info(MPI_COMM_WORLD, NULL), MPI_ERR_ARG, "MPI_Comm_get_info",
               "info_used=NULL");
  const MPI_Info freed = info;
  CHECK_MPI(MPI_Info_free(&info));
  EXPECT_ERROR(MPI_Info_get_nkeys(freed, &n), MPI_ERR_INFO, "MPI_Info_get_nkeys", "info=");
}

int main(int argc, char** argv) {
  /* Info objects work before MPI_Init, and errors then are returned. */
  MPI_Info early;
  CHECK(MPI_Info_create(&early) == MPI_SUCCESS);
  CHECK(MPI_Info_set(early, "made", "before MPI_Init") == MPI_SUCCESS);
  CHECK(MPI_Info_delete(early, "absent") != MPI_SUCCESS);
  MPI_Info before_init;
  CHECK(MPI_Info_create_env(argc, argv, &before_init) == MPI_SUCCESS);
  /* MPI_THREAD_MULTIPLE is requested and provided; thread_level says what was requested. */
  int provided = -1;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  CHECK(provided == MPI_THREAD_MULTIPLE);
  errors_return();
  check_value(early, "made", "before MPI_Init");
  check_context("info objects");
  objects();
  check_context("MPI_INFO_ENV");
  environment(argc, argv, MPI_THREAD_MULTIPLE, before_init);
  MPI_Info while_running;
  CHECK_MPI(MPI_Info_dup(MPI_INFO_ENV, &while_running));
  check_context("hints on communicators");
  communicator_hints();
  check_context("error paths");
  error_paths();
  MPI_Finalize();
  char value[32];
  int flag = 0;
  if (MPI_Info_get(early, "made", 31, value, &flag) != MPI_SUCCESS || !flag ||
      MPI_Info_free(&early) != MPI_SUCCESS) {
    fprintf(stderr, "info objects failed after MPI_Finalize\n");
    return 1;
  }
  /* After MPI_Finalize, MPI_Info_create_env still gives what MPI_INFO_ENV held. */
  MPI_Info after;
  if (MPI_Info_create_env(argc, argv, &after) != MPI_SUCCESS ||
      !same_entries(after, while_running, 0)) {
    fprintf(stderr, "MPI_Info_create_env after MPI_Finalize differs from MPI_INFO_ENV\n");
    return 1;
  }
  MPI_Info_free(&after);
  MPI_Info_free(&while_running);
  MPI_Info_free(&before_init);
  return 0;
}
