"""What a collective's page says about its algorithms: the list this build has (as
`weft_info --coll list` prints it, from coll/registry.cpp) with each algorithm's line from
man/weft_coll.7, and the setting that forces one. An algorithm weft_coll(7) does not describe
stops the build, so neither can drift from the registry."""
import re
import subprocess

# The collective (coll_name in coll/registry.cpp) behind each MPI function stem.
KIND_OF = {
    "barrier": "barrier", "bcast": "bcast", "reduce": "reduce", "allreduce": "allreduce",
    "gather": "gather", "gatherv": "gather", "scatter": "scatter", "scatterv": "scatter",
    "allgather": "allgather", "allgatherv": "allgather", "reduce_scatter": "reduce_scatter",
    "reduce_scatter_block": "reduce_scatter", "alltoall": "alltoall", "alltoallv": "alltoall",
    "alltoallw": "alltoall", "scan": "scan", "exscan": "exscan",
    "neighbor_allgather": "neighbor_allgather", "neighbor_allgatherv": "neighbor_allgather",
    "neighbor_alltoall": "neighbor_alltoall", "neighbor_alltoallv": "neighbor_alltoall",
    "neighbor_alltoallw": "neighbor_alltoall",
}


def kind_of(name):
    """The collective run by MPI function `name` (blocking, I-, _init and _c forms alike)."""
    stem = name[len("MPI_"):].lower()
    stem = re.sub(r"(_init)?(_c)?$", "", stem)
    if stem in KIND_OF:
        return KIND_OF[stem]
    if stem.startswith("i") and stem[1:] in KIND_OF:
        return KIND_OF[stem[1:]]
    return None


def read_registry(weft_info, environment):
    """{collective: [algorithm, ...]} from `weft_info --coll list`."""
    text = subprocess.run([weft_info, "--coll", "list"], env=environment, check=True,
                          capture_output=True, text=True).stdout
    registry = {}
    for line in text.splitlines():  # "  allreduce  recursive_doubling, ring   [WEFT_...=ring]"
        m = re.match(r"^  ([a-z_]+)\s+([a-z_]+(?:, [a-z_]+)*)(?:\s+\[.*\])?$", line)
        if m:
            registry[m.group(1)] = m.group(2).split(", ")
    if not registry:
        raise ValueError(f"{weft_info} --coll list printed no collectives")
    return registry


def read_descriptions(weft_coll_7):
    """{(collective, algorithm): roff text} from the COLLECTIVES AND ALGORITHMS section."""
    section = open(weft_coll_7).read().split(".SH COLLECTIVES AND ALGORITHMS", 1)[1]
    section = section.split("\n.SH ", 1)[0]
    descriptions = {}
    for block in section.split(".TP\n.B ")[1:]:
        heading, body = block.split("\n", 1)
        for item in re.split(r"\n\.br\n|\n\.PP\n", body):
            m = re.match(r"\\fB(\w+)\\fR: (.*)", item.strip(), re.S)
            if m:
                for coll in heading.split(", "):
                    descriptions[(coll.strip(), m.group(1))] = " ".join(m.group(2).split())
    return descriptions


def check_described(registry, descriptions):
    missing = [f"{coll} {alg}" for coll, algs in registry.items() for alg in algs
               if (coll, alg) not in descriptions]
    if missing:
        raise ValueError("man/weft_coll.7 does not describe: " + ", ".join(missing))


def notes(name, registry, descriptions):
    """Roff paragraphs for the NOTES of `name`, or [] when it is no collective."""
    kind = kind_of(name)
    if kind is None:
        return []
    setting = f"WEFT_{kind.upper()}_ALGORITHM"
    out = [f"Weft runs this collective as one of the algorithms below, chosen per call by its "
           f"cost model from the call's shape (the same choice on every rank); "
           f"\\fB{setting}\\fR=\\fIname\\fR forces one where it can take the call. "
           f"\\fBweft_info \\-\\-coll {kind} \\-\\-ranks\\fR \\fIN\\fR \\fB\\-\\-bytes\\fR \\fISIZE\\fR "
           f"shows the choice for one call shape; "
           f"\\fBweft_coll\\fR(7) explains them all, and what runs on an intercommunicator."]
    for alg in registry[kind]:
        out.append(f".TP\n\\fB{alg}\\fR\n{descriptions[(kind, alg)]}")
    return out
