#!/usr/bin/env bash
# check_api_doc_fails.sh SOURCE_DIR — check_api_doc.py catches drift: on a
# copy of sylva.h with a new function, a new field and a field whose type
# changed, and on a copy of docs/api.md with a prototype removed, it exits
# 1 naming each; on the real files it exits 0.
set -u
src=$1; tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
check="python3 $src/tests/docs/check_api_doc.py"
fails=0
want() { # want PATTERN FILE
  grep -qF -- "$1" "$2" || { fails=$((fails + 1)); echo "FAIL: the check does not say '$1':"; cat "$2"; }
}
$check "$src/docs/api.md" "$src/include/sylva.h" "$src/include/sylva_cholmod.h" 2>"$tmp/ok" ||
  { fails=$((fails + 1)); echo "FAIL: the real files are not in step:"; cat "$tmp/ok"; }
sed -e 's/^double sylva_wtime(void);/&\nint sylva_new_call(int64_t n);/' \
    -e 's/^    int owns_arrays; /    int owns_arrays;\n    double new_field;/' \
    -e 's/^    int64_t nnz;          \/\* stored entries/    int32_t nnz;          \/\* stored entries/' \
    "$src/include/sylva.h" > "$tmp/sylva.h"
if $check "$src/docs/api.md" "$tmp/sylva.h" "$src/include/sylva_cholmod.h" 2>"$tmp/err"; then
  fails=$((fails + 1)); echo "FAIL: a changed header passed"
fi
want "function sylva_new_call: prototype missing" "$tmp/err"
want "struct sylva_matrix: field new_field (double) missing" "$tmp/err"
want "struct sylva_matrix: field nnz is \`int32_t\` in the header, \`int64_t\` in the doc" "$tmp/err"
grep -v '^int sylva_rcond(const sylva_factor_t \*F' "$src/docs/api.md" > "$tmp/api.md"
if $check "$tmp/api.md" "$src/include/sylva.h" "$src/include/sylva_cholmod.h" 2>"$tmp/err2"; then
  fails=$((fails + 1)); echo "FAIL: a doc without sylva_rcond's prototype passed"
fi
want "function sylva_rcond: prototype missing" "$tmp/err2"
echo "$fails failed"
[ "$fails" = 0 ]
