/** Read-model queries of area B (B21, B33, B34). */

import type { FundingRecordRow } from '../../payments/rows.js';
import { FUNDING_SELECT, fundingRecordPage, paymentOrderPage } from '../sql-shapes.js';
import type { FundingRecordQuery, PaymentOrderQuery } from '../store.js';
import { StatementCache } from './queries.js';

export class PaymentsReadModel extends StatementCache {
  listFundingRecords(query: FundingRecordQuery): { total: number; rows: FundingRecordRow[] } {
    return this.countedPage<FundingRecordRow>(FUNDING_SELECT, fundingRecordPage(query));
  }

  getFundingRecord(txId: number): FundingRecordRow | undefined {
    return this.first<FundingRecordRow>(`SELECT ${FUNDING_SELECT} FROM funding_records WHERE tx_id = ?`, [txId]);
  }

  listPaymentOrders(query: PaymentOrderQuery): { total: number; rows: Record<string, unknown>[] } {
    const { total, rows } = this.countedPage<{ detail: string }>('detail', paymentOrderPage(query));
    return { total, rows: rows.map((r) => JSON.parse(r.detail) as Record<string, unknown>) };
  }

  getPaymentOrder(userId: number, orderId: number): Record<string, unknown> | undefined {
    const row = this.first<{ detail: string }>('SELECT detail FROM payment_orders WHERE order_id = ? AND user_id = ?', [orderId, userId]);
    return row === undefined ? undefined : (JSON.parse(row.detail) as Record<string, unknown>);
  }
}
