//===- RlxScanOps.td - Scan ops and their gradients -*- tablegen -*-===//

#ifndef RLX_SCAN_OPS_TD
#define RLX_SCAN_OPS_TD

include "RlxAD/Dialect/Rlx/IR/RlxBase.td"

#endif // RLX_SCAN_OPS_TD
