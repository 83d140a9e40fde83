#!/usr/bin/env python3
"""Lists the import cycles between the modules of a Rust crate.

    scripts/import-cycles.py engine/src sim/src

A module is a file (`queue.rs`, `actions/mod.rs`). Module A imports module B when A's code names
an item of B: a `use` of `crate::…`, `super::…`, `self::…` or of a child module, or such a path
written inline. `mod b;` alone is not an import. A file's own `#[cfg(test)] mod tests { … }` (or
`#[cfg(all(test, …))]`) at its end belongs to it and is left out (its `super::` means the file
itself).

Prints each strongly connected group of two or more modules with one import that closes a circle,
and exits 1 if there is any, 0 if there is none.
"""

import re
import sys
from pathlib import Path

USE = re.compile(r"(\bpub(?:\([\w:]+\))?\s+)?\buse\s+([^;]+);", re.S)
INLINE = re.compile(r"\b((?:crate|super|self)(?:::\w+)+)")
TESTS = re.compile(r"^#\[cfg\((?:test|all\(test\b[^\]]*\))\)\]\s*\n\s*mod \w+ \{", re.M)
LINE_COMMENT = re.compile(r"//[^\n]*")


def module_of(root: Path, file: Path) -> tuple:
    parts = list(file.relative_to(root).with_suffix("").parts)
    if parts[-1] in ("mod", "lib", "main"):
        parts.pop()
    return tuple(parts)


def expand(tree: str) -> list:
    """`a::{b, c::{d, e}}` -> [['a','b'], ['a','c','d'], ['a','c','e']]"""
    tree = re.sub(r"\s+", "", re.sub(r"\s+as\s+\w+", "", tree))
    out = []

    def walk(prefix, text):
        depth, start, items = 0, 0, []
        for i, ch in enumerate(text):
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
            elif ch == "," and depth == 0:
                items.append(text[start:i])
                start = i + 1
        items.append(text[start:])
        for item in filter(None, items):
            brace = item.find("{")
            if brace >= 0 and "}" in item:
                head = [p for p in item[:brace].split("::") if p]
                walk(prefix + head, item[brace + 1 : item.rindex("}")])
            else:
                out.append(prefix + [p for p in item.split("::") if p])

    walk([], tree)
    return out


def resolve(here: tuple, path: list, modules: set):
    """The module a path names an item of, or None when it leaves the crate."""
    if not path:
        return None
    if path[0] == "crate":
        base, rest = (), path[1:]
    elif path[0] == "self":
        base, rest = here, path[1:]
    elif path[0] == "super":
        base, rest = here, path
        while rest and rest[0] == "super":
            base, rest = base[:-1], rest[1:]
    elif here + (path[0],) in modules:
        base, rest = here, path
    else:
        return None
    target = base
    for part in rest:
        if target + (part,) in modules:
            target = target + (part,)
        else:
            break
    return target


def graph(root: Path) -> dict:
    files = {module_of(root, f): f for f in root.rglob("*.rs")}
    modules = set(files)
    uses, reexports = {}, {}
    for here, file in files.items():
        text = file.read_text()
        cut = TESTS.search(text)
        if cut:
            text = text[: cut.start()]
        text = LINE_COMMENT.sub("", text)
        own, shown = [], {}
        for public, tree in USE.findall(text):
            for path in expand(tree):
                if public:
                    shown[path[-1]] = path
                else:
                    own.append(path)
        without_uses = USE.sub("", text)
        own += [m.split("::") for m in INLINE.findall(without_uses)]
        uses[here], reexports[here] = own, shown

    def target(here, path, seen=()):
        module = resolve(here, path, modules)
        if module is None:
            return None
        # An item shown by a `pub use` belongs to the module it comes from.
        rest = path[path_len(here, path, module):]
        if rest and rest[0] in reexports[module] and (module, rest[0]) not in seen:
            return target(module, reexports[module][rest[0]], seen + ((module, rest[0]),))
        return module

    edges = {m: set() for m in modules}
    for here, paths in uses.items():
        for path in paths:
            module = target(here, path)
            if module is not None and module != here:
                edges[here].add(module)
    return edges


def path_len(here: tuple, path: list, module: tuple) -> int:
    """How many leading segments of `path` name the module it resolves to."""
    if path[0] == "crate":
        return 1 + len(module)
    if path[0] == "self":
        return 1 + len(module) - len(here)
    if path[0] == "super":
        ups = 0
        while ups < len(path) and path[ups] == "super":
            ups += 1
        return ups + len(module) - (len(here) - ups)
    return len(module) - len(here)


def cycles(edges: dict) -> list:
    """Tarjan's strongly connected components of two or more modules."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    sys.setrecursionlimit(10_000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def name(module: tuple) -> str:
    return "::".join(module) or "crate"


def main() -> int:
    found = 0
    for root in map(Path, sys.argv[1:] or ["."]):
        edges = graph(root)
        for group in cycles(edges):
            found += 1
            members = set(group)
            print(f"{root}: cycle among {', '.join(name(m) for m in group)}")
            for m in group:
                back = sorted(name(t) for t in edges[m] if t in members)
                print(f"    {name(m)} -> {', '.join(back)}")
    if not found:
        print("no import cycles in", " ".join(sys.argv[1:] or ["."]))
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
