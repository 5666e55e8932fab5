// A datatype as a registered data representation lays it out in the file (MPI 4.1 §14.5.1):
// what a view in such a representation maps its etype and filetype with, and what
// MPI_File_get_type_extent reports for a derived type.
#pragma once
#include <memory>

#include "io/datarep.hpp"
#include "runtime/datatype/datatype.hpp"

namespace weft::io {

// `t` rebuilt with every predefined type a block of its file size (extents.of). Constructors
// that count in extents of their old type (contiguous, vector, indexed, indexed_block,
// subarray, darray: the standard's "portable" ones, and dup) keep their arguments, so their
// displacements scale with the sizes; byte displacements and bounds (hvector, hindexed,
// hindexed_block, struct, resized) stay as the application gave them, as the standard says.
Status file_layout(const Datatype& t, FileExtents& extents, std::shared_ptr<const Datatype>* out);

}  // namespace weft::io
