# Every outcome `kosumi regress` knows, with the fake engine
# (tests/regress/fake-gtp.sh). Expected outcomes in tests/regress_cli.rs.
answer setup

1 answer C3
#? [C3|D4]
2 answer E5
#? [C3|D4]
3 answer D4
#? [C3|D4]*
4 answer E5
#? [C3|D4]*
5 owl_attack A1
#? [1 A1]
6 answer anything at all
#? [C3]&
7 answer pass
#? [PASS]
8 answer A1
#? [!PASS]
9 answer PASS
#? [!pass]
10 answer C33
#? [C3]
11 fail
#? [.*]
12 answer   spaced   out   # a comment the engine never sees
#? [spaced out]
13 answer no expectation
14 readfile data.txt
#? [first line of data.txt]
15 fail
#? [x]*
