#!/usr/bin/env bash
# Proof by agreement on a GPU machine (issue 28, docs/binary-trace.md): `reducescope verify --binary` for every
# kernel of the five tracks at two block sizes: block 0 traced by the source probe and by the binary tracer.
# Usage: bash scripts/device/binary_proof.sh BUILD_DIR [BLOCK_SIZES]   (default "64 256")
# Writes $OUT/proof.log (every verify's output, as it goes) and $OUT/proof.md (the table).
set -u
B=$(cd "${1:?build dir}" && pwd)
R=$B/reducescope
sizes=${2:-64 256}
export PATH=/usr/local/cuda/bin:$PATH
log=$OUT/proof.log
: > "$log"
for track in harris lecture book course modern; do
  kernels=$("$R" run --track "$track" --block-size 256 --n 4096 2>/dev/null | awk '/ block size /{print $1}' | sort -u)
  for k in $kernels; do
    for b in $sizes; do
      echo "=== $track $k $b" >> "$log"
      timeout 90 "$R" verify --binary --kernel "$k" --block-size "$b" >> "$log" 2>&1
      echo "=== rc=$?" >> "$log"
    done
  done
done
python3 - "$log" > "$OUT/proof.md" <<'PY'
import sys, re
rows, cur = [], None
for line in open(sys.argv[1]):
    if line.startswith('=== rc='):
        cur['rc'] = line.strip()[7:]; rows.append(cur); cur = None
    elif line.startswith('=== '):
        t, k, b = line[4:].split(); cur = {'track': t, 'kernel': k, 'bs': b, 'fig': {}, 'msg': ''}
    elif cur is not None:
        m = re.match(r'  (\S.*?)\s{2,}(\S.*?)\s{2,}(\S.*?)\s+(equal|DIFFERENT|binary only.*)$', line.rstrip('\n'))
        if m:
            cur['fig'][m.group(1)] = (m.group(2).strip(), m.group(3).strip(), m.group(4))
        elif line.startswith('reducescope verify:'):
            cur['msg'] = line.strip()[len('reducescope verify: '):]
        else:  # a per-step list too long for its column: the figures run together, the verdict is the last word
            for label in ('load bank conflicts per step', 'store bank conflicts per step'):
                if line.startswith('  ' + label):
                    cur['fig'][label] = ('', '', line.split()[-1])
cols = ['steps', 'shared memory after each step', 'load bank conflicts per step', 'store bank conflicts per step',
        'global load / store requests', 'global load / store sectors', 'shuffles', 'atomics (warp-level)']
short = ['steps', 'shared memory', 'ld conflicts', 'st conflicts', 'global requests', 'sectors', 'shuffles', 'atomics']
print('| track | kernel | threads | ' + ' | '.join(short) + ' | verdict |')
print('|' + '---|' * (len(short) + 4))
for r in rows:
    cells = []
    for c in cols:
        f = r['fig'].get(c)
        if not f: cells.append('-')
        elif f[2] == 'equal': cells.append('=' if c != 'steps' else f[0])
        elif f[2].startswith('binary only') or (c.startswith('global') and f[0] == '0 / 0' and f[1] != '0 / 0'):
            cells.append('binary only: ' + f[1])
        else: cells.append('**%s / %s**' % (f[0], f[1]))
    blind_only = all(r['fig'][c][2] != 'DIFFERENT' or (c.startswith('global') and r['fig'][c][0] == '0 / 0')
                     for c in r['fig'])
    verdict = ('agree' if r['rc'] == '0' or (r['fig'] and blind_only)
               else 'differs' if r['fig'] else (r['msg'] or 'rc ' + r['rc']))
    print('| %s | %s | %s | %s | %s |' % (r['track'], r['kernel'], r['bs'], ' | '.join(cells), verdict))
PY
cat "$OUT/proof.md"
