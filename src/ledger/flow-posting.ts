import { formatUnits } from '../core/decimal.js';
import type { FlowPosting, FlowRow } from '../core/types.js';

/** A flow as stored and answered: its amounts as decimal text at the asset's precision. */
export function flowRowOf(posting: FlowPosting): FlowRow {
  return {
    flowId: posting.flowId,
    accountId: posting.accountId,
    asset: posting.asset,
    flowType: posting.flowType,
    change: formatUnits(posting.changeAtoms, posting.precision),
    total: formatUnits(posting.totalAtoms, posting.precision),
    created: posting.created,
    seq: posting.seq,
  };
}
