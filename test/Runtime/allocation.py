# RUN: %python %s | FileCheck %s
# Allocations of compiled code are checked: one malloc cannot satisfy, or one
# over the memory limit, is an error of the call, and the module stays usable.
import numpy as np

import rlx

# A 2^48-byte result (more than any address space): malloc fails.
m = rlx.compile("""
func.func @huge(%dy: tensor<?x64xf32>, %ids: tensor<?xi64>) -> tensor<1099511627776x64xf32> {
  %dt = rlx.gather_backward %dy, %ids {axis = 0 : i64} : tensor<?x64xf32>, tensor<?xi64> -> tensor<1099511627776x64xf32>
  return %dt : tensor<1099511627776x64xf32>
}
func.func @small(%x: tensor<?xf32>) -> tensor<?xf32> {
  %y = rlx.relu %x : tensor<?xf32> -> tensor<?xf32>
  return %y : tensor<?xf32>
}
""")
try:
    m.huge(np.ones((2, 64), np.float32), np.zeros(2, np.int64))
    print("huge: no error")
except rlx.RlxError as e:
    print("huge:", e)
# CHECK: huge: function 'huge': rlx: cannot allocate 2814749767{{[0-9]+}} bytes for function 'huge' (out of memory)

print("small:", m.small(np.array([-1.0, 2.0], np.float32)).tolist())
# CHECK: small: [0.0, 2.0]

m.memory_limit = 1024
try:
    m.small(np.ones(1000, np.float32))
    print("limit: no error")
except rlx.RlxError as e:
    print("limit:", e)
# CHECK: limit: function 'small': rlx: cannot allocate {{[0-9]+}} bytes for function 'small' (memory limit 1024 bytes, 0 in use)
print("under the limit:", m.small(np.ones(4, np.float32)).tolist(), m.memory_limit)
# CHECK: under the limit: [1.0, 1.0, 1.0, 1.0] 1024
m.memory_limit = None
print("no limit:", m.small(np.ones(1000, np.float32)).shape)
# CHECK: no limit: (1000,)

