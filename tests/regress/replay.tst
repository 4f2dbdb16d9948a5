# After a crash, the state is replayed: setup commands as they were sent,
# a genmove test as `play` of the move it answered, read-only tests
# (reg_genmove, is_legal, ...) and error answers not at all.
play b D4
1 genmove w
#? [C3]
2 reg_genmove b
#? [.*]
3 fail
#? [.*]*
4 moves
#? [p:b:D4 g:w:C3 r:b f]
5 crash
#? [.*]*
6 moves
#? [p:b:D4 p:w:C3]
