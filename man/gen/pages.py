"""One man 3 page in roff: a function with its large-count form, from api/ (synopsis, parameter
kinds and intents), man/functions (what the words say) and the derived error classes."""
import re

import collectives
import errors
import synopsis

INTENT_SECTIONS = (("in", "INPUT PARAMETERS"), ("out", "OUTPUT PARAMETERS"),
                   ("inout", "INPUT/OUTPUT PARAMETERS"))
WORD = re.compile(r"\{(\w+)\}|\b((?:P?MPI|WEFT)_[A-Za-z0-9_]*[A-Za-z0-9])\b|\b([a-z_0-9]+)\(([1-8])\)")


def escape(text):
    return text.replace("\\", "\\e")


def markup(text):
    """Plain text from man/functions into roff: {param} in italics, MPI_/WEFT_ names in bold,
    page(7) references as man does them."""
    out, last = [], 0
    for m in WORD.finditer(text):
        out.append(escape(text[last:m.start()]))
        if m.group(1):  # \\% keeps groff from hyphenating a name
            out.append(f"\\fI\\%{m.group(1)}\\fR")
        elif m.group(2):
            out.append(f"\\fB\\%{escape(m.group(2))}\\fR")
        else:
            out.append(f"\\fB\\%{escape(m.group(3))}\\fR({m.group(4)})")
        last = m.end()
    out.append(escape(text[last:]))
    line = "".join(out)
    return "\\&" + line if line.startswith((".", "'")) else line


def sentence(text):
    return text if text.endswith((".", ")", ":")) else text + "."


def _intent(fn, entry, p):
    for intents in (entry.intents, entry.chapter.intents):
        if p.name in intents:
            return intents[p.name]
    if fn.tools:  # mpi.h alone describes MPI_T: a pointer it may write through is an output
        ctype = p.ctype
        return "out" if ("*" in ctype or "[]" in ctype) and "const" not in ctype else "in"
    return p.intent


def _parameters(forms, entry, source, problems):
    """[(section title, [(name, text)])] over the parameters of every form, in order."""
    seen, rows = set(), {intent: [] for intent, _ in INTENT_SECTIONS}
    for fn in forms:
        for p in fn.params:
            if p.name in seen:
                continue
            seen.add(p.name)
            intent = _intent(fn, entry, p)
            text = source.meaning(entry, p.name, intent)
            if text is None:
                problems.append(f"{entry.name}: nothing explains parameter {p.name} ({intent})")
                continue
            if fn is not forms[0]:
                text += f" ({fn.name} only.)"
            rows[intent].append((p.name, text))
    for name in entry.meanings:
        if name not in seen:
            problems.append(f"{entry.where}: {entry.name} has no parameter {name}")
    return [(title, rows[intent]) for intent, title in INTENT_SECTIONS if rows[intent]]


def _related(name, known):
    """The blocking, nonblocking and persistent forms of the same call."""
    stem = name[len("MPI_"):]
    forms = {"MPI_" + stem + "_init"}
    if stem.endswith("_init"):
        forms.add("MPI_" + stem[:-len("_init")])
    if stem[0] == "I" and stem[1].islower():
        forms.add("MPI_" + stem[1].upper() + stem[2:])
    else:
        forms.add("MPI_I" + stem[0].lower() + stem[1:])
    return sorted(f for f in forms if f in known and f != name)


