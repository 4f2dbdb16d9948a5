// Reads the record `kosumi analyze` annotated (tests/review_cli.rs writes
// DIR/review.sgf and DIR/review.json with the main line's moves) with
// Sabaki's parser (@sabaki/sgf) and checks that the main line is the game's
// and that every node of it carries SBKV, the property Sabaki draws its
// win-rate graph from, as a number from 0 to 100 (Black's win rate in
// percent). Usage: node sabaki-review.js DIR. Exit status 1 on a failure.
'use strict'
const fs = require('fs')
const path = require('path')
const sgf = require('@sabaki/sgf')

const dir = process.argv[2]
const want = JSON.parse(fs.readFileSync(path.join(dir, 'review.json'), 'utf8')).moves
const trees = sgf.parseFile(path.join(dir, 'review.sgf'))
const failures = []
if (trees.length !== 1) failures.push(`${trees.length} game trees`)
const moves = []
let node = trees[0]
let nodes = 0
while (node != null) {
  nodes++
  const sbkv = node.data.SBKV && node.data.SBKV[0]
  const x = parseFloat(sbkv)
  if (!(x >= 0 && x <= 100)) failures.push(`node ${nodes}: SBKV ${sbkv}`)
  for (const c of ['B', 'W']) if (node.data[c] != null) moves.push(node.data[c][0])
  node = node.children[0]
}
if (JSON.stringify(moves) !== JSON.stringify(want)) {
  failures.push(`main line ${JSON.stringify(moves)}, want ${JSON.stringify(want)}`)
}
if (failures.length > 0) {
  console.error(failures.join('\n'))
  process.exit(1)
}
console.log(`sabaki-review: ${nodes} nodes, ${moves.length} moves, SBKV on every node`)
