//===- RlxPoolOps.td - Pool ops and their gradients -*- tablegen -*-===//

#ifndef RLX_POOL_OPS_TD
#define RLX_POOL_OPS_TD

include "RlxAD/Dialect/Rlx/IR/RlxBase.td"

#endif // RLX_POOL_OPS_TD
