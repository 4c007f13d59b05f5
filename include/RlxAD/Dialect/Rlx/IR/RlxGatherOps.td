//===- RlxGatherOps.td - Gather ops and their gradients -*- tablegen -*-===//

#ifndef RLX_GATHER_OPS_TD
#define RLX_GATHER_OPS_TD

include "RlxAD/Dialect/Rlx/IR/RlxBase.td"

#endif // RLX_GATHER_OPS_TD
