"""Fortran interface bodies of the `mpi` module (INTEGER handles) and of `mpi_f08` (derived-type
handles, optional ierror), one per function of api/mpi.api."""

HANDLE_KINDS = ("Comm", "Datatype", "Group", "Info", "Op", "Errhandler", "Win", "File",
                "Session", "Request", "Message")
WIDE = {"Aint": "integer(kind=MPI_ADDRESS_KIND)", "Offset": "integer(kind=MPI_OFFSET_KIND)",
        "Count": "integer(kind=MPI_COUNT_KIND)", "attrval": "integer(kind=MPI_ADDRESS_KIND)",
        "extra_state": "integer(kind=MPI_ADDRESS_KIND)"}
# The MPI-1 attribute calls keep values and extra state in default INTEGERs.
DEFAULT_INTEGER_VALUES = ("MPI_Attr_get", "MPI_Attr_put", "MPI_Keyval_create")
# Nonblocking and persistent calls keep using their buffers after returning.
ASYNC_PREFIXES = ("MPI_I", "MPI_R", "MPI_File_i", "MPI_Psend", "MPI_Precv")


def _is_async(fn):
    return fn.name.startswith(ASYNC_PREFIXES) or fn.name.endswith("_init")


def _declaration(fn, p, f08):
    """The declaration lines of one dummy argument, or [] when Fortran does not have it."""
    intent = "" if p.intent is None else f", intent({p.intent})"
    dims = ""
    if p.array:
        dims = "(3,*)" if p.length == "3" else "(*)"
    kind = p.kind
    if kind == "cargs":
        return []
    if kind == "choice" or (kind == "baseptr" and not f08 and "detach" in fn.name):
        attrs = ", asynchronous" if f08 and _is_async(fn) else ""
        return [f"!GCC$ ATTRIBUTES NO_ARG_CHECK :: {p.name}",
                f"type(*), dimension(*){attrs} :: {p.name}"]
    if kind == "baseptr":
        return [(f"type(c_ptr){intent}" if f08 else
                 f"integer(kind=MPI_ADDRESS_KIND){intent}") + f" :: {p.name}"]
    if kind.startswith("proc:"):
        return [f"external :: {p.name}"]
    if kind in ("string", "string_list", "string_lists"):
        if kind == "string_lists":
            dims = "(count,*)" if fn.name == "MPI_Comm_spawn_multiple" else "(*)"
        elif kind == "string_list":
            dims = "(*)"
        return [f"character(len=*){intent} :: {p.name}{dims}"]
    if kind == "Status":
        if f08:
            return [f"type(MPI_Status){intent} :: {p.name}{dims}"]
        shape = "(MPI_STATUS_SIZE,*)" if p.array else "(MPI_STATUS_SIZE)"
        return [f"integer{intent} :: {p.name}{shape}"]
    if kind in HANDLE_KINDS:
        ftype = f"type(MPI_{kind})" if f08 else "integer"
        return [f"{ftype}{intent} :: {p.name}{dims}"]
    if kind in ("attrval", "extra_state") and fn.name in DEFAULT_INTEGER_VALUES:
        return [f"integer{intent} :: {p.name}"]
    if kind in WIDE:
        return [f"{WIDE[kind]}{intent} :: {p.name}{dims}"]
    if kind == "logical":
        return [f"logical{intent} :: {p.name}{dims}"]
    if kind in ("int", "index"):
        return [f"integer{intent} :: {p.name}{dims}"]
    raise ValueError(f"{fn.name}: no Fortran declaration for {p.name} of kind {kind}")


def resolution_key(fn):
    """What tells a specific apart in a generic interface: the types, kinds and ranks of its
    dummies, less the choice buffers (they accept anything, so they never decide)."""
    key = []
    for p in fn.params:
        if p.kind in ("choice", "cargs"):
            continue
        decl = _declaration(fn, p, f08=True)[-1]
        for wide in set(WIDE.values()):  # the three kinds are one: 8-byte integers
            decl = decl.replace(wide, "integer(8)")
        key.append(decl.split("::")[0].replace(", intent(in)", "").replace(", intent(out)", "")
                   .replace(", intent(inout)", "").strip() + ("(*)" if p.array else ""))
    return tuple(key)


def dummy_names(fn):
    return [p.name for p in fn.params if p.kind != "cargs"]


def body(fn, name, f08):
    """One interface body (subroutine or function) named `name`."""
    args = dummy_names(fn)
    returns = fn.ret != "int"
    lines = []
    if not returns:
        args = args + ["ierror"]
    head = ("function" if returns else "subroutine") + f" {name}({', '.join(args)})"
    if returns:
        head = ("double precision " if fn.ret == "double" else
                "integer(kind=MPI_ADDRESS_KIND) ") + head
    lines.append(head)
    lines.append("  import")
    lines.append("  implicit none")
    for p in fn.params:
        lines += ["  " + d for d in _declaration(fn, p, f08)]
    if not returns:
        lines.append("  integer, optional, intent(out) :: ierror" if f08 else
                     "  integer, intent(out) :: ierror")
    lines.append(f"end {'function' if returns else 'subroutine'} {name}")
    return lines


def wrap(line, width=120):
    """Free-form continuation for a long line."""
    out = []
    while len(line) > width:
        cut = line.rfind(",", 0, width) + 1 or width
        out.append(line[:cut] + " &")
        line = "    " + line[cut:].lstrip()
    return out + [line]
