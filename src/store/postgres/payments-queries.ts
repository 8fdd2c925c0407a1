/** Read-model queries of area B (B21, B33, B34): those of store/sqlite/payments-queries.ts. */

import type { FundingRecordRow } from '../../payments/rows.js';
import { FUNDING_SELECT, fundingRecordPage, paymentOrderPage } from '../sql-shapes.js';
import type { FundingRecordQuery, PaymentOrderQuery } from '../store.js';
import { PgQueries } from './queries.js';
import { quotedAliases } from './sql.js';

const FUNDING_RECORDS = quotedAliases(FUNDING_SELECT);

export class PgPaymentsReadModel extends PgQueries {
  async listFundingRecords(query: FundingRecordQuery): Promise<{ total: number; rows: FundingRecordRow[] }> {
    return this.countedPage<FundingRecordRow>(FUNDING_RECORDS, fundingRecordPage(query));
  }

  getFundingRecord(txId: number): Promise<FundingRecordRow | undefined> {
    return this.first<FundingRecordRow>(`SELECT ${FUNDING_RECORDS} FROM bourse.funding_records WHERE tx_id = $1`, [txId]);
  }

  async listPaymentOrders(query: PaymentOrderQuery): Promise<{ total: number; rows: Record<string, unknown>[] }> {
    const { total, rows } = await this.countedPage<{ detail: string }>('detail', paymentOrderPage(query));
    return { total, rows: rows.map((r) => JSON.parse(r.detail) as Record<string, unknown>) };
  }

  async getPaymentOrder(userId: number, orderId: number): Promise<Record<string, unknown> | undefined> {
    const row = await this.first<{ detail: string }>('SELECT detail FROM bourse.payment_orders WHERE order_id = $1 AND user_id = $2', [orderId, userId]);
    return row === undefined ? undefined : (JSON.parse(row.detail) as Record<string, unknown>);
  }
}
