#!/usr/bin/env python3
"""check_api_doc.py DOC HEADER... — docs/api.md kept in step with the public
headers: every function the headers declare has its prototype, word for
word (white space aside), in one of DOC's C code blocks, and every field of
every public struct has a row in the table under the struct's heading
(#### `name`) with the header's type; a prototype, struct or field the doc
names that the headers no longer have fails too. Exit 0 when in step, else
1 with each difference on stderr. With --draft, print the missing
prototypes and table rows (types from the header, meanings to write).
"""
import re
import sys


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    # Preprocessor lines, with their continuations.
    return re.sub(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", " ", text, flags=re.M)


def norm(s):
    s = re.sub(r"\s+", " ", s).strip()
    s = re.sub(r"\s*([(),;*\[\]])\s*", r"\1", s)
    return s.replace(",", ", ")


def split_declarators(decl):
    """'double a, b[3]' -> ('double', ['a', 'b']); function pointers kept whole."""
    m = re.match(r"^(.*?)\(\s*\*\s*(\w+)\s*\)\s*\((.*)\)$", decl, flags=re.S)
    if m:  # void (*progress)(void *arg, ...): the type is the declaration without the name
        return norm(m.group(1) + "(*)(" + m.group(3) + ")"), [m.group(2)]
    parts = [p.strip() for p in decl.split(",")]
    m = re.match(r"^(.*?)([\s*]+)(\w+)(\s*\[[^\]]*\])?$", parts[0], flags=re.S)
    if not m:
        raise ValueError("cannot parse field declaration: " + decl)
    base = m.group(1).strip()
    names = []
    for i, p in enumerate(parts):
        q = p if i else p[len(m.group(1)):]
        q = q.strip()
        mm = re.match(r"^([*\s]*)(\w+)\s*(\[[^\]]*\])?$", q)
        if not mm:
            raise ValueError("cannot parse declarator: " + p)
        names.append((mm.group(2), norm(base + " " + mm.group(1) + (mm.group(3) or ""))))
    return None, names


def parse_header(text):
    code = strip_comments(text)
    code = code.replace('extern "C" {', " ")
    structs = {}
    for m in re.finditer(r"typedef\s+struct\s+\w*\s*\{(.*?)\}\s*(\w+)\s*;", code, flags=re.S):
        fields = []
        for decl in m.group(1).split(";"):
            decl = decl.strip()
            if not decl:
                continue
            whole, names = split_declarators(decl)
            if whole is not None:
                fields.append((names[0], whole))
            else:
                fields.extend(names)
        structs[m.group(2)] = fields
    # Everything but type definitions: the function declarations.
    rest = re.sub(r"typedef\s+(?:struct|enum)\s+\w*\s*\{.*?\}\s*\w+\s*;", " ", code, flags=re.S)
    rest = re.sub(r"typedef[^;]*;", " ", rest)
    funcs = {}
    for decl in rest.split(";"):
        decl = decl.strip().lstrip("}").strip()
        m = re.search(r"(\w+)\s*\(", decl)
        if not decl or not m or "(" not in decl:
            continue
        funcs[m.group(1)] = norm(decl) + ";"
    return structs, funcs


def type_of_row(cell):
    return norm(cell.strip().strip("`"))


def parse_doc(text):
    blocks = re.findall(r"```c\n(.*?)```", text, flags=re.S)
    code = norm(" ".join(strip_comments(b) for b in blocks))
    sections = {}
    for m in re.finditer(r"^#### `(\w+)`[^\n]*\n(.*?)(?=^#|\Z)", text, flags=re.M | re.S):
        rows = {}
        for line in m.group(2).splitlines():
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) < 3 or not cells[0].startswith("`"):
                continue
            for name in re.findall(r"`(\w+)`", cells[0]):
                rows[name] = type_of_row(cells[1])
        sections[m.group(1)] = rows
    return code, sections


def main(argv):
    draft = "--draft" in argv
    args = [a for a in argv[1:] if a != "--draft"]
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    doc = open(args[0], encoding="utf-8").read()
    structs, funcs = {}, {}
    for h in args[1:]:
        s, f = parse_header(open(h, encoding="utf-8").read())
        structs.update(s)
        funcs.update(f)
    code, sections = parse_doc(doc)
    problems = []
    for name, proto in sorted(funcs.items()):
        if proto not in code:
            problems.append(f"{args[0]}: function {name}: prototype missing (or different): {proto}")
            if draft:
                print(proto)
    doc_funcs = set(re.findall(r"\b(sylva_\w+)\s*\(", code))
    for name in sorted(doc_funcs - set(funcs)):
        problems.append(f"{args[0]}: function {name} is in a code block but in no header")
    for sname, fields in sorted(structs.items()):
        rows = sections.get(sname)
        if rows is None:
            problems.append(f"{args[0]}: struct {sname}: no '#### `{sname}`' section with its fields")
            rows = {}
            if draft:
                print(f"\n#### `{sname}`\n\n| field | type | what |\n| --- | --- | --- |")
        for fname, ftype in fields:
            if fname not in rows:
                problems.append(f"{args[0]}: struct {sname}: field {fname} ({ftype}) missing")
                if draft:
                    print(f"| `{fname}` | `{ftype}` | |")
            elif rows[fname] != norm(ftype):
                problems.append(f"{args[0]}: struct {sname}: field {fname} is `{ftype}` in the header, "
                                f"`{rows[fname]}` in the doc")
        for fname in sorted(set(rows) - {f for f, _ in fields}):
            problems.append(f"{args[0]}: struct {sname}: field {fname} is documented but not in the header")
    for sname in sorted(set(sections) - set(structs)):
        problems.append(f"{args[0]}: section `{sname}` names no struct of the headers")
    for p in problems:
        print(p, file=sys.stderr)
    print(f"{len(funcs)} functions, {sum(len(f) for f in structs.values())} fields of {len(structs)} structs; "
          f"{len(problems)} differences", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
