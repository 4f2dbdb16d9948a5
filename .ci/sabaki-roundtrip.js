// Reads every SGF record Kosumi wrote (tests/sgf_write.rs, export_for_sabaki)
// with Sabaki's parser (@sabaki/sgf) and compares board size, komi, setup
// stones and the main line of moves with the JSON sidecar Kosumi wrote from
// the Game itself. Usage: node sabaki-roundtrip.js DIR (with @sabaki/sgf
// resolvable from NODE_PATH). Exit status 1 on any difference.
'use strict'
const fs = require('fs')
const path = require('path')
const sgf = require('@sabaki/sgf')

const dir = process.argv[2]
if (!dir) {
  console.error('usage: node sabaki-roundtrip.js DIR')
  process.exit(2)
}

function expand(values) {
  // Kosumi writes no compressed lists, but accept them as Sabaki does.
  const out = []
  for (const v of values || []) {
    for (const [x, y] of sgf.parseCompressedVertices(v)) out.push(`${x},${y}`)
  }
  return out.sort()
}

let files = 0
let moves = 0
const failures = []
for (const name of fs.readdirSync(dir).filter(n => n.endsWith('.sgf')).sort()) {
  const want = JSON.parse(fs.readFileSync(path.join(dir, name.replace(/\.sgf$/, '.json')), 'utf8'))
  const fail = msg => failures.push(`${name}: ${msg}`)
  let trees
  try {
    trees = sgf.parseFile(path.join(dir, name))
  } catch (e) {
    fail(`sabaki cannot parse: ${e.message}`)
    continue
  }
  if (trees.length !== 1) {
    fail(`${trees.length} game trees`)
    continue
  }
  const root = trees[0]
  const d = root.data
  if (Number(d.SZ && d.SZ[0]) !== want.size) fail(`SZ ${d.SZ} != ${want.size}`)
  if (Number(d.KM && d.KM[0]) !== want.komi) fail(`KM ${d.KM} != ${want.komi}`)
  if (d.GM[0] !== '1' || d.FF[0] !== '4' || d.CA[0] !== 'UTF-8') fail('GM/FF/CA')
  if (!/^Kosumi:/.test(d.AP[0])) fail(`AP ${d.AP}`)
  if (d.PB[0] !== 'Black \\ "name"' || d.PW[0] !== 'White ]') fail(`PB/PW ${d.PB} ${d.PW}`)
  for (const c of ['AB', 'AW']) {
    const got = expand(d[c]).join(' ')
    const exp = want[c].map(v => v.join(',')).sort().join(' ')
    if (got !== exp) fail(`${c} differs: ${got} vs ${exp}`)
  }
  const got = []
  const raw = []
  let node = root
  for (;;) {
    for (const c of ['B', 'W']) {
      if (node.data[c] == null) continue
      raw.push(node.data[c][0])
      got.push([c, sgf.parseVertex(node.data[c][0])])
    }
    if (node !== root && (node.data.AB || node.data.AW || node.data.AE)) fail('setup after the root')
    if (node.children.length === 0) break
    if (node.children.length > 1) fail('variations')
    node = node.children[0]
  }
  // A pass is written B[] and read by Sabaki as [-1, -1].
  const wantMoves = want.moves.map(([c, v]) => [c, v === null ? [-1, -1] : v])
  if (JSON.stringify(got) !== JSON.stringify(wantMoves)) {
    const i = got.findIndex((m, k) => JSON.stringify(m) !== JSON.stringify(wantMoves[k]))
    fail(`moves differ at ${i + 1}: ${JSON.stringify(got[i])} vs ${JSON.stringify(wantMoves[i])} (${got.length} vs ${wantMoves.length})`)
  }
  // A pass is written as the empty value (B[]), never tt.
  wantMoves.forEach(([, v], k) => {
    if (v[0] === -1 && raw[k] !== '') fail(`pass ${k + 1} written as [${raw[k]}]`)
  })
  files++
  moves += got.length
}
for (const f of failures.slice(0, 20)) console.error(f)
console.log(`sabaki round trip: ${files} records, ${moves} moves, ${failures.length} differences`)
process.exit(failures.length === 0 && files > 0 ? 0 : 1)
