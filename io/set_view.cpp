// MPI_File_set_view: checks, the new view, our own handles of its types, pointer reset.
#include <functional>

#include "io/agree.hpp"
#include "io/background.hpp"
#include "io/manage.hpp"

namespace weft::io {
namespace {

// Our own handle of a view's type, which the application may free (predefined types as they are).
MPI_Datatype keep(MPI_Datatype t, const Datatype& type) {
  MPI_Datatype copy = t;
  if (!type.is_predefined()) PMPI_Type_dup(t, &copy);
  return copy;
}

void drop(MPI_Datatype* t) {
  const Datatype* type = nullptr;
  if (find_datatype(*t, "type", &type).ok() && !type->is_predefined()) PMPI_Type_free(t);
  *t = MPI_BYTE;
}

Status make_view(File& f, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
                 const std::string& datarep, View* out) {
  if (disp == MPI_DISPLACEMENT_CURRENT) {
    if (!(f.amode & MPI_MODE_SEQUENTIAL))
      return Status::error(MPI_ERR_ARG,
                           "disp=MPI_DISPLACEMENT_CURRENT needs a file opened "
                           "MPI_MODE_SEQUENTIAL");
    MPI_Offset pos = 0;
    WEFT_TRY(f.shared.fetch_add(0, &pos));
    disp = f.view.byte_offset(pos * MPI_Offset(f.view.etype_bytes()));
  } else if (disp < 0) {
    return Status::error(MPI_ERR_ARG, "invalid disp=" + std::to_string(disp) + " (must be >= 0)");
  }
  const Datatype *e = nullptr, *ft = nullptr;
  WEFT_TRY(find_committed_datatype(etype, "etype", &e));
  WEFT_TRY(find_committed_datatype(filetype, "filetype", &ft));
  return View::make(disp, *e, *ft, datarep, out);
}

}  // namespace

void release_view(File& f) {
  drop(&f.view_etype);
  drop(&f.view_filetype);
}

Status store_shared(File& f, MPI_Offset value) {
  PMPI_Barrier(f.comm);  // every earlier shared-pointer access is done
  Status s = f.rank == 0 ? f.shared.store(value) : Status::success();
  return agree(f.comm, std::move(s));  // and nobody goes on before the store
}

Status set_view(File& f, MPI_Offset disp, MPI_Datatype etype, MPI_Datatype filetype,
                const char* datarep, MPI_Info info) {
  WEFT_TRY(finish_collectives(f));
  const std::string rep = datarep;
  WEFT_TRY(check_same(f.comm, (long long)std::hash<std::string>{}(rep), "datarep=\"" + rep + "\""));
  View v;
  WEFT_TRY(agree(f.comm, make_view(f, disp, etype, filetype, rep, &v)));
  WEFT_TRY(check_same(f.comm, (long long)v.etype_bytes(), "the etype's size"));
  release_view(f);
  f.view_etype = keep(etype, v.etype());
  f.view_filetype = keep(filetype, v.filetype());
  f.view = std::move(v);
  f.pointer = 0;
  f.hints.update(info);
  return store_shared(f, 0);
}

}  // namespace weft::io
