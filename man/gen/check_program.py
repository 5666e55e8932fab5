"""Writes the C program that checks what the man 3 pages claim about errors. Each function is
called before MPI_Init: where its page says it needs MPI, MPI_ERR_OTHER must come back (for
MPI_T, before MPI_T_init_thread: MPI_T_ERR_NOT_INITIALIZED). Then, for every derived claim
(errors.py), it is called once per bad value with every other argument valid, and the class that
comes back must be the one the page names. Valid arguments come from the kinds and names of the
parameters; the objects they name are made by tests/man/check_fixtures.h."""
import errors

# Valid scalar values by parameter name (0 where not named).
VALUES = {
    "count": "1", "sendcount": "1", "recvcount": "1", "incount": "1", "outcount": "1",
    "origin_count": "1", "target_count": "1", "result_count": "1", "ndims": "1", "maxdims": "1",
    "n": "1", "maxprocs": "1", "partitions": "1", "length": "1", "blocklength": "1",
    "stride": "1", "nnodes": "1", "maxindex": "1", "maxedges": "1", "maxneighbors": "1",
    "maxindegree": "1", "maxoutdegree": "1", "disp_unit": "1", "size": "4", "extent": "4",
    "outsize": "64", "insize": "64", "valuelen": "16", "buflen": "64", "pset_len": "64",
    "r": "2", "p": "2", "commute": "1", "fd": "-1",
    "required": "MPI_THREAD_SINGLE", "amode": "MPI_MODE_RDWR", "whence": "MPI_SEEK_SET",
    "lock_type": "MPI_LOCK_SHARED", "order": "MPI_ORDER_C", "split_type": "MPI_COMM_TYPE_SHARED",
    "typeclass": "MPI_TYPECLASS_INTEGER", "errorcode": "MPI_ERR_OTHER",
    "errorclass": "MPI_ERR_OTHER", "comm_keyval": "g_comm_keyval", "keyval": "g_comm_keyval",
    "type_keyval": "g_type_keyval", "win_keyval": "g_win_keyval",
}
# Where one function needs another value than the name gives.
FUNCTION_VALUES = {("MPI_Type_create_darray", "size"): "1"}
# Arrays whose entries are 1 (sizes and counts); others hold 0 unless named here.
ONES = ("counts", "blocklengths", "sizes", "dims", "psizes", "gsizes", "degrees", "maxprocs",
        "weights")
ARRAY_VALUES = {"array_of_distribs": "MPI_DISTRIBUTE_BLOCK",
                "array_of_dargs": "MPI_DISTRIBUTE_DFLT_DARG"}
STRINGS = {"datarep": '"native"', "filename": "g_path", "pset_name": '"mpi://WORLD"',
           "command": '"/bin/true"', "port_name": '"weft-port:x"'}
# MPI_T's objects, by C type (MPI_T parameters have no kinds).
TOOL_OBJECTS = {"MPI_T_pvar_session": "g_pvar_session"}
# Calls the pass before MPI_Init leaves out: they would start the library (or MPI_T) there.
STARTS = {"MPI_Session_init", "MPI_T_init_thread"}
# Pointers to more than one value that the kinds do not say are arrays.
BUFFERS = {"f_status": "(MPI_Fint *)g_out", "c_status": "&g_status"}
HANDLES = {"Datatype": "MPI_INT", "Group": "g_group", "Op": "MPI_SUM", "Info": "g_info",
           "Win": "g_win", "File": "g_file", "Session": "g_session",
           "Errhandler": "MPI_ERRORS_RETURN", "Request": "MPI_REQUEST_NULL",
           "Message": "MPI_MESSAGE_NO_PROC"}


def _communicator(fn):
    """A communicator every other argument suits: one with the topology the call needs."""
    name = fn.name
    if "Neighbor" in name or name.startswith(("MPI_Cart", "MPI_Ineighbor")):
        return "g_cart"
    if name.startswith("MPI_Graph"):
        return "g_graph"
    if name.startswith("MPI_Dist_graph_neighbors"):
        return "g_dist_graph"
    return "MPI_COMM_WORLD"