def _errors_section(forms, entry):
    lines = [".SH ERRORS",
             "On an error the function calls the error handler of the communicator, window, "
             "file or session it works on (where there is none, or the one given is not valid, "
             "that of \\fBMPI_COMM_WORLD\\fR or \\fBMPI_COMM_SELF\\fR), which by default prints "
             "the message and ends the job. Under \\fBMPI_ERRORS_RETURN\\fR it "
             "returns an error code: \\fBMPI_Error_class\\fR gives one of the classes below and "
             "\\fBMPI_Error_string\\fR a message naming the function, the argument and its value."]
    if forms[0].tools:
        lines[1:] = ["Returns \\fBMPI_SUCCESS\\fR or one of the \\fBMPI_T_ERR_\\fR codes below."]
    elif forms[0].ret != "int":
        lines[1:] = ["None: the function returns its result, not an error code."]
    claims = errors.claims(forms[0], entry)
    if not claims and forms[0].ret == "int":
        lines.append(".PP\nNo error class is specific to this function.")
    for claim in claims:
        lines += [".TP", f".B {claim.error_class}", markup(sentence("; ".join(claim.when)))]
    return lines


def _synopsis(forms, context):
    out = [".SH SYNOPSIS", ".SS C", ".nf", ".B #include <mpi.h>", ""]
    for f in forms:
        out += [escape(line) for line in synopsis.c_lines(f)]
    out.append(".fi")
    if synopsis.has_fortran(forms[0]):
        out += [".SS Fortran (use mpi, or include 'mpif.h')", ".nf", "use mpi", ""]
        out += [escape(line) for line in synopsis.fortran_lines(forms[0])]
        out += [".fi", ".SS Fortran 2008 (use mpi_f08)", ".nf", "use mpi_f08", ""]
        out += [escape(line) for line in synopsis.f08_lines(forms, context.bound)]
        out += [".fi"]
    return out


def _notes(fn, entry, context):
    notes = [markup(sentence(n)) for n in entry.notes]
    if entry.anytime:
        notes.append("This function may be called before \\fBMPI_Init\\fR and after "
                     "\\fBMPI_Finalize\\fR.")
    notes += collectives.notes(fn.name, context.registry, context.descriptions)
    notes.append(f"\\fBP{fn.name}\\fR is the same function under its profiling name: every "
                 f"\\fBMPI_\\fR name of Weft is a weak alias of its \\fBPMPI_\\fR name, so a tool "
                 f"may define \\fB{fn.name}\\fR and call \\fBP{fn.name}\\fR.")
    out = [".SH NOTES"]
    for n in notes:  # a note that is an item of a list (.TP) continues the list
        out += ([] if n.startswith(".TP") else [".PP"]) + [n]
    return out


def _see_also(fn, entry, context, problems):
    see = entry.see + _related(fn.name, context.known)
    see = [s for i, s in enumerate(see) if s not in see[:i]] + entry.chapter.see
    refs = []
    for s in see:
        m = re.match(r"^(\S+)\(([1-8])\)$", s)
        if m is None and s not in context.known:
            problems.append(f"{entry.where}: {entry.name} refers to {s}, which has no page")
        refs.append(m.groups() if m else (s, "3"))
    return [".SH SEE ALSO", ",\n".join(f".BR {name} ({section})" for name, section in refs)]


def render(forms, entry, source, context, problems):
    """The page of forms[0] (and forms[1], its large-count form, when there is one); what is
    wrong with the words of man/functions goes into `problems`."""
    fn = forms[0]
    names = ", ".join(f.name for f in forms)
    out = [f'.TH {fn.name} 3 "{context.date}" "Weft {context.version}" "Weft MPI"',
           ".SH NAME", f"{escape(names)} \\- {markup(entry.summary)}"]
    out += _synopsis(forms, context)
    for title, rows in _parameters(forms, entry, source, problems):
        out.append(f".SH {title}")
        for name, text in rows:
            out += [".TP", f".I {name}", markup(sentence(text))]
    out += [".SH DESCRIPTION", markup(sentence(entry.summary))]
    if len(forms) > 1:
        out.append(f".PP\n\\fB{forms[1].name}\\fR is the large-count form: the same call with "
                   "counts and displacements as \\fBMPI_Count\\fR or \\fBMPI_Aint\\fR.")
    out += _errors_section(forms, entry)
    out += _notes(fn, entry, context)
    out += _see_also(fn, entry, context, problems)
    return "\n".join(out) + "\n"
