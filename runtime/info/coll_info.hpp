// weft_info --coll: lists the collectives and their algorithms, or explains which algorithm a
// call of a given shape gets under the model MPI_Init would load, and why.
#pragma once

namespace weft::info {

// `argc`/`argv` are the arguments after "--coll". Returns the exit status.
int coll_main(int argc, char** argv);

}  // namespace weft::info
