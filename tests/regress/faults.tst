# A crash and a hang: each fails its test, the engine is restarted with
# the state replayed (remember), and the suite goes on.
remember seven
1 recall
#? [seven]
2 crash
#? [.*]*
3 recall
#? [seven]
remember eight
4 hang
#? [.*]
5 recall
#? [eight]
6 answer done
#? [done]
