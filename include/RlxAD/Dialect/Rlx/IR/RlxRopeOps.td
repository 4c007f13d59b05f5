//===- RlxRopeOps.td - Rope ops and their gradients -*- tablegen -*-===//

#ifndef RLX_ROPE_OPS_TD
#define RLX_ROPE_OPS_TD

include "RlxAD/Dialect/Rlx/IR/RlxBase.td"

#endif // RLX_ROPE_OPS_TD
