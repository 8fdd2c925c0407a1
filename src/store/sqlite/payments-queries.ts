/** Read-model queries of area B (B21). */

import type { FundingRecordRow } from '../../payments/rows.js';
import type { FundingRecordQuery, PaymentOrderQuery } from '../store.js';
import { StatementCache, Where } from './queries.js';

const FUNDING_SELECT = `tx_id AS txId, user_id AS userId, merchant_id AS merchantId, merchant_name AS merchantName,
  client_id AS clientId, order_id AS orderId, fiat, total_amount AS totalAmount, amount, fee,
  user_payment_id AS userPaymentId, type, status, fail_reason AS failReason, payer,
  create_time AS createTime, update_time AS updateTime`;

export class PaymentsReadModel extends StatementCache {
  listFundingRecords(query: FundingRecordQuery): { total: number; rows: FundingRecordRow[] } {
    const where = new Where()
      .when('user_id = ?', query.userId)
      .when('merchant_id = ?', query.merchantId)
      .when('fiat = ?', query.fiat)
      .when('type = ?', query.type)
      .when('status = ?', query.status)
      .when('client_id = ?', query.clientId)
      .when('create_time >= ?', query.startTime)
      .when('create_time <= ?', query.endTime);
    const total = this.first<{ total: number }>(`SELECT count(*) AS total FROM funding_records WHERE ${where.sql}`, where.values)?.total ?? 0;
    const rows = this.all<FundingRecordRow>(
      `SELECT ${FUNDING_SELECT} FROM funding_records WHERE ${where.sql} ORDER BY create_time DESC, tx_id DESC LIMIT ? OFFSET ?`,
      [...where.values, query.limit, query.offset],
    );
    return { total, rows };
  }

  getFundingRecord(txId: number): FundingRecordRow | undefined {
    return this.first<FundingRecordRow>(`SELECT ${FUNDING_SELECT} FROM funding_records WHERE tx_id = ?`, [txId]);
  }

  listPaymentOrders(query: PaymentOrderQuery): { total: number; rows: Record<string, unknown>[] } {
    const where = new Where()
      .when('user_id = ?', query.userId)
      .when('kind = ?', query.kind)
      .when('status = ?', query.status)
      .when('client_id = ?', query.clientId)
      .when('merchant_ids LIKE ?', query.merchantId === undefined ? undefined : `%,${query.merchantId},%`)
      .when('create_time >= ?', query.startTime)
      .when('create_time <= ?', query.endTime);
    const total = this.first<{ total: number }>(`SELECT count(*) AS total FROM payment_orders WHERE ${where.sql}`, where.values)?.total ?? 0;
    const rows = this.all<{ detail: string }>(`SELECT detail FROM payment_orders WHERE ${where.sql} ORDER BY create_time DESC, order_id DESC LIMIT ? OFFSET ?`, [...where.values, query.limit, query.offset]);
    return { total, rows: rows.map((r) => JSON.parse(r.detail) as Record<string, unknown>) };
  }

  getPaymentOrder(userId: number, orderId: number): Record<string, unknown> | undefined {
    const row = this.first<{ detail: string }>('SELECT detail FROM payment_orders WHERE order_id = ? AND user_id = ?', [orderId, userId]);
    return row === undefined ? undefined : (JSON.parse(row.detail) as Record<string, unknown>);
  }
}
