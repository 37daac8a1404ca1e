#!/usr/bin/env python3
"""Fails when a public declaration in Sources/ has no doc comment, so DocC documents every
public symbol. Run by scripts/test.sh; prints one line per undocumented declaration.

    scripts/check_public_docs.py
"""
import pathlib
import re
import sys

DECLARATION = re.compile(r"(@\w+(\([^)]*\))?\s+)*(public|open)\s")
NOT_A_SYMBOL = re.compile(r"(public|open)\s+(import|extension)\b")
ATTRIBUTE = re.compile(r"\s*@\w+")


def undocumented(path: pathlib.Path, name: pathlib.Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").split("\n")
    found = []
    for index, line in enumerate(lines):
        text = line.strip()
        if not DECLARATION.match(text) or NOT_A_SYMBOL.match(text):
            continue
        above = index - 1
        # Attributes on lines of their own sit between a declaration and its comment.
        while above >= 0 and ATTRIBUTE.match(lines[above]) and not lines[above].strip().startswith("///"):
            above -= 1
        previous = lines[above].strip() if above >= 0 else ""
        if not (previous.startswith("///") or previous.endswith("*/")):
            found.append(f"{name}:{index + 1}: public declaration without a doc comment: {text[:90]}")
    return found


def main() -> int:
    root = pathlib.Path(__file__).resolve().parent.parent
    # The executables' entry points are not API.
    sources = [p for p in sorted((root / "Sources").rglob("*.swift"))
               if p.parent.name not in ("planekit", "planekit-view")]
    problems = [line for path in sources for line in undocumented(path, path.relative_to(root))]
    for line in problems:
        print(line, file=sys.stderr)
    if problems:
        print(f"check-public-docs: {len(problems)} public declaration(s) without a doc comment", file=sys.stderr)
        return 1
    print(f"check-public-docs: every public declaration in {len(sources)} files has a doc comment")
    return 0


if __name__ == "__main__":
    sys.exit(main())
