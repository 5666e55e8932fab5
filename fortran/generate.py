"""Writes the Fortran bindings into the build tree: glue.cpp (the C++ bodies behind every Fortran
name), mpi.f90 and mpi_f08.f90 into SOURCE_DIR, mpif.h into INCLUDE_DIR (where the modules go).
Run by fortran/CMakeLists.txt:  python3 fortran/generate.py SOURCE_DIR INCLUDE_DIR"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path[:0] = [os.path.join(HERE, "gen"), os.path.join(ROOT, "api")]

import constants  # noqa: E402
import glue  # noqa: E402
import modules  # noqa: E402
import mpi_api  # noqa: E402


def write_if_changed(path, text):
    """Leaves an unchanged file alone, so the build does not recompile what it depends on."""
    if os.path.exists(path) and open(path).read() == text:
        return
    with open(path, "w") as f:
        f.write(text)


def main(out_dir, include_dir):
    bound = [f for f in mpi_api.load(ROOT) if not f.c_only and not (f.large_count and f.manual)]
    functions = [f for f in bound if not f.large_count]  # mpif.h and `use mpi`
    generated = [f for f in bound if not f.manual]
    consts, defines = constants.read(os.path.join(ROOT, "include", "mpi.h"))
    os.makedirs(out_dir, exist_ok=True)
    os.makedirs(include_dir, exist_ok=True)
    write_if_changed(os.path.join(out_dir, "glue.cpp"), glue.emit(generated))
    write_if_changed(os.path.join(include_dir, "mpif.h"), modules.mpif_h(consts, defines, functions))
    write_if_changed(os.path.join(out_dir, "mpi.f90"),
                     modules.module_mpi(consts, defines, functions))
    write_if_changed(os.path.join(out_dir, "mpi_f08.f90"),
                     modules.module_mpi_f08(consts, defines, bound))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
