"""The SYNOPSIS of a page: the C prototypes as mpi.h declares them (the large-count form beside
the int form), and the Fortran interfaces of `use mpi` and `use mpi_f08` as fortran/gen writes
them into the modules."""
import interfaces
import mpi_api
import modules

WIDTH = 72  # man indents the synopsis by 7 columns: 80 in all


def wrap_call(head, args, tail, width=WIDTH):
    """head(arg, arg, ...)tail with continuation lines aligned after the parenthesis."""
    lines, line = [], head + "("
    indent = " " * len(line)
    for i, arg in enumerate(args):
        piece = arg + (", " if i < len(args) - 1 else ")" + tail)
        if len(line) + len(piece.rstrip()) > width and line.strip() != head + "(":
            lines.append(line.rstrip())
            line = indent
        line += piece
    if not args:
        line += ")" + tail
    return lines + [line]


def c_lines(fn):
    return wrap_call(f"{fn.ret} {fn.name}", mpi_api.c_parameters(fn) or ["void"], ";")


def has_fortran(fn):
    return not fn.c_only and not fn.tools


def _fortran_body(fn, name, f08):
    """An interface body without what only the module needs (import, implicit none, the
    compiler directive that lets a buffer take any type)."""
    lines = []
    for line in interfaces.body(fn, name, f08):
        text = line.strip()
        if text in ("import", "implicit none") or text.startswith("!GCC$"):
            continue
        for piece in interfaces.wrap(line, WIDTH - 2):
            lines.append(piece)
    return lines


def fortran_lines(fn):
    """`use mpi` (and mpif.h): the int form only, INTEGER handles."""
    return _fortran_body(fn, fn.name, f08=False)


def f08_lines(forms, all_functions):
    """`use mpi_f08`: each form as a specific of its generic name (a large-count form keeps its
    own name where the two could not be told apart), as fortran/gen/modules.py declares them."""
    bound = [f for f in forms if has_fortran(f) and not (f.large_count and f.manual)]
    generic_of = {}
    for generic, specifics in modules.generics(all_functions).items():
        for f in specifics:
            generic_of[f.name] = generic
    lines = []
    for f in bound:
        name = generic_of.get(f.name, f.name)
        if lines:
            lines.append("")
        if name != f.name:
            lines.append(f"! {f.name}: the large-count form")
        lines += _fortran_body(f, name, f08=True)
    return lines
