//===- RlxNormOps.td - Norm ops and their gradients -*- tablegen -*-===//

#ifndef RLX_NORM_OPS_TD
#define RLX_NORM_OPS_TD

include "RlxAD/Dialect/Rlx/IR/RlxBase.td"

#endif // RLX_NORM_OPS_TD
