"""Writes the profiler's MPI_* wrappers from the one description of the MPI API (api/mpi_api.py):
function_ids.hpp (an id per function) and wrappers.cpp (one wrapper per function that times and
counts the call and calls PMPI_*). Usage: gen_wrappers.py REPO_ROOT OUT_DIR"""
import os
import re
import sys

# Written by hand in lifecycle.cpp: they start and end the profile, or take "..." (Pcontrol).
HANDWRITTEN = {"MPI_Init", "MPI_Init_thread", "MPI_Finalize", "MPI_Pcontrol"}
# Not wrapped at all: reading the clock is what a wrapper would time them with.
UNWRAPPED = {"MPI_Wtime", "MPI_Wtick"}
# Calls that end a handle the profiler caches something about: the cache entry goes before the
# call itself.
FORGET = {
    "MPI_Type_free": "forget_datatype(datatype)",
    "MPI_Comm_free": "forget_comm(comm)",
    "MPI_Comm_disconnect": "forget_comm(comm)",
    "MPI_Request_free": "forget_request(request)",
}
# Starting persistent requests: a persistent send is counted as traffic each time it starts.
STARTS = {
    "MPI_Start": "started(1, request)",
    "MPI_Startall": "started(count, array_of_requests)",
}


def byte_parts(fn):
    """The names (partitions or None, count, datatype) of the bytes a call moves, or None: count x
    datatype size of its first buffer argument (a scalar count followed by a datatype, after a
    choice buffer), times the partition count of partitioned calls."""
    params = fn.params
    first_buffer = next((i for i, p in enumerate(params) if p.kind == "choice"), None)
    if first_buffer is None:
        return None
    for i in range(first_buffer + 1, len(params) - 1):
        count, datatype = params[i], params[i + 1]
        if (count.kind in ("int", "Count") and not count.array and count.intent == "in"
                and datatype.kind == "Datatype" and not datatype.array):
            partitions = next((p.name for p in params[:i] if p.name == "partitions"), None)
            return partitions, count.name, datatype.name
    return None


def is_send(fn):
    """A point-to-point send (or the send half of a sendrecv): its count/datatype bytes go to
    `dest` of `comm`."""
    names = {p.name for p in fn.params}
    return {"dest", "comm"} <= names and byte_parts(fn) is not None


def remembers_request(fn):
    """A persistent send's _init call: its traffic is counted at each start, by the request it
    returns."""
    return is_send(fn) and (fn.name.endswith("_init") or fn.name.endswith("_init_c"))


def bytes_of(fn, record):
    """The C expression of the bytes a call moves, the datatype's size cached in `record`."""
    parts = byte_parts(fn)
    if parts is None:
        return "0"
    partitions, count, datatype = parts
    expr = f"bytes_of({record}, MPI_Count({count}), {datatype})"
    return f"uint64_t({partitions}) * {expr}" if partitions else expr


def has_fast_path(fn):
    """Whether fn's wrapper counts the calls that need no clock and no lookup itself: not those
    that remember a request, forget a handle or start requests (their counts call out anyway)."""
    return not remembers_request(fn) and fn.name not in FORGET and fn.name not in STARTS


def fast_path(fn, call):
    """The start of fn's wrapper: every check first (recorder.hpp, hit; handles.hpp), then the
    counts and PMPI_* as a tail call. The calls that fail a check go on to counted_MPI_*.
    A send is passed on sooner: only the checks that decide it goes untimed come before PMPI_*;
    the others and the counts run after it, while its message travels, and a call that fails
    them is counted by sent_MPI_* (perf/compare_profile.sh, 8 B ping-pong: the profiler's cost
    went from 6-7 ns to 1-3 ns at the best)."""
    checks = ["hit(weft_log, weft_f, __builtin_return_address(0))"]
    counts = []
    if is_send(fn):
        counts.append("    Traffic& weft_traffic = traffic_hit(weft_log, weft_f, dest);")
    parts = byte_parts(fn)
    bytes_expr = "0"
    if parts:
        partitions, count, datatype = parts
        checks.append(f"datatype_hit(weft_f, {datatype}, MPI_Count({count}))")
        bytes_expr = f"uint64_t({count}) * weft_f.datatype_size"
        if partitions:
            bytes_expr = f"uint64_t({partitions}) * {bytes_expr}"
        counts.append(f"    const uint64_t weft_bytes = {bytes_expr};")
        bytes_expr = "weft_bytes"
    if is_send(fn):
        checks.append("send_hit(weft_f, comm, dest)")
        counts.append("    count_message(weft_traffic, weft_bytes);")
    counts.append(f"    count_hit(weft_f, {bytes_expr});")
    start = ["  ThreadLog& weft_log = *t_log;",
             f"  FunctionRecord& weft_f = weft_log.functions[k{fn.name}];"]
    if not is_send(fn):
        checks.append("untimed_hit(weft_f)")
        return start + [f"  if ({' && '.join(checks)}) [[likely]] {{"] + counts + [
            f"    return {call};", "  }"]
    counts = ["  " + line for line in counts]
    return start + [
        "  if (current(weft_log) && untimed_hit(weft_f)) [[likely]] {",
        f"    const int weft_result = {call};",
        f"    if ({' && '.join(checks)}) [[likely]] {{"] + counts + [
        "      return weft_result;",
        "    }",
        "    t_site = __builtin_return_address(0);",
        f"    return sent_{fn.name}(weft_result, {', '.join(p.name for p in counted_after(fn))});",
        "  }"]


