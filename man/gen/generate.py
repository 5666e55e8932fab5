"""Writes the man 3 pages of every MPI function Weft provides, and the program that checks what
they say about errors. Run at build time by man/CMakeLists.txt:

  python3 man/gen/generate.py --out DIR --weft-info PATH --version V --check-program FILE

Pages come from api/mpi.api joined with include/mpi.h (api/mpi_api.py), the hand-written words
of man/functions/, the algorithm registry (weft_info --coll list) and man/weft_coll.7. A function
without a description, a parameter nothing explains, or an algorithm weft_coll(7) does not
describe stops the build with the list of what is missing."""
import argparse
import glob
import os
import re
import sys
from types import SimpleNamespace

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path[:0] = [HERE, os.path.join(ROOT, "api"), os.path.join(ROOT, "fortran", "gen")]

import check_program  # noqa: E402
import collectives  # noqa: E402
import mpi_api  # noqa: E402
import pages  # noqa: E402
import source as hand_written  # noqa: E402


def page_groups(functions):
    """[(int form, large-count form or None)] for every page: a large-count form shares the page
    of its int form."""
    by_name = {f.name: f for f in functions}
    return [[f] + ([by_name[f.name + "_c"]] if f.name + "_c" in by_name else [])
            for f in functions if not (f.large_count and f.name[:-2] in by_name)]


def write_pages(out_dir, texts):
    """Writes {file name: text} into out_dir, leaving unchanged files alone and removing pages
    of functions that are gone."""
    os.makedirs(out_dir, exist_ok=True)
    for name, text in texts.items():
        path = os.path.join(out_dir, name)
        if not os.path.exists(path) or open(path).read() != text:
            with open(path, "w") as f:
                f.write(text)
    for path in glob.glob(os.path.join(out_dir, "*.3")):
        if os.path.basename(path) not in texts:
            os.remove(path)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", required=True)
    parser.add_argument("--weft-info", required=True)
    parser.add_argument("--version", required=True)
    parser.add_argument("--check-program", required=True)
    args = parser.parse_args()

    try:
        functions = mpi_api.load(ROOT)
        source = hand_written.load(os.path.join(ROOT, "man", "functions"))
    except (mpi_api.ApiError, hand_written.SourceError) as e:
        sys.exit(f"man/gen/generate.py: {e}")
    environment = {k: v for k, v in os.environ.items() if not k.startswith("WEFT_")}
    registry = collectives.read_registry(args.weft_info, environment)
    descriptions = collectives.read_descriptions(os.path.join(ROOT, "man", "weft_coll.7"))
    collectives.check_described(registry, descriptions)
    date = re.search(r'^\.TH \S+ \d "([^"]*)"', open(os.path.join(ROOT, "man", "weft.7")).read(),
                     re.M).group(1)
    context = SimpleNamespace(
        date=date, version=args.version, registry=registry, descriptions=descriptions,
        known={f.name for f in functions},
        bound=[f for f in functions if not f.c_only and not (f.large_count and f.manual)])

    problems, texts = [], {}
    groups = page_groups(functions)
    for forms in groups:
        entry = source.entries.get(forms[0].name)
        if entry is None:
            problems.append(f"{forms[0].name} has no description in man/functions")
            continue
        texts[forms[0].name + ".3"] = pages.render(forms, entry, source, context, problems)
        for alias in [f.name for f in forms[1:]] + ["P" + f.name for f in forms] + entry.links:
            texts[alias + ".3"] = f".so man3/{forms[0].name}.3\n"
    described = {forms[0].name for forms in groups}
    problems += [f"{e.where}: {name} is not a function of api/mpi.api or mpi.h"
                 for name, e in source.entries.items() if name not in described]
    if problems:
        sys.exit("man/gen/generate.py:\n  " + "\n  ".join(problems))
    write_pages(args.out, texts)
    program = check_program.emit(functions, source)
    if not os.path.exists(args.check_program) or open(args.check_program).read() != program:
        with open(args.check_program, "w") as f:
            f.write(program)


if __name__ == "__main__":
    main()
