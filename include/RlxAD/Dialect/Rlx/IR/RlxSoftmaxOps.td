//===- RlxSoftmaxOps.td - Softmax ops and their gradients -*- tablegen -*-===//

#ifndef RLX_SOFTMAX_OPS_TD
#define RLX_SOFTMAX_OPS_TD

include "RlxAD/Dialect/Rlx/IR/RlxBase.td"

#endif // RLX_SOFTMAX_OPS_TD
