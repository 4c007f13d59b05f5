//===- RlxQuantizeOps.td - Quantize ops and their gradients -*- tablegen -*-===//

#ifndef RLX_QUANTIZE_OPS_TD
#define RLX_QUANTIZE_OPS_TD

include "RlxAD/Dialect/Rlx/IR/RlxBase.td"

#endif // RLX_QUANTIZE_OPS_TD
