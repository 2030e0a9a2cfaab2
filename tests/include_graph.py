#!/usr/bin/env python3
"""The product's include graph: no include cycle, no arrow back up between layers.

Reads the #include "..." lines of the product's C++ and CUDA files (the folders LAYERS names), resolves each as the
compiler does (beside the including file, then from the repository's root; the emulator's own files also see
emulate/include and emulate/runtime) and fails, naming the lines, on
  - a cycle: a module that includes itself through others, a module being a file's path without its extension
    (x.h and x.cpp are one, so x.cpp including x.h is no arrow, and x.cpp including y.h while y.cpp includes x.h
    is a cycle);
  - an arrow up or across: a file of one layer including a file of a layer MAY_INCLUDE does not allow it.

  include_graph.py [ROOT]   checks the tree at ROOT (default: this file's repository); prints the arrows
                            between layers it found
  include_graph.py --self-test   checks that a made-up tree with a cycle and an arrow up fails, and a clean one passes
"""
import os
import re
import sys
import tempfile

# The layers, each the path prefixes that are in it (the longest prefix that matches a file decides).
LAYERS = {
    "settings": ["settings/"],  # every environment variable the product reads: below everything else
    # What a problem description uses (sdk/timing.h: a problem's TimingPolicy, shared with the runner).
    "sdk": ["sdk/"],
    # The problems and their families' code (problems/families/: descriptions, CPU references, generators).
    "problems": ["problems/"],
    "protocol": ["protocol/"],  # what the judge and the runner share
    "emulate": ["emulate/"],    # the CUDA emulator: its runtime, its headers, its source rewriter
    "runner": ["runner/"],      # the runner process
    "judge": ["judge/"],        # the judge's library: grading, isolation, machine, reports, classroom
    "server": ["server/"],      # judge serve: the store, the HTTP API, the pages, the workers
    "cli": ["judge/cli/"],      # the judge's front end, above everything else in the judge
}

# The layers each layer's files may include besides their own; what those may include is allowed too.
MAY_INCLUDE = {
    "settings": [],
    "sdk": ["settings"],
    "problems": ["sdk"],
    "protocol": ["sdk"],
    "emulate": ["sdk"],
    "runner": ["protocol", "emulate"],
    "judge": ["protocol", "emulate"],
    "server": ["judge"],
    "cli": ["judge", "problems", "server"],
}

SOURCE = re.compile(r"\.(h|hpp|cpp|cc|cu|cuh)$")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)


def layer_of(path):
    best = None
    for layer, prefixes in LAYERS.items():
        for p in prefixes:
            if path.startswith(p) and (best is None or len(p) > len(best[1])):
                best = (layer, p)
    return best[0] if best else None


def allowed(layer):
    seen, todo = set(), [layer]
    while todo:
        for below in MAY_INCLUDE[todo.pop()]:
            if below not in seen:
                seen.add(below)
                todo.append(below)
    return seen | {layer}


# A problem's solutions and submissions are files the judge compiles as a student's, not product code.
NOT_PRODUCT = {"solutions", "submissions"}


def product_files(root):
    for top in sorted({p.split("/")[0] for ps in LAYERS.values() for p in ps}):
        for d, dirs, files in os.walk(os.path.join(root, top)):
            dirs[:] = sorted(x for x in dirs if not (top == "problems" and x in NOT_PRODUCT))
            for f in sorted(files):
                rel = os.path.relpath(os.path.join(d, f), root)
                if SOURCE.search(f) and layer_of(rel):
                    yield rel


def resolve(root, includer, name):
    dirs = [os.path.dirname(includer), ""]
    if includer.startswith("emulate/"):
        dirs += ["emulate/include", "emulate/runtime"]
    for d in dirs:
        cand = os.path.normpath(os.path.join(d, name))
        if os.path.isfile(os.path.join(root, cand)):
            return cand
    return None  # a system or generated header


