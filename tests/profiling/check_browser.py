"""Draws the profiler's HTML page in Debian's headless Chromium: the page must load without a
script or console error, its DOM must hold the matrix (a cell per pair of ranks, the heaviest in
the darkest colour) and the bars (a segment for every rank), and the screenshot must show both
(pixels of the darkest heat-map colour and of the first function's bar colour). Skipped (exit
77) where Chromium is not installed. Usage: check_browser.py WEFTRUN PROFILED_APP NRANKS"""
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

from profile_run import fail, run_job

weftrun, app, nranks = sys.argv[1], sys.argv[2], int(sys.argv[3])
DARKEST = (0x08, 0x30, 0x6b)  # kDarkest in profile/html_charts.hpp
WIDTH, HEIGHT = 900, 900  # enough for the bars and a 4-rank matrix


def png_pixels(path):
    """(width, height, rows of (r, g, b) tuples) of an 8-bit RGB or RGBA PNG (Chromium's)."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        fail(f"{path} is not a PNG")
    at, idat, header = 8, b"", None
    while at < len(data):
        length, kind = struct.unpack(">I4s", data[at:at + 8])
        body = data[at + 8:at + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        at += 12 + length
    width, height, depth, colour, _, _, interlace = header
    if depth != 8 or colour not in (2, 6) or interlace:
        fail(f"{path}: unexpected PNG format {header}")
    channels = 3 if colour == 2 else 4
    raw, stride, rows, previous = zlib.decompress(idat), width * channels, [], bytearray(width * channels)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):  # PNG filters (RFC 2083, 6.)
            a = line[i - channels] if i >= channels else 0
            b, c = previous[i], previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + a) & 0xff
            elif kind == 2:
                line[i] = (line[i] + b) & 0xff
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xff
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xff
        rows.append([tuple(line[x * channels:x * channels + 3]) for x in range(width)])
        previous = line
    return width, height, rows


def chromium(*args):
    sandbox = ["--no-sandbox"] if os.geteuid() == 0 else []
    return subprocess.run(["chromium", "--headless", "--disable-gpu", "--hide-scrollbars",
                           "--enable-logging=stderr", "--v=0", *sandbox, *args],
                          capture_output=True, text=True, timeout=120)


def main():
    if shutil.which("chromium") is None:
        print("SKIP: chromium is not installed (apt-get install chromium)")
        sys.exit(77)
    with tempfile.TemporaryDirectory() as work:
        pid, _, _ = run_job(weftrun, app, nranks, work, {"WEFT_PROFILE": "summary"})
        page = "file://" + os.path.join(work, f"weft-profile.{pid}.html")
        shot = os.path.join(work, "shot.png")
        drawn = chromium(f"--screenshot={shot}", f"--window-size={WIDTH},{HEIGHT}", page)
        dom = chromium("--dump-dom", page)
        for run in (drawn, dom):
            errors = [l for l in run.stderr.splitlines() if "Uncaught" in l or ":CONSOLE" in l]
            if run.returncode != 0 or errors:
                fail(f"chromium: exit code {run.returncode}, console: {errors or run.stderr[-2000:]}")
        cells = re.findall(r'<rect class="cell"[^>]*data-bytes="(\d+)"[^>]*fill="(#[0-9a-f]{6})"',
                           dom.stdout)
        if len(cells) != nranks * nranks:
            fail(f"the drawn page has {len(cells)} matrix cells, want {nranks * nranks}")
        heaviest = max(cells, key=lambda c: int(c[0]))
        if heaviest[1] != "#%02x%02x%02x" % DARKEST:
            fail(f"the heaviest pair is drawn in {heaviest[1]}, not the darkest colour")
        segments = re.findall(r'<rect class="segment" data-rank="(\d+)"[^>]*fill="(#[0-9a-f]{6})"',
                              dom.stdout)
        if {int(r) for r, _ in segments} != set(range(nranks)):
            fail(f"the drawn page has bars for ranks {sorted({r for r, _ in segments})}")
        first_colour = tuple(int(segments[0][1][i:i + 2], 16) for i in (1, 3, 5))
        width, height, rows = png_pixels(shot)
        seen = {DARKEST: 0, first_colour: 0}
        for row in rows:
            for pixel in row:
                if pixel in seen:
                    seen[pixel] += 1
        if seen[DARKEST] < 100 or seen[first_colour] < 100:
            fail(f"the {width}x{height} screenshot shows {seen[DARKEST]} pixels of the heaviest "
                 f"matrix cell and {seen[first_colour]} of the bars' first colour")
    print(f"browser: page drawn without errors; {nranks * nranks} matrix cells and bars for "
          f"{nranks} ranks in the DOM and on the screenshot")


main()