def _element(fn, p):
    """A valid value of one element of p."""
    if p.kind == "Comm":
        return _communicator(fn)
    if p.kind in HANDLES:
        return HANDLES[p.kind]
    if p.ctype in TOOL_OBJECTS:
        return TOOL_OBJECTS[p.ctype]
    if (fn.name, p.name) in FUNCTION_VALUES:
        return FUNCTION_VALUES[(fn.name, p.name)]
    if p.array:
        if p.name in ARRAY_VALUES:
            return ARRAY_VALUES[p.name]
        return "1" if p.name.endswith(ONES) else "0"
    return VALUES.get(p.name, "0")


def _c_type(p):
    """The element type: the C type less const, the array brackets or one pointer level."""
    t = p.ctype.replace("const ", "").strip()
    if t.endswith("[]"):
        return t[:-2].strip()
    return t[:-1].strip() if t.endswith("*") else t


def argument(fn, p, value=None):
    """The C expression passed for p: `value` (an element) where given, else a valid one."""
    ctype = p.ctype.replace("const ", "").strip()
    if p.name in BUFFERS:
        return BUFFERS[p.name]
    if p.kind == "choice":
        return value or ("g_out" if p.intent != "in" else "g_in")
    if p.kind == "Status":
        if p.intent != "out":
            return "&g_status"
        return "MPI_STATUSES_IGNORE" if p.array else "MPI_STATUS_IGNORE"
    if p.kind.startswith("proc:"):
        return f"({p.ctype})weft_check_dummy"
    if p.kind == "cargs":  # NULL argc and argv pointers; MPI_Info_create_env's argc is an int
        return "NULL" if "*" in ctype or "[]" in ctype else "0"
    if p.kind == "extra_state" or "function" in ctype:
        return "NULL"
    if p.kind in ("attrval", "baseptr"):
        return "NULL" if p.intent == "in" and p.kind == "attrval" else "&g_ptr"
    if p.kind == "string":
        if p.name == "datarep" and "external" in fn.name:
            return '"external32"'
        return STRINGS.get(p.name, '"x"') if p.intent == "in" else "g_str"
    if p.kind in ("string_list", "string_lists"):
        return "NULL"
    if "[3]" in ctype:
        return "(int[][3]){{0, 0, 1}}"
    element = value or _element(fn, p)
    if p.array:
        return f"({_c_type(p)}[]){{{', '.join([element] * 4)}}}"
    if ctype.endswith("*"):
        if ctype in ("void *", "char *"):
            return "g_out" if ctype == "void *" else "g_str"
        return f"&({_c_type(p)}){{{element}}}"
    return element


def _call(fn, bad=None, value=None):
    args = [argument(fn, p, value if p is bad else None) for p in fn.params]
    return f"{fn.name}({', '.join(args)})"


def _quote(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _before_init(fn, entry):
    """The check of fn before MPI_Init (and MPI_T_init_thread)."""
    name = _quote(fn.name)
    if fn.ret != "int":  # MPI_Wtime, the handle conversions: it must return, nothing more
        return f"  CHECK_RETURNS({name}, {_call(fn)});"
    if fn.tools:
        return (f"  CHECK_CLASS({name}, \"before MPI_T_init_thread\", "
                f"MPI_T_ERR_NOT_INITIALIZED, {_call(fn)});")
    if entry.anytime:
        return f"  CHECK_ANYTIME({name}, {_call(fn)});"
    return f"  CHECK_CLASS({name}, \"before MPI_Init\", MPI_ERR_OTHER, {_call(fn)});"


def emit(functions, source):
    """The program's text: one check per line, run in order by main()."""
    before, after = [], []
    for fn in functions:
        entry = source.entries[fn.name[:-2] if fn.large_count else fn.name]
        if entry.unchecked or fn.variadic:
            continue
        if fn.name not in STARTS:
            before.append(_before_init(fn, entry))
        name = _quote(fn.name)
        for claim in errors.claims(fn, entry):
            for p, value in claim.cases:
                what = _quote(f"{p.name}={value}")
                after.append(f"  CHECK_CLASS({name}, {what}, {claim.error_class}, "
                             f"{_call(fn, p, value)});")
    lines = ["/* Generated by man/gen/generate.py from api/mpi.api and man/functions: do not edit. */",
             "#include \"check_fixtures.h\"", "",
             "static void before_init(void) {"] + before + ["}", "",
             "static void with_fixtures(void) {"] + after + ["}", "",
             "int main(int argc, char** argv) {",
             "  return run_checks(argc, argv, before_init, with_fixtures);", "}"]
    return "\n".join(lines) + "\n"
