"""The named constants of include/mpi.h as Fortran sees them: each integer #define with its value
and its Fortran type (a default INTEGER, an INTEGER(KIND=...) or, for mpi_f08, a handle type)."""
import re
from dataclasses import dataclass

# Pointer-typed C handles have integer Fortran handles (runtime/fortran_handles.hpp): the null
# ones convert to 0 and MPI_MESSAGE_NO_PROC to 1.
POINTER_HANDLE_VALUES = {"MPI_REQUEST_NULL": ("Request", 0), "MPI_MESSAGE_NULL": ("Message", 0),
                         "MPI_MESSAGE_NO_PROC": ("Message", 1)}
HANDLE_TYPES = {"MPI_Comm": "Comm", "MPI_Datatype": "Datatype", "MPI_Group": "Group",
                "MPI_Info": "Info", "MPI_Op": "Op", "MPI_Errhandler": "Errhandler",
                "MPI_Win": "Win", "MPI_File": "File", "MPI_Session": "Session"}
# The kind of a wide constant, by its C cast.
WIDE_CASTS = {"MPI_Offset": "MPI_OFFSET_KIND", "MPI_Aint": "MPI_ADDRESS_KIND",
              "MPI_Count": "MPI_COUNT_KIND"}
# C-only names: the C view of Fortran statuses, the tools interface, C pointer sentinels.
C_ONLY = re.compile(r"^MPI_(T_|F_|F08_)")


@dataclass
class Constant:
    name: str
    value: int
    handle: str = None  # "Comm", ... for handles (mpi_f08 gives them a derived type)
    kind: str = None    # "MPI_OFFSET_KIND", ... for constants wider than a default INTEGER


def _defines(header_text):
    text = re.sub(r"/\*.*?\*/", "", header_text, flags=re.S)
    return dict(re.findall(r"^#define (MPI_[A-Z0-9_]+)[ \t]+([^\n]+?)\s*$", text, flags=re.M))


def _evaluate(name, defines, seen=()):
    """(value, cast type or None) of one define, or None when it is not an integer constant."""
    text = defines[name].strip()
    if text in defines and text not in seen:                  # an alias: MPI_LONG_LONG
        return _evaluate(text, defines, seen + (name,))
    m = re.fullmatch(r"\(\((\w+)\)\s*(-?(?:0x[0-9a-fA-F]+|\d+))\)", text)
    if m:
        return int(m.group(2), 0), m.group(1)
    m = re.fullmatch(r"\(?\s*(-?(?:0x[0-9a-fA-F]+|\d+))\s*\)?", text)
    if m:
        return int(m.group(1), 0), None
    return None


def read(header_path):
    defines = _defines(open(header_path).read())
    constants = []
    for name in defines:
        if C_ONLY.match(name):
            continue
        if name in POINTER_HANDLE_VALUES:
            handle, value = POINTER_HANDLE_VALUES[name]
            constants.append(Constant(name, value, handle=handle))
            continue
        evaluated = _evaluate(name, defines)
        if evaluated is None:
            continue
        value, cast = evaluated
        if cast in HANDLE_TYPES:
            constants.append(Constant(name, value, handle=HANDLE_TYPES[cast]))
        elif cast in WIDE_CASTS:
            constants.append(Constant(name, value, kind=WIDE_CASTS[cast]))
        elif cast in (None, "int"):
            if not -2**31 <= value < 2**31:
                raise ValueError(f"{name} = {value} does not fit a default INTEGER")
            constants.append(Constant(name, value))
        else:
            raise ValueError(f"{name}: no Fortran form for a constant of C type {cast}")
    return constants, defines