def untimed_counts(fn, indent):
    """The lines that count an untimed call of fn in weft_log (a ThreadLog*) at weft_site."""
    lines = []
    if byte_parts(fn) or is_send(fn):
        lines.append(f"FunctionRecord& weft_f = weft_log->functions[k{fn.name}];")
    lines.append(f"const uint64_t weft_bytes = {bytes_of(fn, 'weft_f')};")
    if is_send(fn):
        lines.append("count_send(*weft_log, weft_f, comm, dest, weft_bytes);")
    if fn.name in STARTS:
        lines.append(f"{STARTS[fn.name]};")
    lines.append(f"untimed_counted(*weft_log, k{fn.name}, weft_site, weft_bytes);")
    return [indent + line for line in lines]


def untimed_path(fn, call):
    """The lines of counted_MPI_* for a call that goes untimed: counted first, then passed on as
    a tail call."""
    return ([f"  if (ThreadLog* weft_log = untimed_call(k{fn.name})) {{"] +
            untimed_counts(fn, "    ") + [f"    return {call};", "  }"])


def counted_after(fn):
    """The parameters a send is counted by (sent_MPI_*): its bytes' and its destination's."""
    names = {"dest", "comm"} | {name for name in byte_parts(fn) if name}
    return [p for p in fn.params if p.name in names]


def sent_function(fn):
    """sent_MPI_*: counts a send that its wrapper's fast path passed on untimed but could not
    count itself. A handle another thread freed meanwhile counts as handles.hpp counts a handle
    that is not one (no bytes, no peer)."""
    parameters = ", ".join(p.decl for p in counted_after(fn))
    return ([f"[[gnu::noinline]] static int sent_{fn.name}(int weft_result, {parameters}) {{",
             "  const void* weft_site = t_site;",
             "  if (!recording()) return weft_result;",
             "  ThreadLog* weft_log = &current_log();"] +
            untimed_counts(fn, "  ") + ["  return weft_result;", "}", ""])


def timed_body(fn, call):
    """The lines that time and count a call of fn (after weft_start)."""
    ok = "weft_result == MPI_SUCCESS" if fn.ret == "int" else "true"
    lines = [f"  const {fn.ret} weft_result = {call};",
             "  const Tick weft_end = end_of(weft_start);"]
    if byte_parts(fn) or is_send(fn):
        lines += ["  ThreadLog& weft_log = *t_log;",
                  f"  FunctionRecord& weft_f = weft_log.functions[k{fn.name}];"]
    bytes_expr = bytes_of(fn, "weft_f")
    lines.append(f"  const uint64_t weft_bytes = "
                 f"{f'{ok} ? {bytes_expr} : 0' if bytes_expr != '0' else '0'};")
    peer = "kNoPeer"
    if remembers_request(fn):
        lines.append(f"  if ({ok}) remember_send(*request, comm, dest, weft_bytes);")
    elif is_send(fn):
        lines.append(f"  const int weft_peer = {ok} ? count_send(weft_log, weft_f, comm, dest, "
                     "weft_bytes) : kNoPeer;")
        peer = "weft_peer"
    if fn.name in STARTS:
        lines.append(f"  if ({ok}) {STARTS[fn.name]};")
    lines.append(f"  end_call(k{fn.name}, weft_start, weft_end, weft_site, weft_bytes, {peer});")
    lines.append("  return weft_result;")
    return lines


