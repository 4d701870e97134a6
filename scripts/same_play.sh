#!/usr/bin/env bash
# The refactor guard: play every preset at seed 0 (100 deals) and five table configurations (heads-up, three- and
# six-handed, and the default bot heads-up and four-handed: scripts/same_play/*.toml), one worker, no histories; with a
# second folder, compare every summary.json and deals.csv byte for byte.  A change meant to be speed or structure
# only must leave them all identical.
#
#   scripts/same_play.sh OUT                # play into OUT (about 4 minutes of CPU)
#   scripts/same_play.sh OUT BASE           # ... then compare OUT with an earlier run BASE (exit 1 on a difference)
#
# A preset this tree ships that BASE did not play is skipped ("new"), unless SAME_PLAY_RENAMED names the BASE preset
# it replaces with the same player spec (NEW=OLD, space-separated, e.g. "fig3-B-B1=fig3-B"): then deals.csv's rows and
# summary.json's numbers must be identical, only the preset's name, description and labels may differ
# (scripts/same_play_renamed.py).
#
# Run it from the tree to test (or with PYTHONPATH=<tree>/src), with a writable NUMBA_CACHE_DIR.
set -euo pipefail
out=${1:?usage: same_play.sh OUT [BASE]}
base=${2:-}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
presets="quick fig3-B fig3-R fig3-BR fig3-S fig3-BRS fig4"
shipped=$(loki tournament --list)
for p in fig3-B-B1 fig3-S-S2 fig3-BRS-BRS3; do  # the fitted sets' presets, where this tree ships them
  if grep -q "^$p " <<< "$shipped"; then presets="$presets $p"; fi
done
for p in $presets; do
  loki tournament --preset "$p" --deals 100 --seed 0 --no-histories --no-plots --workers 1 --quiet \
    --out "$out/$p" --overwrite > "$out/$p.log" 2>&1 || { echo "FAIL $p (see $out/$p.log)"; exit 2; }
done
for c in hu three six adaptive-hu adaptive-four; do
  loki tournament --config "$here/same_play/$c.toml" --no-plots --workers 1 --quiet \
    --out "$out/$c" --overwrite > "$out/$c.log" 2>&1 || { echo "FAIL $c (see $out/$c.log)"; exit 2; }
done
[ -z "$base" ] && exit 0
rc=0
for d in $presets hu three six adaptive-hu adaptive-four; do
  old=$d
  for pair in ${SAME_PLAY_RENAMED:-}; do
    [ "${pair%%=*}" = "$d" ] && [ ! -d "$base/$d" ] && old=${pair#*=}
  done
  if [ ! -d "$base/$old" ]; then
    echo "new  $d (not in $base)"
  elif [ "$old" != "$d" ]; then
    if python3 "$here/same_play_renamed.py" "$base/$old" "$out/$d"; then echo "same $d (as $old)"; else echo "DIFF $d (against $old)"; rc=1; fi
  elif cmp -s "$base/$d/summary.json" "$out/$d/summary.json" && cmp -s "$base/$d/deals.csv" "$out/$d/deals.csv"; then
    echo "same $d"
  else
    echo "DIFF $d"
    rc=1
  fi
done
exit $rc
