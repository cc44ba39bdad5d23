#!/usr/bin/env python3
"""The kept fuzz inputs, fuzz/regressions/<target>.txt, and libFuzzer's
directories of one file per input.

Each line of a target's file is one input: its bytes in hex, then, for an
input kept for a reason (a bug it exposed, a case made by hand), a space and
its name. Lines starting with `#` and blank lines are skipped. Inputs without
a name are the ones fuzz/minimize.sh chose for coverage and replaces on its
next run; named ones stay until removed by hand. One file per target keeps
the repository small, where a file per input made thousands.

    fuzz/regressions.py unpack TARGET DIR
        writes every kept input to DIR, one file each (named inputs under
        their name, the others under the SHA-1 of their bytes), as libFuzzer
        reads a corpus.
    fuzz/regressions.py add TARGET FILE [NAME]
        appends FILE's bytes, named NAME (default: the file's name), unless
        the same bytes are kept already.
    fuzz/regressions.py replace-unnamed TARGET FILE...
        replaces every input without a name by the bytes of FILE..., keeping
        the named ones (and not repeating their bytes).
"""

import hashlib
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def path_of(target):
    return os.path.join(HERE, "regressions", f"{target}.txt")


def header(target):
    return (
        f"# The kept inputs of the `{target}` fuzz target, one a line: its bytes in hex,\n"
        "# then, for one kept for a reason (a bug it exposed, a case made by hand), a\n"
        "# space and its name. See fuzz/regressions.py.\n"
    )


def read(target):
    """The header lines and the kept inputs, as (bytes, name or None)."""
    comments, inputs = [], []
    if not os.path.exists(path_of(target)):
        return [header(target)], inputs
    with open(path_of(target)) as f:
        for line in f:
            if line.startswith("#"):
                comments.append(line)
                continue
            line = line.rstrip("\n")
            if not line:
                continue
            hex_, _, name = line.partition(" ")
            inputs.append((bytes.fromhex(hex_), name or None))
    return comments, inputs


def write(target, comments, inputs):
    os.makedirs(os.path.dirname(path_of(target)), exist_ok=True)
    with open(path_of(target), "w") as f:
        f.writelines(comments)
        for data, name in inputs:
            if not data:
                # An empty line would be skipped; every decoder reads no bytes
                # as zeros, which a one-byte zero input covers.
                data = b"\0"
            f.write(data.hex() + (f" {name}" if name else "") + "\n")


def unpack(target, directory):
    os.makedirs(directory, exist_ok=True)
    _, inputs = read(target)
    for data, name in inputs:
        with open(os.path.join(directory, name or hashlib.sha1(data).hexdigest()), "wb") as f:
            f.write(data)


def add(target, file, name=None):
    comments, inputs = read(target)
    with open(file, "rb") as f:
        data = f.read()
    if any(kept == data for kept, _ in inputs):
        return
    inputs.append((data, name or os.path.basename(file)))
    write(target, comments, inputs)


def replace_unnamed(target, files):
    comments, inputs = read(target)
    named = [(data, name) for data, name in inputs if name]
    seen = {data for data, _ in named}
    chosen = []
    for file in files:
        with open(file, "rb") as f:
            data = f.read()
        if data not in seen:
            seen.add(data)
            chosen.append((data, None))
    write(target, comments, named + chosen)


def main(args):
    if len(args) == 3 and args[0] == "unpack":
        unpack(args[1], args[2])
    elif len(args) in (3, 4) and args[0] == "add":
        add(*args[1:])
    elif len(args) >= 2 and args[0] == "replace-unnamed":
        replace_unnamed(args[1], args[2:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
