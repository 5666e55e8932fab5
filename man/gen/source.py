"""Reads the hand-written part of the man 3 pages (man/functions/*.txt): the glossary of parameter
meanings and, per chapter, one entry per MPI function. The format is described in
man/functions/README.md; every mistake is reported with its file and line."""
import glob
import os
import re
from dataclasses import dataclass, field


class SourceError(Exception):
    pass


@dataclass
class Entry:
    name: str
    summary: str
    chapter: "Chapter"
    meanings: dict = field(default_factory=dict)   # parameter name -> text
    intents: dict = field(default_factory=dict)    # parameter name -> in/out/inout (MPI_T)
    errors: list = field(default_factory=list)     # (class, text) beyond the derived ones
    dropped: dict = field(default_factory=dict)    # derived class -> why it does not hold
    notes: list = field(default_factory=list)
    see: list = field(default_factory=list)
    links: list = field(default_factory=list)    # other names (predefined callbacks) of the page
    null_ok: set = field(default_factory=set)    # parameters whose null handle is accepted
    anytime: bool = False        # usable before MPI_Init and after MPI_Finalize
    unchecked: str = ""          # why the error check program leaves it alone
    where: str = ""              # file:line, for messages


@dataclass
class Chapter:
    title: str
    see: list = field(default_factory=list)
    meanings: dict = field(default_factory=dict)   # (name, intent or None) -> text
    dropped: dict = field(default_factory=dict)    # derived class -> why no function has it
    intents: dict = field(default_factory=dict)    # parameter name -> in/out/inout (MPI_T)
    entries: list = field(default_factory=list)


@dataclass
class Source:
    glossary: dict          # (name, intent or None) -> text
    chapters: list
    entries: dict           # function name -> Entry

    def meaning(self, entry, param, intent):
        """The text for `param` of `entry`'s function: its own, else the chapter's, else the
        glossary's, the intent-specific text first. None when nobody wrote one."""
        if param in entry.meanings:
            return entry.meanings[param]
        for table in (entry.chapter.meanings, self.glossary):
            for key in ((param, intent), (param, None)):
                if key in table:
                    return table[key]
        return None


_ITEM = re.compile(r"^(\w+)(?: (?:in|out|inout)| \[(in|out|inout)\])?: (.*)$")
_GLOSS = re.compile(r"^(\w+)(?: (in|out|inout)| \[(in|out|inout)\])?: (.*)$")
_ERROR = re.compile(r"^error (MPI_(?:T_)?ERR_\w+): (.*)$")
_DROP = re.compile(r"^not (MPI_(?:T_)?ERR_\w+): (.*)$")
_HEAD = re.compile(r"^((?:MPI|MPI_T)_\w+): (.*)$")


def _logical_lines(path):
    """(line number, indent, text) with continuation lines (4+ spaces deeper than an item)
    joined to the line they continue."""
    out = []
    for number, raw in enumerate(open(path), 1):
        text = raw.rstrip()
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        indent = len(text) - len(text.lstrip())
        if indent >= 4:
            if not out:
                raise SourceError(f"{path}:{number}: continuation line with nothing to continue")
            n, i, t = out[-1]
            out[-1] = (n, i, t + " " + text.strip())
            continue
        out.append((number, indent, text.strip()))
    return out


def _read_glossary_line(text, table, where, intents=None):
    """One meaning: "name: text" (any intent), "name out: text" (that intent only), or, where
    `intents` is given, "name [out]: text" (the parameter's intent, for MPI_T, and its text)."""
    m = _GLOSS.match(text)
    if not m or (m.group(3) and intents is None):
        raise SourceError(f"{where}: expected 'name[ intent]: meaning': {text}")
    name, intent, declared, meaning = m.groups()
    key = (name, intent)
    if key in table:
        raise SourceError(f"{where}: {name} explained twice")
    table[key] = meaning
    if declared:
        intents[name] = declared


def _entry_item(entry, text, where):
    if text == "anytime":
        entry.anytime = True
    elif text.startswith("null allowed: "):
        entry.null_ok.update(s.strip() for s in text[len("null allowed: "):].split(","))
    elif text.startswith("unchecked: "):
        entry.unchecked = text[len("unchecked: "):]
    elif text.startswith("note: "):
        entry.notes.append(text[len("note: "):])
    elif text.startswith("see: "):
        entry.see += [s.strip() for s in text[len("see: "):].split(",")]
    elif text.startswith("links: "):
        entry.links += [s.strip() for s in text[len("links: "):].split(",")]
    elif _ERROR.match(text):
        entry.errors.append(_ERROR.match(text).groups())
    elif _DROP.match(text):
        cls, why = _DROP.match(text).groups()
        entry.dropped[cls] = why
    elif _ITEM.match(text):
        param, intent, meaning = _ITEM.match(text).groups()
        if param in entry.meanings:
            raise SourceError(f"{where}: {entry.name}: {param} explained twice")
        entry.meanings[param] = meaning
        if intent:
            entry.intents[param] = intent
    else:
        raise SourceError(f"{where}: cannot read item of {entry.name}: {text}")


def _read_chapter(path, entries):
    chapter = Chapter(title="")
    entry = None
    for number, indent, text in _logical_lines(path):
        where = f"{os.path.basename(path)}:{number}"
        if text.startswith("@chapter "):
            chapter.title = text[len("@chapter "):]
        elif text.startswith("@see "):
            chapter.see += [s.strip() for s in text[len("@see "):].split(",")]
        elif text.startswith("@param "):
            _read_glossary_line(text[len("@param "):], chapter.meanings, where, chapter.intents)
        elif text.startswith("@not "):
            m = _DROP.match(text[1:])
            if not m:
                raise SourceError(f"{where}: expected '@not MPI_ERR_X: why': {text}")
            chapter.dropped[m.group(1)] = m.group(2)
        elif indent == 0:
            m = _HEAD.match(text)
            if not m:
                raise SourceError(f"{where}: expected 'MPI_Name: summary': {text}")
            if m.group(1) in entries:
                raise SourceError(f"{where}: {m.group(1)} described twice "
                                  f"(first at {entries[m.group(1)].where})")
            entry = Entry(m.group(1), m.group(2), chapter, where=where)
            entries[entry.name] = entry
            chapter.entries.append(entry)
        elif entry is None:
            raise SourceError(f"{where}: item before any function: {text}")
        else:
            _entry_item(entry, text, where)
    if not chapter.title:
        raise SourceError(f"{path}: no @chapter line")
    return chapter


def load(directory):
    glossary = {}
    path = os.path.join(directory, "glossary.txt")
    for number, _, text in _logical_lines(path):
        _read_glossary_line(text, glossary, f"glossary.txt:{number}")
    entries, chapters = {}, []
    for path in sorted(glob.glob(os.path.join(directory, "*.txt"))):
        if os.path.basename(path) != "glossary.txt":
            chapters.append(_read_chapter(path, entries))
    return Source(glossary, chapters, entries)
