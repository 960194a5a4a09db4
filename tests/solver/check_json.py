#!/usr/bin/env python3
"""check_json.py FULL SNAPSHOT — the values test_json.c wrote, read back."""
import json, math, sys

d = json.load(open(sys.argv[1]))
want = {
    "text": "quote \" backslash \\ tab \t newline \n bell \a",
    "big": 9007199254740993, "third": 1.0 / 3.0, "tenth": 0.1,
    "max": 1.7976931348623157e308, "tiny": 5e-324, "nan": None, "inf": None,
    "yes": True, "none": None,
    "rows": [{"i": 0, "x": 0.0}, {"i": 1, "x": 0.7}, {"i": 2, "x": 1.4}, []],
    "deep": {"deeper": {"pi": math.pi}},
}
bad = [k for k in want if d.get(k, "missing") != want[k] or type(d.get(k)) != type(want[k])]
if bad:
    sys.exit("mismatch: " + ", ".join("%s: %r != %r" % (k, d.get(k), want[k]) for k in bad))
if isinstance(d["big"], float):
    sys.exit("big integer written as a float")
s = json.load(open(sys.argv[2]))
if s != [{"row": 0}, {"row": 1}]:
    sys.exit("snapshot: %r" % s)
