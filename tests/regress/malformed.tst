1 answer A1
#? [A1]

2 answer B2
#? B2
