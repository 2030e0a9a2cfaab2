#!/usr/bin/env python3
"""Checks a results.json against Gradescope's documented autograder format.

  check_gradescope.py RESULTS [--score S] [--tests N] [--status-passed N] [--verdict V]

Gradescope reads (all optional but the score, which the tests' scores may give): score,
execution_time, output, output_format, test_output_format, test_name_format, visibility,
stdout_visibility, extra_data, tests[], leaderboard[]; each test: score, max_score, status
("passed" or "failed"), name, name_format, number, output, output_format, tags, visibility,
extra_data. Anything else, a wrong type or value, invalid UTF-8, or test scores that do not
add up to the score, is an error. Exit status 0 when the file passes, 1 otherwise.
"""
import argparse
import json
import math
import sys

TOP = {"score", "execution_time", "output", "output_format", "test_output_format", "test_name_format",
       "visibility", "stdout_visibility", "extra_data", "tests", "leaderboard"}
TEST = {"score", "max_score", "status", "name", "name_format", "number", "output", "output_format", "tags",
        "visibility", "extra_data"}
FORMATS = {"text", "html", "simple_format", "md", "ansi"}
VISIBILITY = {"hidden", "after_due_date", "after_published", "visible"}


def number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("results")
    ap.add_argument("--score", type=float)
    ap.add_argument("--tests", type=int)
    ap.add_argument("--status-passed", type=int)
    ap.add_argument("--verdict")
    a = ap.parse_args()
    errors = []
    raw = open(a.results, "rb").read()
    try:
        r = json.loads(raw.decode("utf-8", errors="strict"))
    except (UnicodeDecodeError, ValueError) as e:
        print(f"{a.results}: not valid UTF-8 JSON: {e}")
        return 1
    if not isinstance(r, dict):
        print(f"{a.results}: not an object")
        return 1
    for k in set(r) - TOP:
        errors.append(f"unknown top-level key {k!r}")
    if "score" not in r or not number(r["score"]):
        errors.append("no numeric top-level score")
    for k in ("output",):
        if k in r and not isinstance(r[k], str):
            errors.append(f"{k} is not a string")
    for k in ("output_format", "test_output_format", "test_name_format"):
        if k in r and r[k] not in FORMATS:
            errors.append(f"{k} {r[k]!r} is not one of {sorted(FORMATS)}")
    for k in ("visibility", "stdout_visibility"):
        if k in r and r[k] not in VISIBILITY:
            errors.append(f"{k} {r[k]!r} is not one of {sorted(VISIBILITY)}")
    if "extra_data" in r and not isinstance(r["extra_data"], dict):
        errors.append("extra_data is not an object")
    tests = r.get("tests", [])
    if not isinstance(tests, list):
        errors.append("tests is not a list")
        tests = []
    total = 0.0
    for i, t in enumerate(tests):
        where = f"tests[{i}]"
        if not isinstance(t, dict):
            errors.append(f"{where} is not an object")
            continue
        for k in set(t) - TEST:
            errors.append(f"{where}: unknown key {k!r}")
        if not isinstance(t.get("name"), str) or not t["name"]:
            errors.append(f"{where}: no name")
        for k in ("score", "max_score"):
            if not number(t.get(k)):
                errors.append(f"{where}: {k} is not a number")
        if number(t.get("max_score")) and t["max_score"] < 0:
            errors.append(f"{where}: negative max_score")
        if number(t.get("score")):
            total += t["score"]
        if t.get("status") not in ("passed", "failed"):
            errors.append(f"{where}: status {t.get('status')!r} is not passed or failed")
        if "output" in t and not isinstance(t["output"], str):
            errors.append(f"{where}: output is not a string")
        if "output_format" in t and t["output_format"] not in FORMATS:
            errors.append(f"{where}: output_format {t['output_format']!r}")
        if "visibility" in t and t["visibility"] not in VISIBILITY:
            errors.append(f"{where}: visibility {t['visibility']!r}")
        if "tags" in t and (not isinstance(t["tags"], list) or not all(isinstance(x, str) for x in t["tags"])):
            errors.append(f"{where}: tags is not a list of strings")
    if tests and number(r.get("score")) and abs(total - r["score"]) > 1e-6:
        errors.append(f"the tests' scores add up to {total}, the score is {r['score']}")
    if a.score is not None and number(r.get("score")) and abs(r["score"] - a.score) > 1e-6:
        errors.append(f"score {r['score']}, expected {a.score}")
    if a.tests is not None and len(tests) != a.tests:
        errors.append(f"{len(tests)} tests, expected {a.tests}")
    if a.status_passed is not None:
        passed = sum(1 for t in tests if isinstance(t, dict) and t.get("status") == "passed")
        if passed != a.status_passed:
            errors.append(f"{passed} tests passed, expected {a.status_passed}")
    if a.verdict is not None and r.get("extra_data", {}).get("verdict") != a.verdict:
        errors.append(f"verdict {r.get('extra_data', {}).get('verdict')!r}, expected {a.verdict!r}")
    for e in errors:
        print(f"{a.results}: {e}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