def edges_of(root):
    """(includer, included, line) for every resolved #include "..." of the product."""
    out = []
    for f in product_files(root):
        with open(os.path.join(root, f), encoding="utf-8", errors="replace") as fh:
            text = fh.read()
        for m in INCLUDE.finditer(text):
            to = resolve(root, f, m.group(1))
            if to:
                out.append((f, to, text.count("\n", 0, m.start()) + 1))
    return out


def module(path):
    return os.path.splitext(path)[0]


def cycles(edges):
    """The strongly connected components of more than one module (Tarjan), each sorted."""
    graph = {}
    for a, b, _ in edges:
        if module(a) != module(b):
            graph.setdefault(module(a), set()).add(module(b))
            graph.setdefault(module(b), set())
    index, low, on, stack, out = {}, {}, set(), [], []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def check(root, quiet=False):
    """The findings, one line each; prints the arrows between layers unless quiet."""
    edges = edges_of(root)
    findings = []
    arrows = {}
    for a, b, line in edges:
        la, lb = layer_of(a), layer_of(b)
        if lb is None:
            findings.append(f"{a}:{line}: includes {b}, which is in no layer of the product")
        elif lb not in allowed(la):
            findings.append(f"{a}:{line}: {la} may not include {lb}: {b}")
        elif la != lb:
            arrows[(la, lb)] = arrows.get((la, lb), 0) + 1
    for comp in cycles(edges):
        inside = [f"{a}:{n} -> {b}" for a, b, n in edges
                  if module(a) in comp and module(b) in comp and module(a) != module(b)]
        findings.append("include cycle among " + ", ".join(comp) + ":\n    " + "\n    ".join(inside))
    if not quiet:
        print(f"{len(edges)} includes between {len({e[0] for e in edges})} files; arrows between layers:")
        for (la, lb), n in sorted(arrows.items()):
            print(f"  {la} -> {lb}: {n}")
    return findings


def self_test():
    """A tree with a cycle and an arrow up must fail, naming both; the same tree without them must pass."""
    files = {
        "sdk/a.h": '#include "sdk/b.h"\n',
        "sdk/b.h": "",
        "protocol/p.h": '#include "sdk/a.h"\n',
        "runner/r.cpp": '#include "protocol/p.h"\n#include "runner/r.h"\n',
        "runner/r.h": "",
        "judge/j.h": '#include "protocol/p.h"\n',
        "judge/cli/main.cpp": '#include "judge/j.h"\n',
    }
    bad = dict(files)
    bad["sdk/b.cpp"] = '#include "sdk/b.h"\n#include "sdk/a.h"\n'   # sdk/a <-> sdk/b, through b's .cpp
    bad["protocol/p.cpp"] = '#include "runner/r.h"\n'               # protocol up to runner, so protocol/p <-> runner/r
    bad["judge/j.cpp"] = '#include "judge/cli/x.h"\n'              # judge up to its front end
    bad["judge/cli/x.h"] = ""
    results = []
    for tree in (files, bad):
        with tempfile.TemporaryDirectory() as root:
            for path, text in tree.items():
                os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
                with open(os.path.join(root, path), "w") as fh:
                    fh.write(text)
            results.append(check(root, quiet=True))
    clean, found = results
    text = "\n".join(found)
    ok = (not clean and len(found) == 4 and "include cycle among sdk/a, sdk/b" in text
          and "include cycle among protocol/p, runner/r" in text
          and "protocol/p.cpp:1: protocol may not include runner" in text
          and "judge/j.cpp:1: judge may not include cli" in text)
    if not ok:
        print("self-test failed: clean tree gave", clean, "; bad tree gave", found)
    return ok


def main():
    if not self_test():
        return 1
    if sys.argv[1:] == ["--self-test"]:
        print("self-test passed")
        return 0
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    findings = check(root)
    for f in findings:
        print(f)
    print(f"{len(findings)} findings" if findings else "no cycle, no arrow up")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
