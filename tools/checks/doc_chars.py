#!/usr/bin/env python3
"""Control characters in the pages people read: README.md and every other *.md, the manual pages' sources
and the other *.in templates.  Tab and newline belong there; any other byte 0x00-0x1F, DEL (0x7F) and the C1
controls U+0080-U+009F (as UTF-8 encodes them) do not: a form feed typed where troff's "\\f" was meant
showed "Bstruct uncore_healthR" in libuncore(3), in every locale (issue 89).

    tools/checks/doc_chars.py ROOT    prints "files N", then FILE:LINE:COLUMN: control character 0xNN for
                                      each one; exit 1 if there is any.  The files: git's where ROOT is the
                                      top of a checkout (a build tree or PAPI's sources may lie below it),
                                      else every *.md and *.in below ROOT but in build trees (a release
                                      tarball: make distcheck's _build and _inst) and automake's Makefile.in
                                      (no page: its test colours are escape sequences)
"""
import os
import re
import subprocess
import sys

BAD = re.compile(rb"[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]")
PAGE = re.compile(r".*\.(md|in)$")


def pages(root):
    top = subprocess.run(["git", "-C", root, "rev-parse", "--show-toplevel"], capture_output=True, text=True)
    if top.returncode == 0 and os.path.realpath(top.stdout.strip()) == os.path.realpath(root):
        out = subprocess.run(["git", "-C", root, "ls-files", "-z", "--", "*.md", "*.in"],
                             capture_output=True, text=True, check=True).stdout
        return sorted(n for n in out.split("\0") if n)
    names = []
    for d, dirs, files in os.walk(root):
        dirs[:] = [x for x in dirs if x not in ("_build", "_inst", ".git") and not x.startswith("build")]
        names += [os.path.relpath(os.path.join(d, f), root) for f in files if PAGE.match(f) and f != "Makefile.in"]
    return sorted(names)


def main():
    root = sys.argv[1]
    names = pages(root)
    print("files", len(names))
    found = 0
    for name in names:
        with open(os.path.join(root, name), "rb") as f:
            for no, line in enumerate(f.read().split(b"\n"), 1):
                for m in BAD.finditer(line):
                    print("%s:%d:%d: control character 0x%02X" % (name, no, m.start() + 1, m.group()[-1]))
                    found += 1
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
