//===- RlxConvOps.td - Conv ops and their gradients -*- tablegen -*-===//

#ifndef RLX_CONV_OPS_TD
#define RLX_CONV_OPS_TD

include "RlxAD/Dialect/Rlx/IR/RlxBase.td"

#endif // RLX_CONV_OPS_TD
