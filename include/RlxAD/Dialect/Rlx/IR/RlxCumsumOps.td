//===- RlxCumsumOps.td - Cumsum ops and their gradients -*- tablegen -*-===//

#ifndef RLX_CUMSUM_OPS_TD
#define RLX_CUMSUM_OPS_TD

include "RlxAD/Dialect/Rlx/IR/RlxBase.td"

#endif // RLX_CUMSUM_OPS_TD
