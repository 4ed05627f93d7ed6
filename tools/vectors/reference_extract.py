#!/usr/bin/env python3
"""Copy into tests/reference/ the facts the event-table tests check against, so that the test suite
stands alone in a plain clone.  Run from the repository root with ../shared beside it:

    tools/vectors/reference_extract.py ../shared

Intel's perfmon files are vendored whole in eventtables/ (tools/gen/update_eventtables.sh), not here.
- seed003_nhm_rows.txt: seed 003's uncore event table rows (lines 1124-1630 starting with UNC_) as
  "LINE<TAB>row", the row's columns kept as the seed has them but the definition replaced by "-"; seed003_names.txt: every
  UNC_ word the seed uses anywhere.
- seed004_bus_events.txt: seed 004's "NAME 0xNN Y/N Y/N Y/N max" entries of the system bus table
  (lines 3160-3280) and of Table 4-1 for CPU_OP_CYCLES (line 2394), one per line with its line.
"""
import os
import re
import sys



def main(shared):
    out = os.path.join("tests", "reference")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(shared, "seeds", "003_c151f55183a36f9a.txt")) as f:
        seed3 = f.read().split("\n")
    with open(os.path.join(out, "seed003_nhm_rows.txt"), "w") as f:
        f.write("# seed 003 uncore event rows: line, then name, definition (left out: -), umask, event "
                "(tools/vectors/reference_extract.py)\n")
        for n, line in enumerate(seed3, 1):
            if 1124 <= n <= 1630 and line.startswith("UNC_"):
                cols = line.split("\t")
                if len(cols) > 1:
                    cols[1] = "-"  # the definition: prose, not a fact the test reads
                f.write("%d\t%s\n" % (n, "\t".join(cols)))
    names = sorted(set(re.findall(r"UNC_[A-Z0-9_.]+", "\n".join(seed3))))
    with open(os.path.join(out, "seed003_names.txt"), "w") as f:
        f.write("# every UNC_ word of seed 003 (tools/vectors/reference_extract.py)\n")
        f.write("\n".join(names) + "\n")
    with open(os.path.join(shared, "seeds", "004_aa9b0601a856b0dc.txt")) as f:
        seed4 = f.read().split("\n")
    pat = re.compile(r"(?:(?<= )|^)([A-Z][A-Z0-9_]*) 0x([0-9a-fA-F]{2}) (\S{1,3}) (\S{1,3}) (\S{1,3}) (\d+)")
    with open(os.path.join(out, "seed004_bus_events.txt"), "w") as f:
        f.write("# seed 004 bus table entries: line, name, code, three Y/N columns, max inc/cyc "
                "(tools/vectors/reference_extract.py)\n")
        for n, line in enumerate(seed4, 1):
            if not (3160 <= n <= 3280 or n == 2394):
                continue
            for m in pat.finditer(line):
                f.write("%d %s 0x%s %s %s %s %s\n" % ((n,) + m.groups()))


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "../shared")
