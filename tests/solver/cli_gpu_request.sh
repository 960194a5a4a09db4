#!/usr/bin/env bash
# cli_gpu_request.sh SYLVA MATRICES_DIR — an explicit request for GPUs
# (--mode gpu or hybrid, --gpus N > 0) that the machine cannot meet fails
# with exit 4 naming what was found, in factor, analyze and study, with the
# JSON status "runtime"; without one (--mode auto) the summary says where
# the factorization ran; --precision single with a GPU request is a usage
# error. Runs on any machine: the GPUs found (the JSON's runtime.gpus of an
# auto run) decide which requests must fail.
set -u
sylva=$1; dir=$2
. "$(dirname "$0")/../cli_expect.sh" # $tmp, fail, expect
json() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$1" "$2"; }
m=$dir/real/bcsstk14.mtx

expect 0 "backward error" -- factor "$m" --json "$tmp/auto.json"
gpus=$(json "$tmp/auto.json" 'd["runtime"]["gpus"]')
if [ "$gpus" = 0 ]; then
  none="none was found (no CUDA device visible, or sylva built without CUDA)"
  expect 0 "on the CPU: " -- factor "$m"
  expect 0 "(no GPU found)" -- factor "$m"
  for req in "--mode gpu" "--mode hybrid" "--gpus 1" "--gpus 2" "--mode gpu --gpus 1"; do
    # shellcheck disable=SC2086
    expect 4 "sylva: $req asks for GPUs, but $none" -- factor "$m" $req --json "$tmp/fail.json"
    [ "$(json "$tmp/fail.json" 'd["status"]')" = runtime ] || { fails=$((fails + 1)); echo "FAIL: $req: JSON status"; }
    grep -q "asks for GPUs" "$tmp/fail.json" || { fails=$((fails + 1)); echo "FAIL: $req: JSON message"; }
    # shellcheck disable=SC2086
    expect 4 "$none" -- analyze "$m" $req
  done
  expect 4 "$none" -- study "$dir/real/bcsstk01.mtx" --mode gpu -o "$tmp/study"
  [ -e "$tmp/study/study.html" ] && { fails=$((fails + 1)); echo "FAIL: study wrote a report"; }
  # Stated in the -v line too.
  expect 0 "factorized on the CPU (no GPU found)" -- factor "$m" -v
else
  expect 0 " on $gpus GPU" -- factor "$m"
  expect 0 "on the CPU: " -- factor "$m" --precision single
  expect 0 "(GPUs factor in double precision only)" -- factor "$m" --precision single
  more=$((gpus + 1)); was=were; [ "$gpus" = 1 ] && was=was
  expect 4 "--gpus $more asks for $more GPUs, but $gpus $was found" -- factor "$m" --gpus $more
  expect 4 "--mode gpu --gpus $more asks for $more GPUs" -- analyze "$m" --mode gpu --gpus $more
fi
# Where a CPU run ran, and why, whatever the machine.
expect 0 "on the CPU: 2 workers (--mode cpu)" -- factor "$m" --mode cpu --threads 2
expect 0 "on the CPU: 1 worker (--gpus 0)" -- factor "$m" --gpus 0 --threads 1
expect 2 "--precision single runs on the CPU (GPUs factor in double precision only)" -- \
  factor "$m" --precision single --mode gpu
expect 2 "it does not go with --mode gpu, --mode hybrid or --gpus N" -- factor "$m" --precision single --gpus 1

echo "$((checks - fails)) passed, $fails failed"
[ "$fails" = 0 ]
