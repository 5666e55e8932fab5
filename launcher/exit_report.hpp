// How weftrun describes the end of a rank and which exit code the job gets.
#pragma once
#include <sys/types.h>

#include <string>

namespace weft::launcher {

// "SIGSEGV" for 11 etc.; "signal N" when unknown.
std::string signal_name(int sig);
// "exited with code 3" or "killed by SIGSEGV (Segmentation fault)".
std::string describe_status(int wait_status);
// One line for a rank that ended badly, from its waitpid() status, e.g.
// "rank 2 (pid 4711) killed by SIGSEGV (Segmentation fault)" or "rank 1 (pid 9) exited with code 3".
std::string describe_rank_end(int rank, pid_t pid, int wait_status);
// The job's exit code for that status: the rank's code, or 128 + signal.
int exit_code_for(int wait_status);
// A rank's end that fails the job: non-zero exit or death by a signal.
bool is_failure(int wait_status);

}  // namespace weft::launcher
