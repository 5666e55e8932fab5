"""Runs profiled_app under weftrun with WEFT_PROFILE=summary,trace and checks the profiler's
output against what the program says it did: the text report's calls and bytes per function and
its communication matrix, the late barrier's time and the call site it names, the HTML page (there,
self-contained, the same matrix), and the trace (valid JSON, every call once); then again with a
trace budget of 10 events per rank, which must keep 10 and count the rest as dropped; and with
WEFT_PROFILE=summary alone, where only a sample of a function's many calls is timed and most are
counted on the wrappers' fast path: calls, bytes, matrix and the calls at two call sites again, and
the estimated time of 20000 MPI_Iprobe calls against the time rank 0's loop of them took.
Usage: check_profile.py WEFTRUN PROFILED_APP NRANKS"""
import json
import os
import re
import sys
import tempfile

from profile_run import fail, run_job, report_section

weftrun, app, nranks = sys.argv[1], sys.argv[2], int(sys.argv[3])


def did_of(stdout):
    """{function: [calls, bytes]} summed over ranks, and {(from, to): [bytes, messages]}."""
    functions, matrix, events = {}, {}, {}
    for line in stdout.splitlines():
        words = line.split()
        if words[:1] == ["did"]:
            rank, name, calls, nbytes = int(words[1]), words[2], int(words[3]), int(words[4])
            total = functions.setdefault(name, [0, 0])
            total[0] += calls
            total[1] += nbytes
            events.setdefault(rank, {})[name] = calls
        elif words[:1] == ["sent"]:
            matrix[(int(words[1]), int(words[2]))] = [int(words[3]), int(words[4])]
    return functions, matrix, events


def check_functions(report, did):
    rows = {}
    for line in report_section(report, "MPI function"):
        words = line.split()
        if len(words) >= 11 and words[0].startswith("MPI_"):
            rows[words[0]] = words
    if set(rows) != set(did):
        fail(f"the report lists {sorted(rows)}, the program called {sorted(did)}")
    for name, (calls, nbytes) in did.items():
        if int(rows[name][1]) != calls or int(rows[name][2]) != nbytes:
            fail(f"{name}: report says {rows[name][1]} calls, {rows[name][2]} bytes; "
                 f"the program made {calls} calls of {nbytes} bytes")
    barrier = rows["MPI_Barrier"]
    rank_max_ms, slowest = float(barrier[9]), int(barrier[10])
    if rank_max_ms < 250 or slowest == 0:
        fail(f"MPI_Barrier: the most time a rank spent in it is {rank_max_ms} ms on rank "
             f"{slowest}; the ranks waiting for rank 0's 300 ms should show it")


def check_matrix(report, did_matrix):
    lines = report_section(report, "point-to-point sends")
    cells = {}
    for line in lines[2:2 + nranks]:
        words = line.split()
        for to, cell in enumerate(words[1:]):
            if cell != "-":
                cells[(int(words[0]), to)] = [int(v) for v in cell.split("/")]
    if cells != did_matrix:
        fail(f"matrix in the report {cells} differs from the program's sends {did_matrix}")


def check_loop_time(report, stdout):
    """The report's total time of MPI_Iprobe, all timed or estimated from a sample, against the
    time rank 0's loop of it took: a cheap call, so the loop and the wrapper are about half of
    that. The machine's load moves it too: a sampled call that was preempted counts 64 times,
    one that was not timed not at all, so the estimate may overshoot by 64 times the longest call
    (the report's max) or fall short by a preemption; and a timed call also holds part of the
    clock's own reading, a large share of a call this cheap (with two such jobs at once on 2
    cores the total came to 1.3-1.4 times the loop, one run in 6 or 8, before and after the
    wrappers' fast path). The bounds catch weights that are missing (the total would be 1024
    calls and a 64th of the rest, 6.6% of it) or misplaced (64 on the exact calls too: 4.2
    times)."""
    looped_ns = sum(float(line.split()[2]) for line in stdout.splitlines()
                    if line.startswith("looped "))
    row = next(line.split() for line in report_section(report, "MPI function")
               if line.startswith("MPI_Iprobe "))
    total_ns, max_ns = float(row[3]) * 1e6, float(row[5]) * 1e3
    if not 0.2 * looped_ns <= total_ns <= 2 * looped_ns + 64 * max_ns:
        fail(f"MPI_Iprobe: the report says {total_ns / 1e6:.3f} ms in all (longest call "
             f"{max_ns / 1e3:.1f} us), rank 0's loop of it took {looped_ns / 1e6:.3f} ms")


def check_ranks_and_sites(report, source):
    shares = {}
    for line in report_section(report, "time in MPI by rank")[2:]:
        words = line.split()
        if len(words) == 5:
            shares[int(words[0])] = float(words[4])
    if len(shares) != nranks or any(shares[0] >= shares[r] for r in range(1, nranks)):
        fail(f"rank 0 slept outside MPI, so its share of time in MPI should be the lowest: {shares}")
    barrier_line = next(i for i, l in enumerate(open(source), 1) if "/* the late barrier */" in l)
    busiest = report_section(report, "busiest call sites")[2]
    want = f"MPI_Barrier main (profiled_app.c:{barrier_line})"
    if want not in " ".join(busiest.split()):
        fail(f"the busiest call site should be '{want}': {busiest}")


