"""The MPI API as Weft provides it: api/mpi.api (kinds and intents) joined with include/mpi.h
(C types), checked against each other. Generators import this module; nothing else parses
either file."""
import os
import re
from dataclasses import dataclass, field


class ApiError(Exception):
    pass


@dataclass
class Param:
    name: str            # as in mpi.h ("buf", "ranges")
    ctype: str           # C type text as in mpi.h, name removed ("const void *", "int [][3]")
    kind: str            # base kind from mpi.api ("choice", "int", "Request", "proc:User_function")
    intent: str          # "in", "out" or "inout"
    array: bool = False  # kind[] / kind[n]
    length: str = None   # n of kind[n], or "3" for int[][3] (the inner extent)
    decl: str = ""       # the parameter exactly as mpi.h declares it


@dataclass
class Function:
    name: str                      # "MPI_Send"
    ret: str                       # C return type ("int", "double", "MPI_Aint")
    params: list = field(default_factory=list)
    variadic: bool = False         # C has "..." (MPI_Pcontrol)
    c_only: bool = False           # no Fortran binding
    manual: bool = False           # Fortran glue written by hand
    large_count: bool = False      # an MPI_*_c form (derived from its int form)
    tools: bool = False            # MPI_T_*


def c_parameters(fn):
    """fn's parameters as mpi.h declares them, "..." last for a variadic one."""
    return [p.decl for p in fn.params] + (["..."] if fn.variadic else [])


def c_declaration(fn, name=None):
    """The C prototype of fn under another name (e.g. PMPI_Send), without the semicolon."""
    return f"{fn.ret} {name or fn.name}({', '.join(c_parameters(fn)) or 'void'})"


def c_call_args(fn):
    return ", ".join(p.name for p in fn.params)


_LINE = re.compile(r"^(MPI_\w+)\((.*)\)\s*(?:->\s*([\w *]+?))?\s*((?:\[\w+\]\s*)*)$")
_PARAM = re.compile(r"^(\w+): ([\w:]+)(\[(\w*)\](?:\[(\d+)\])?)?(?: (in|out|inout))?$")


def _read_description(path):
    described = {}
    for number, line in enumerate(open(path), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        m = _LINE.match(line)
        if not m:
            raise ApiError(f"{path}:{number}: cannot read: {line}")
        name, params, ret, flags = m.groups()
        flags = set(re.findall(r"\[(\w+)\]", flags or ""))
        unknown = flags - {"c", "manual"}
        if unknown:
            raise ApiError(f"{path}:{number}: unknown flag {sorted(unknown)}")
        plist = []
        for text in filter(None, (t.strip() for t in params.split(","))):
            pm = _PARAM.match(text)
            if not pm:
                raise ApiError(f"{path}:{number}: cannot read parameter '{text}'")
            pname, kind, brackets, length, inner, intent = pm.groups()
            plist.append(Param(pname, "", kind, intent or "in", bool(brackets),
                               inner or (length or None)))
        if name in described:
            raise ApiError(f"{path}:{number}: {name} described twice")
        described[name] = (ret, plist, "c" in flags, "manual" in flags)
    return described


def _strip_header(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    return re.sub(r"WEFT_REMOVED_IN_MPI3\([^)]*\)", "", text)


_PROTO = re.compile(r"(?:^|\n)\s*((?:const\s+)?[A-Za-z_]\w*(?:\s*\*)?)\s*\b(MPI_\w+)\s*\(([^;{}]*?)\)\s*;")


def _read_header(path):
    """{name: (ret, [(ctype, pname, decl)], variadic)} for every MPI_ function mpi.h declares."""
    found = {}
    for ret, name, args in _PROTO.findall(_strip_header(open(path).read())):
        if name in found:
            continue
        args = " ".join(args.split())
        params, variadic = [], False
        if args not in ("", "void"):
            for decl in (a.strip() for a in args.split(",")):
                if decl == "...":
                    variadic = True
                    continue
                m = re.match(r"^(.*?)\b(\w+)((?:\[\w*\])*)$", decl)
                if not m:
                    raise ApiError(f"mpi.h: cannot read parameter '{decl}' of {name}")
                ctype = (m.group(1).strip() + " " + m.group(3)).strip()
                params.append((ctype, m.group(2), decl))
        found[name] = (" ".join(ret.split()), params, variadic)
    return found


def _is_function_type(name):
    return re.search(r"_(function|fn|FN)(_c)?$", name) is not None


def _large_count_kind(base_param, ctype):
    """The kind of a parameter of an MPI_*_c form: its int form's kind, widened to Count where
    mpi.h widened the C type."""
    if "MPI_Count" in ctype and base_param.kind in ("int", "Aint"):
        return "Count"
    if base_param.kind.startswith("proc:"):  # MPI_User_function_c for MPI_User_function
        return "proc:" + ctype.replace("const", "").replace("*", "").strip()[len("MPI_"):]
    if "MPI_Aint" in ctype and base_param.kind == "int":
        return "Aint"
    return base_param.kind


def load(root=None):
    """Every MPI function of include/mpi.h, described; raises ApiError on any disagreement."""
    root = root or os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    described = _read_description(os.path.join(root, "api", "mpi.api"))
    header = _read_header(os.path.join(root, "include", "mpi.h"))
    problems, functions = [], []
    by_name = {}
    for name, (ret, plist, c_only, manual) in described.items():
        if name not in header:
            problems.append(f"{name} is described in api/mpi.api but not declared in mpi.h")
            continue
        hret, hparams, variadic = header[name]
        if [h[1] for h in hparams] != [p.name for p in plist]:
            problems.append(f"{name}: mpi.api has ({', '.join(p.name for p in plist)}), "
                            f"mpi.h has ({', '.join(h[1] for h in hparams)})")
            continue
        if (ret or "int") != hret:
            problems.append(f"{name}: mpi.api returns {ret or 'int'}, mpi.h returns {hret}")
        for p, (ctype, _, decl) in zip(plist, hparams):
            p.ctype, p.decl = ctype, decl
        fn = Function(name, hret, plist, variadic, c_only, manual,
                      large_count=name.endswith("_c"))
        functions.append(fn)
        by_name[name] = fn
    for name, (hret, hparams, variadic) in header.items():
        if name in described or _is_function_type(name):
            continue
        if name.startswith("MPI_T_"):
            functions.append(Function(name, hret, [Param(n, t, "c", "in", decl=d)
                                                   for t, n, d in hparams],
                                      variadic, c_only=True, tools=True))
            continue
        base = by_name.get(name[:-2]) if name.endswith("_c") else None
        if base is None or [h[1] for h in hparams] != [p.name for p in base.params]:
            problems.append(f"{name} is declared in mpi.h but not described in api/mpi.api")
            continue
        plist = [Param(p.name, t, _large_count_kind(p, t), p.intent, p.array, p.length, d)
                 for p, (t, _, d) in zip(base.params, hparams)]
        functions.append(Function(name, hret, plist, variadic, base.c_only, base.manual,
                                  large_count=True))
    if problems:
        raise ApiError("api/mpi.api and include/mpi.h disagree:\n  " + "\n  ".join(problems))
    return functions


if __name__ == "__main__":
    fns = load()
    print(f"{len(fns)} functions: {sum(not f.c_only for f in fns)} with Fortran bindings, "
          f"{sum(f.large_count for f in fns)} large-count forms, {sum(f.tools for f in fns)} MPI_T")
