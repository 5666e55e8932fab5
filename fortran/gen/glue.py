"""The C++ glue behind the Fortran bindings: for each function one body per name, mpi_x_ calling
MPI_X and pmpi_x_ calling PMPI_X, with gfortran's conventions (every argument by reference, the
lengths of CHARACTER arguments appended as size_t, an absent OPTIONAL ierror as a null pointer).
The mpi_f08 specifics (mpi_x_f08_, pmpi_x_f08_) are aliases of the same two bodies: their
handles are derived types holding the same integer, so they pass the same bytes."""

PASS_THROUGH = {"int": "MPI_Fint", "logical": "MPI_Fint", "Aint": "MPI_Aint",
                "Offset": "MPI_Offset", "Count": "MPI_Count", "Comm": "MPI_Fint",
                "Datatype": "MPI_Fint", "Group": "MPI_Fint", "Info": "MPI_Fint", "Op": "MPI_Fint",
                "Errhandler": "MPI_Fint", "Win": "MPI_Fint", "File": "MPI_Fint",
                "Session": "MPI_Fint"}
POINTER_HANDLES = {"Request": ("MPI_Request", "MPI_REQUEST_NULL"),
                   "Message": ("MPI_Message", "MPI_MESSAGE_NULL")}
NS = "weft::fortran::"


def linker_name(name, profiling=False, f08=False):
    return ("p" if profiling else "") + name.lower() + ("_f08" if f08 else "") + "_"


def _is_pointer(ctype):
    return "*" in ctype or "[" in ctype


class _Body:
    """The parts of one glue function, filled parameter by parameter."""

    def __init__(self):
        self.signature, self.hidden, self.prelude, self.args, self.after = [], [], [], [], []


def _parameter(body, fn, p):
    c = p.name + "_c"
    if p.kind == "cargs":
        body.args.append("nullptr" if _is_pointer(p.ctype) else "0")
        return
    if p.kind == "choice" or p.kind == "baseptr":
        body.signature.append(f"void* {p.name}")
        body.args.append(f"{NS}choice({p.name})" if p.kind == "choice" else p.name)
        return
    if p.kind == "string":
        body.signature.append(f"char* {p.name}")
        body.hidden.append(f"size_t {p.name}_len")
        if p.intent != "in":
            body.prelude.append(f"{NS}StringOut {c}({p.name}, {p.name}_len);")
        elif fn.name.startswith("MPI_Info_"):  # keys and values lose blanks at both ends
            body.prelude.append(f"{NS}StringIn {c}({p.name}, {p.name}_len, true);")
        else:
            body.prelude.append(f"{NS}StringIn {c}({p.name}, {p.name}_len);")
        body.args.append(f"{c}.c_str()")
        return
    if p.kind == "attrval":
        body.signature.append(f"MPI_Aint* {p.name}")
        body.args.append(f"reinterpret_cast<void*>(*{p.name})")
        return
    if p.kind.startswith("proc:"):
        body.signature.append(f"MPI_{p.kind[5:]}* {p.name}")
        body.args.append(p.name)
        return
    if p.kind == "Status":
        body.signature.append(f"MPI_Fint* {p.name}")
        if p.array:
            body.prelude.append(f"{NS}StatusesOut {c}({p.name}, *{p.length});")
        elif p.intent == "in":
            body.prelude.append(f"{NS}StatusIn {c}({p.name});")
        elif p.intent == "inout":
            body.prelude.append(f"MPI_Status {c};")
            body.prelude.append(f"PMPI_Status_f2c({p.name}, &{c});")
            body.after.append(f"PMPI_Status_c2f(&{c}, {p.name});")
            body.args.append(f"&{c}")
            return
        else:
            body.prelude.append(f"{NS}StatusOut {c}({p.name});")
        body.args.append(f"{c}.c()")
        return
    if p.kind == "index":
        body.signature.append(f"MPI_Fint* {p.name}")
        if p.array:
            body.args.append(p.name)
            body.after.append(f"{NS}fortran_indices({p.name}, {p.length});")
        else:
            body.prelude.append(f"int {c} = MPI_UNDEFINED;")
            body.args.append(f"&{c}")
            body.after.append(f"*{p.name} = {NS}fortran_index({c});")
        return
    if p.kind in POINTER_HANDLES:
        ctype, null = POINTER_HANDLES[p.kind]
        kind = p.kind
        body.signature.append(f"MPI_Fint* {p.name}")
        if p.array:
            if kind != "Request":
                raise ValueError(f"{fn.name}: arrays of {kind} are not converted")
            body.prelude.append(f"{NS}RequestsInOut {c}({p.name}, *{p.length});")
            body.prelude.append(f"if (!{c}.ok()) return {NS}bad_request(ierror);")
            body.args.append(f"{c}.c()")
            return
        body.prelude.append(f"{ctype} {c} = {null};")
        if p.intent != "out" and kind == "Request":  # an unknown integer is an error, not null
            body.prelude.append(f"if (!{NS}request_in(*{p.name}, &{c})) "
                                f"return {NS}bad_request(ierror);")
        elif p.intent != "out":
            body.prelude.append(f"{c} = PMPI_{kind}_f2c(*{p.name});")
        body.args.append(f"&{c}" if _is_pointer(p.ctype) else c)
        if _is_pointer(p.ctype) and p.intent != "in":
            body.after.append(f"*{p.name} = PMPI_{kind}_c2f({c});")
        return
    if p.kind in PASS_THROUGH:
        body.signature.append(f"{PASS_THROUGH[p.kind]}* {p.name}")
        if p.length == "3" and p.array:
            body.args.append(f"reinterpret_cast<int (*)[3]>({p.name})")
        elif p.array and p.kind == "int":
            body.args.append(f"{NS}int_array({p.name})")
        else:
            body.args.append(p.name if _is_pointer(p.ctype) else f"*{p.name}")
        return
    raise ValueError(f"{fn.name}: no glue for parameter {p.name} of kind {p.kind}")


def _function(fn):
    body = _Body()
    for p in fn.params:
        _parameter(body, fn, p)
    returns = fn.ret != "int"
    if not returns:
        body.signature.append("MPI_Fint* ierror")
    return body, returns


def emit(functions):
    out = ["// Generated by fortran/generate.py from api/mpi.api: do not edit.",
           '#include "fortran/glue_support.hpp"', "", 'extern "C" {']
    for fn in functions:
        body, returns = _function(fn)
        signature = ", ".join(body.signature + body.hidden) or "void"
        result = fn.ret if returns else "void"
        for profiling in (False, True):
            name = linker_name(fn.name, profiling)
            target = ("P" if profiling else "") + fn.name
            out.append(f"{result} {name}({signature}) {{")
            out += ["  " + line for line in body.prelude]
            call = f"{target}({', '.join(body.args)})"
            if returns:
                out.append(f"  return {call};")
            else:
                out.append(f"  const int rc = {call};")
                out += ["  " + line for line in body.after]
                out.append("  if (ierror) *ierror = rc;")
            out.append("}")
            out.append(f"{result} {linker_name(fn.name, profiling, f08=True)}({signature}) "
                       f"__attribute__((alias(\"{name}\")));")
    out.append("}")
    return "\n".join(out) + "\n"