def body(fn, api):
    """The wrapper of fn, and before it, where a call may go untimed, counted_MPI_*: the calls
    that leave the wrapper's fast path, counted (untimed) or timed, with the wrapper's return
    address as their site (t_site). Locals start with weft_ so that no parameter name hides
    them."""
    call = f"P{fn.name}({api.c_call_args(fn)})"
    head = []
    lines = [f"{api.c_declaration(fn)} {{"]
    if fn.name in FORGET:  # also while not recording: a cache must never outlive its handle
        lines.append(f"  {FORGET[fn.name]};")
    if remembers_request(fn):
        lines.append(f"  if (!recording()) return {call};")
        lines.append("  const void* weft_site = __builtin_return_address(0);")
        lines.append(f"  const Tick weft_start = begin_call(k{fn.name});")
        lines += timed_body(fn, call)
        lines.append("}")
        return "\n".join(lines)
    parameters = ", ".join(api.c_parameters(fn))
    head = [f"[[gnu::noinline]] static {fn.ret} counted_{fn.name}({parameters}) {{",
            "  const void* weft_site = t_site;",
            f"  if (!recording()) return {call};"]
    head += untimed_path(fn, call)
    head.append("  const Tick weft_start = begin_timed_call();")
    head += timed_body(fn, call) + ["}", ""]
    if has_fast_path(fn) and is_send(fn):
        head += sent_function(fn)
    slow = ["  t_site = __builtin_return_address(0);",
            f"  return counted_{fn.name}({api.c_call_args(fn)});"]
    lines += fast_path(fn, call) + slow if has_fast_path(fn) else slow
    lines.append("}")
    return "\n".join(head + lines)


def main():
    root, out_dir = sys.argv[1], sys.argv[2]
    sys.path.insert(0, root)
    from api import mpi_api as api
    functions = [f for f in api.load(root) if f.name not in UNWRAPPED]
    header = open(os.path.join(root, "include", "mpi.h")).read()
    missing = [f.name for f in functions if not re.search(r"\bP%s\s*\(" % f.name, header)]
    if missing:
        sys.exit("gen_wrappers.py: mpi.h declares no PMPI_ form of: " + ", ".join(missing))
    unknown = (HANDWRITTEN | set(FORGET) | set(STARTS)) - {f.name for f in functions}
    if unknown:
        sys.exit("gen_wrappers.py: the API description lacks " + ", ".join(sorted(unknown)))

    ids = ",\n".join(f"  k{f.name}" for f in functions)
    with open(os.path.join(out_dir, "function_ids.hpp"), "w") as out:
        out.write("// Generated by profile/gen_wrappers.py from api/: an id for every MPI function"
                  " the profiler counts.\n#pragma once\n#include <cstdint>\n\n"
                  "namespace weft::profile {\n\n"
                  f"enum FunctionId : uint16_t {{\n{ids}\n}};\n"
                  f"inline constexpr int kFunctionCount = {len(functions)};\n"
                  "extern const char* const kFunctionNames[kFunctionCount];\n\n"
                  "}  // namespace weft::profile\n")
    names = ",\n".join(f'    "{f.name}"' for f in functions)
    wrappers = "\n\n".join(body(f, api) for f in functions if f.name not in HANDWRITTEN)
    with open(os.path.join(out_dir, "wrappers.cpp"), "w") as out:
        out.write("// Generated by profile/gen_wrappers.py from api/: every MPI_* function timed,"
                  " counted and passed\n// on to PMPI_* (profile/README.md).\n"
                  "#include \"profile/function_ids.hpp\"\n#include \"profile/handles.hpp\"\n"
                  "#include \"profile/recorder.hpp\"\n\n"
                  "namespace weft::profile {\n"
                  f"const char* const kFunctionNames[kFunctionCount] = {{\n{names}\n}};\n"
                  "}  // namespace weft::profile\n\n"
                  "using namespace weft::profile;\n\n"
                  "#pragma GCC visibility push(default)\nextern \"C\" {\n\n"
                  f"{wrappers}\n\n}}  // extern \"C\"\n#pragma GCC visibility pop\n")


if __name__ == "__main__":
    main()
