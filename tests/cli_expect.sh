# cli_expect.sh — sourced by the command's test scripts (tests/*/cli_*.sh)
# after they set $sylva: a temporary folder $tmp (removed at exit), the
# counters $checks and $fails, fail MESSAGE, and
#   expect CODE PATTERN -- ARGS...
# which runs "$sylva" ARGS, and fails unless it exits with CODE and its
# stdout or stderr holds PATTERN (a fixed string). The script ends with
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
