"""The error classes a function returns, derived from its parameters' kinds and names (a Comm
parameter: MPI_ERR_COMM, a count: MPI_ERR_COUNT, ...), less what its entry in man/functions says
does not hold, plus the entry's own. The same rules give the check program (check_program.py)
the bad values that must produce each class, so every derived claim is also a test."""
from dataclasses import dataclass, field

BOGUS = "987654"  # a value no handle of any kind has

COUNT_NAMES = {"count", "sendcount", "recvcount", "incount", "origin_count", "target_count",
               "result_count"}
COUNT_ARRAYS = {"sendcounts", "recvcounts"}
RANK_NAMES = {"dest", "source", "target_rank"}
TAG_NAMES = {"tag", "sendtag", "recvtag"}
# Buffers whose NULL address is refused when their count is positive.
BUFFER_COUNTS = {"buf": "count", "sendbuf": "sendcount", "recvbuf": "recvcount",
                 "origin_addr": "origin_count"}
# MPI_T parameters that index a variable, category, source or event type.
TOOL_INDICES = {"cvar_index", "pvar_index", "cat_index", "source_index", "event_index"}
HANDLES = {  # kind: (class, null handle, what a valid one is)
    "Comm": ("MPI_ERR_COMM", "MPI_COMM_NULL", "a communicator"),
    "Datatype": ("MPI_ERR_TYPE", "MPI_DATATYPE_NULL", "a datatype"),
    "Group": ("MPI_ERR_GROUP", "MPI_GROUP_NULL", "a group"),
    "Op": ("MPI_ERR_OP", "MPI_OP_NULL", "an operation"),
    "Win": ("MPI_ERR_WIN", "MPI_WIN_NULL", "a window"),
    "File": ("MPI_ERR_FILE", "MPI_FILE_NULL", "a file handle"),
    "Session": ("MPI_ERR_SESSION", "MPI_SESSION_NULL", "a session"),
    "Errhandler": ("MPI_ERR_ERRHANDLER", "MPI_ERRHANDLER_NULL", "an error handler"),
}


@dataclass
class Claim:
    """One error class and when it is returned; `cases` are (parameter, bad C value) pairs the
    check program passes, the other arguments being valid. The value is of the parameter's
    element type: the program passes its address, or an array of it, where the C type asks."""
    error_class: str
    when: list = field(default_factory=list)   # phrases, joined with "; "
    cases: list = field(default_factory=list)


def _names(params):
    names = ["{%s}" % p.name for p in params]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def _is_input(p):
    return p.intent in ("in", "inout")


def _handle_claims(fn, null_ok):
    """`null_ok`: parameters whose null handle the function accepts."""
    claims = []
    for kind, (cls, null, what) in HANDLES.items():
        params = [p for p in fn.params if p.kind == kind and _is_input(p)]
        if not params:
            continue
        claim = Claim(cls)
        nulls = [p for p in params if not p.array and p.name not in null_ok]
        text = f"{_names(params)} is not {what} in use"
        if nulls:
            text += f" ({null} included)"
        claim.when.append(text + "".join(f" ({null} is allowed for {{{p.name}}})"
                                         for p in params if p.name in null_ok))
        claim.cases += [(p, f"(MPI_{kind}){BOGUS}") for p in params]
        claim.cases += [(p, null) for p in nulls]
        claims.append(claim)
    return claims


def _info_claim(fn):
    params = [p for p in fn.params if p.kind == "Info" and _is_input(p)]
    if not params:
        return []
    if fn.name.startswith("MPI_Info_"):  # the info functions need an object
        claim = Claim("MPI_ERR_INFO", [f"{_names(params)} is not an info object (MPI_INFO_NULL "
                                       "included)"])
        claim.cases = [(p, "MPI_INFO_NULL") for p in params]
    else:
        claim = Claim("MPI_ERR_INFO", [f"{_names(params)} is neither MPI_INFO_NULL nor an info "
                                       "object"])
    claim.cases += [(p, f"(MPI_Info){BOGUS}") for p in params]
    return [claim]


def _count_claims(fn):
    counts = [p for p in fn.params if p.name in COUNT_NAMES and p.kind in ("int", "Count")
              and not p.array and p.intent == "in"]
    count_arrays = [p for p in fn.params if p.name in COUNT_ARRAYS and p.array]
    if not counts and not count_arrays:
        return []
    claim = Claim("MPI_ERR_COUNT")
    if counts:
        claim.when.append(f"{_names(counts)} is negative")
    if count_arrays:
        claim.when.append(f"an entry of {_names(count_arrays)} is negative")
    claim.cases = [(p, "-1") for p in counts + count_arrays]
    return [claim]