def check_sites(report, stdout):
    """The calls at the two MPI_Recv sites of profiled_app's exchange(), summed over ranks, against
    the report's busiest call sites (where they must be: thousands of blocking receives)."""
    want = {}
    for line in stdout.splitlines():
        words = line.split()
        if words[:1] == ["site"]:
            key = (words[2], int(words[3]))
            want[key] = want.get(key, 0) + int(words[4])
    got = {}
    for line in report_section(report, "busiest call sites")[2:]:
        where = re.search(r"\(profiled_app\.c:(\d+)\)", line)
        words = line.split()
        if where and (words[3], int(where.group(1))) in want:
            got[(words[3], int(where.group(1)))] = int(words[1])
    if got != want:
        fail(f"calls at the exchange's call sites: the report has {got}, the program made {want}")


def check_html(path, did_matrix):
    page = open(path).read()
    for outside in ("<script", "src=", "href=", "url(", "http:", "https:", "<link", "@import"):
        if outside in page:
            fail(f"{path} is not self-contained: it has '{outside}'")
    cells = re.findall(r'<rect class="cell" data-from="(\d+)" data-to="(\d+)" data-bytes="(\d+)" '
                       r'data-messages="(\d+)"', page)
    if len(cells) != nranks * nranks:
        fail(f"{path}: {len(cells)} matrix cells, want {nranks * nranks}")
    html_matrix = {(int(f), int(t)): [int(b), int(m)] for f, t, b, m in cells if int(m) > 0}
    if html_matrix != did_matrix:
        fail(f"{path}: matrix {html_matrix} differs from the program's sends {did_matrix}")
    bar_ranks = set(re.findall(r'<rect class="segment" data-rank="(\d+)"', page))
    if bar_ranks != {str(r) for r in range(nranks)}:
        fail(f"{path}: bars for ranks {sorted(bar_ranks)}, want every rank")


def trace_calls(path):
    """{rank: {function: calls}} of the trace's complete events, its otherData, and
    {rank: set of thread ids}."""
    data = json.load(open(path))
    calls, threads = {}, {}
    for e in data["traceEvents"]:
        if e["ph"] == "X":
            if e["ts"] < 0 or e["dur"] < 0:
                fail(f"{path}: event with negative time {e}")
            per_rank = calls.setdefault(e["pid"], {})
            per_rank[e["name"]] = per_rank.get(e["name"], 0) + 1
            threads.setdefault(e["pid"], set()).add(e["tid"])
    return calls, data["otherData"], threads


def main():
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "profiled_app.c")
    with tempfile.TemporaryDirectory() as work:
        pid, stdout, stderr = run_job(weftrun, app, nranks, work, {"WEFT_PROFILE": "summary,trace"})
        functions, matrix, events = did_of(stdout)
        check_functions(stderr, functions)
        check_matrix(stderr, matrix)
        check_ranks_and_sites(stderr, source)
        check_sites(stderr, stdout)
        check_loop_time(stderr, stdout)
        html = os.path.join(work, f"weft-profile.{pid}.html")
        trace = os.path.join(work, f"weft-trace.{pid}.json")
        for path in (html, trace):
            if f"{os.path.basename(path)}" not in stderr or not os.path.exists(path):
                fail(f"{path} was not written or not named in the report")
        check_html(html, matrix)
        calls, other, threads = trace_calls(trace)
        if calls != events:
            fail(f"the trace's calls per rank {calls} differ from the program's {events}")
        if any(threads[rank] != {0, 1} for rank in range(nranks)):
            fail(f"each rank's calls came from two threads, the trace has threads {threads}")
        if other["dropped_events"] != [0] * nranks:
            fail(f"no event should be dropped with the default budget: {other}")

        pid, _, _ = run_job(weftrun, app, nranks, work,
                            {"WEFT_PROFILE": "trace", "WEFT_PROFILE_TRACE_EVENTS": "10"})
        calls, other, _ = trace_calls(os.path.join(work, f"weft-trace.{pid}.json"))
        for rank in range(nranks):
            kept = sum(calls.get(rank, {}).values())
            made = sum(events[rank].values())
            if kept != 10 or other["dropped_events"][rank] != made - 10:
                fail(f"rank {rank}: kept {kept} events and dropped "
                     f"{other['dropped_events'][rank]} of {made}, want 10 and {made - 10}")

        pid, stdout, stderr = run_job(weftrun, app, nranks, work, {"WEFT_PROFILE": "summary"})
        functions, matrix, _ = did_of(stdout)
        check_functions(stderr, functions)
        check_matrix(stderr, matrix)
        check_sites(stderr, stdout)
        check_loop_time(stderr, stdout)
    print("profile: calls, bytes, matrix, times, call sites, threads, HTML and trace as the "
          "program did; sampled times; the fast path's counts")


main()
