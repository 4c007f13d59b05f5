# Counts the ops of each --split-input-file split of generic-form MLIR (a
# line holding a quoted dialect.op name starts one op) and compares splits
# 2k and 2k+1: prints "pair k: N ops, same" or "pair k: differ (N vs M)".
BEGIN { split_index = 0 }
/^\/\/ -----/ { split_index++; next }
/"[a-z_]+\.[a-z_.]+"/ { count[split_index]++ }
END {
  for (i = 0; i + 1 <= split_index; i += 2) {
    if (count[i] == count[i + 1])
      printf "pair %d: %d ops, same\n", i / 2, count[i]
    else
      printf "pair %d: differ (%d vs %d)\n", i / 2, count[i], count[i + 1]
  }
}
