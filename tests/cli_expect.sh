# cli_expect.sh — sourced by the command's test scripts (tests/*/cli_*.sh)
# after they set $sylva: a temporary folder $tmp (removed at exit), the
# counters $checks and $fails, fail MESSAGE, and
#   expect CODE PATTERN -- ARGS...
# which runs "$sylva" ARGS, and fails unless it exits with CODE and its
# stdout or stderr holds PATTERN (a fixed string), and
#   check FILE EXPR
# which fails unless the Python expression EXPR over d (FILE's JSON) is
# true. The script ends with
#   echo "NAME: $checks checks, $fails failures"; [ "$fails" = 0 ]
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fails=0; checks=0
fail() { fails=$((fails + 1)); echo "FAIL: $*"; }
expect() {
  local code=$1 pat=$2; shift 3
  "$sylva" "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?
  checks=$((checks + 1))
  if [ "$rc" != "$code" ] || ! grep -qF -- "$pat" "$tmp/err" "$tmp/out"; then
    fail "sylva $* -> exit $rc (want $code), output lacks '$pat':"; cat "$tmp/out" "$tmp/err"
  fi
}
check() {
  checks=$((checks + 1))
  python3 -c "import json,sys; d=json.load(open(sys.argv[1])); sys.exit(0 if eval(sys.argv[2]) else 1)" "$1" "$2" ||
    fail "$1: not ($2): $(head -c 3000 "$1")"
}
