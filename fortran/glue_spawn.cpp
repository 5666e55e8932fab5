// The Fortran glue of MPI_COMM_SPAWN and MPI_COMM_SPAWN_MULTIPLE: CHARACTER arrays of
// arguments, each list ended by a blank element (MPI 4.1 §11.8.3), become C argv arrays.
#include <string>
#include <vector>

#include "fortran/glue_support.hpp"

namespace weft::fortran {
namespace {

// One argv: the elements of a CHARACTER array at `stride` elements apart, up to the first blank
// one, trimmed; its pointers end with a null one, as C's do.
class Argv {
 public:
  Argv(const char* first, size_t length, size_t stride) {
    for (const char* element = first;; element += stride * length) {
      StringIn arg(element, length);
      if (*arg.c_str() == '\0') break;
      args_.emplace_back(arg.c_str());
    }
    for (auto& a : args_) pointers_.push_back(a.data());
    pointers_.push_back(nullptr);
  }
  char** c() { return pointers_.data(); }

 private:
  std::vector<std::string> args_;
  std::vector<char*> pointers_;
};

}  // namespace

template <bool P>
void comm_spawn(char* command, char* argv, MPI_Fint* maxprocs, MPI_Fint* info, MPI_Fint* root,
                MPI_Fint* comm, MPI_Fint* intercomm, MPI_Fint* errcodes, MPI_Fint* ierror,
                size_t command_len, size_t argv_len) {
  StringIn c_command(command, command_len);
  const bool no_argv = argv == &weft_mpi_argv_null_;
  Argv c_argv(no_argv ? "" : argv, no_argv ? 0 : argv_len, 1);
  set_ierror(ierror, WEFT_C(P, MPI_Comm_spawn)(c_command.c_str(),
                                               no_argv ? MPI_ARGV_NULL : c_argv.c(), *maxprocs,
                                               *info, *root, *comm, intercomm,
                                               int_array(errcodes)));
}

template <bool P>
void comm_spawn_multiple(MPI_Fint* count, char* commands, char* argvs, MPI_Fint* maxprocs,
                         MPI_Fint* infos, MPI_Fint* root, MPI_Fint* comm, MPI_Fint* intercomm,
                         MPI_Fint* errcodes, MPI_Fint* ierror, size_t commands_len,
                         size_t argvs_len) {
  const size_t n = *count > 0 ? size_t(*count) : 0;
  const bool no_argv = argvs == &weft_mpi_argvs_null_;
  std::vector<std::string> c_commands;
  std::vector<char*> command_pointers;
  std::vector<Argv> c_argvs;
  std::vector<char**> argv_pointers;
  c_argvs.reserve(n);  // an Argv holds pointers into its own strings: it must not move
  for (size_t i = 0; i < n; ++i) {
    c_commands.emplace_back(StringIn(commands + i * commands_len, commands_len).c_str());
    // ARRAY_OF_ARGV(COUNT, *): the arguments of command i are row i, column after column.
    if (!no_argv) c_argvs.emplace_back(argvs + i * argvs_len, argvs_len, n);
  }
  for (auto& c : c_commands) command_pointers.push_back(c.data());
  for (auto& a : c_argvs) argv_pointers.push_back(a.c());
  set_ierror(ierror, WEFT_C(P, MPI_Comm_spawn_multiple)(
                         *count, command_pointers.data(),
                         no_argv ? MPI_ARGVS_NULL : argv_pointers.data(), maxprocs, infos, *root,
                         *comm, intercomm, int_array(errcodes)));
}

}  // namespace weft::fortran

using namespace weft::fortran;
WEFT_F_NAMES(comm_spawn, comm_spawn,
             (char* c, char* a, MPI_Fint* m, MPI_Fint* i, MPI_Fint* r, MPI_Fint* co, MPI_Fint* ic,
              MPI_Fint* ec, MPI_Fint* e, size_t cl, size_t al),
             (c, a, m, i, r, co, ic, ec, e, cl, al))
WEFT_F_NAMES(comm_spawn_multiple, comm_spawn_multiple,
             (MPI_Fint* n, char* c, char* a, MPI_Fint* m, MPI_Fint* i, MPI_Fint* r, MPI_Fint* co,
              MPI_Fint* ic, MPI_Fint* ec, MPI_Fint* e, size_t cl, size_t al),
             (n, c, a, m, i, r, co, ic, ec, e, cl, al))
