//===- RlxAttentionOps.td - Attention ops and their gradients -*- tablegen -*-===//

#ifndef RLX_ATTENTION_OPS_TD
#define RLX_ATTENTION_OPS_TD

include "RlxAD/Dialect/Rlx/IR/RlxBase.td"

#endif // RLX_ATTENTION_OPS_TD