def _buffer_claims(fn):
    by_name = {p.name: p for p in fn.params}
    buffers = [p for p in fn.params if p.kind == "choice" and BUFFER_COUNTS.get(p.name) in by_name
               and not by_name[BUFFER_COUNTS[p.name]].array]
    if not buffers:
        return []
    return [Claim("MPI_ERR_BUFFER", [f"{_names(buffers)} is NULL while its count is positive"],
                  [(p, "NULL") for p in buffers])]


def _envelope_claims(fn):
    """Ranks, tags and roots of calls on a communicator or window."""
    claims = []
    has_comm = any(p.kind == "Comm" for p in fn.params)
    ranks = [p for p in fn.params if p.name in RANK_NAMES and p.kind == "int"]
    if ranks and (has_comm or any(p.kind == "Win" for p in fn.params)):
        source = any(p.name == "source" for p in ranks)
        text = (f"{_names(ranks)} is not a rank of the communicator (of the remote group of an "
                f"intercommunicator) nor MPI_PROC_NULL"
                + (" (nor MPI_ANY_SOURCE for {source})" if source else ""))
        claims.append(Claim("MPI_ERR_RANK", [text], [(p, v) for p in ranks
                                                     for v in ("1000000", "-1000")]))
    tags = [p for p in fn.params if p.name in TAG_NAMES and p.kind == "int" and has_comm]
    if tags:
        text = f"{_names(tags)} is negative or above MPI_TAG_UB"
        if any(p.name in ("tag", "recvtag") and _receives(fn) for p in tags):
            text += " (MPI_ANY_TAG is allowed where a message is received)"
        claims.append(Claim("MPI_ERR_TAG", [text], [(p, v) for p in tags
                                                   for v in ("-5", "(1 << 30)")]))
    roots = [p for p in fn.params if p.name == "root" and p.kind == "int"]
    if roots:
        claims.append(Claim("MPI_ERR_ROOT", ["{root} is not a rank of {comm} (on an "
                                             "intercommunicator: not MPI_ROOT, MPI_PROC_NULL or a "
                                             "rank of the remote group)"],
                            [(roots[0], "1000000")]))
    return claims


def _receives(fn):
    return any(p.name in ("source", "recvtag") for p in fn.params)


def _tools_claims(fn):
    """MPI_T returns codes of its own and reads no kinds: indices and names by parameter name."""
    claims = []
    if fn.name != "MPI_T_init_thread":
        claims.append(Claim("MPI_T_ERR_NOT_INITIALIZED",
                            ["called outside MPI_T_init_thread and the matching MPI_T_finalize"]))
    indices = [p for p in fn.params if p.name in TOOL_INDICES and "*" not in p.ctype]
    if indices:
        claims.append(Claim("MPI_T_ERR_INVALID_INDEX", [f"{_names(indices)} is out of range"],
                            [(p, "1000000") for p in indices]))
    if fn.name.endswith("_get_index"):
        claims.append(Claim("MPI_T_ERR_INVALID_NAME", ["no variable, category or event has {name}"],
                            [(fn.params[0], '"no such name"')]))
    return claims


def derived(fn, null_ok=()):
    """Every claim the kinds and names of fn's parameters support, in a fixed order."""
    if fn.tools:
        return _tools_claims(fn)
    return (_handle_claims(fn, null_ok) + _info_claim(fn) + _count_claims(fn) +
            _buffer_claims(fn) + _envelope_claims(fn))


def _add(out, error_class, when, cases=()):
    """Adds a claim to `out`, or its phrases and cases to the claim of the same class."""
    for prior in out:
        if prior.error_class == error_class:
            prior.when += when
            prior.cases += cases
            return
    out.append(Claim(error_class, list(when), list(cases)))


def claims(fn, entry):
    """What the page of fn says: the derived claims less those the entry drops, the entry's own
    (without cases: the check program does not test them), and MPI_ERR_OTHER before MPI_Init.
    A function that returns something else than an error code (MPI_Wtime, MPI_Comm_c2f) has none."""
    if fn.ret != "int":
        return []
    out = []
    for claim in derived(fn, entry.null_ok):
        if claim.error_class not in entry.dropped and claim.error_class not in entry.chapter.dropped:
            _add(out, claim.error_class, claim.when, claim.cases)
    for error_class, text in entry.errors:
        _add(out, error_class, [text])
    if not entry.anytime and not fn.tools:
        _add(out, "MPI_ERR_OTHER", ["called before MPI_Init or MPI_Session_init, or after the "
                                    "library was finalized"])
    return out
