/** Read-model queries of area B (B21, B33, B34): those of store/sqlite/payments-queries.ts. */

import type { FundingRecordRow } from '../../payments/rows.js';
import type { FundingRecordQuery, PaymentOrderQuery } from '../store.js';
import { PgQueries } from './queries.js';
import { PgWhere } from './sql.js';

const FUNDING_SELECT = `tx_id AS "txId", user_id AS "userId", merchant_id AS "merchantId", merchant_name AS "merchantName",
  client_id AS "clientId", order_id AS "orderId", fiat, total_amount AS "totalAmount", amount, fee,
  user_payment_id AS "userPaymentId", type, status, fail_reason AS "failReason", payer,
  create_time AS "createTime", update_time AS "updateTime"`;

export class PgPaymentsReadModel extends PgQueries {
  async listFundingRecords(query: FundingRecordQuery): Promise<{ total: number; rows: FundingRecordRow[] }> {
    const where = new PgWhere()
      .when('user_id = ?', query.userId)
      .when('merchant_id = ?', query.merchantId)
      .when('fiat = ?', query.fiat)
      .when('type = ?', query.type)
      .when('status = ?', query.status)
      .when('client_id = ?', query.clientId)
      .when('create_time >= ?', query.startTime)
      .when('create_time <= ?', query.endTime);
    const total = (await this.first<{ total: number }>(`SELECT count(*) AS total FROM bourse.funding_records WHERE ${where.sql}`, where.values))?.total ?? 0;
    const page = `LIMIT ${where.bind(query.limit)} OFFSET ${where.bind(query.offset)}`;
    const rows = await this.all<FundingRecordRow>(
      `SELECT ${FUNDING_SELECT} FROM bourse.funding_records WHERE ${where.sql} ORDER BY create_time DESC, tx_id DESC ${page}`,
      where.values,
    );
    return { total, rows };
  }

  getFundingRecord(txId: number): Promise<FundingRecordRow | undefined> {
    return this.first<FundingRecordRow>(`SELECT ${FUNDING_SELECT} FROM bourse.funding_records WHERE tx_id = $1`, [txId]);
  }

  async listPaymentOrders(query: PaymentOrderQuery): Promise<{ total: number; rows: Record<string, unknown>[] }> {
    const where = new PgWhere()
      .when('user_id = ?', query.userId)
      .when('kind = ?', query.kind)
      .when('status = ?', query.status)
      .when('client_id = ?', query.clientId)
      // Digits and commas only: LIKE matches them alike on both stores (SQLite's folds case, which these have none of).
      .when('merchant_ids LIKE ?', query.merchantId === undefined ? undefined : `%,${query.merchantId},%`)
      .when('create_time >= ?', query.startTime)
      .when('create_time <= ?', query.endTime);
    const total = (await this.first<{ total: number }>(`SELECT count(*) AS total FROM bourse.payment_orders WHERE ${where.sql}`, where.values))?.total ?? 0;
    const page = `LIMIT ${where.bind(query.limit)} OFFSET ${where.bind(query.offset)}`;
    const rows = await this.all<{ detail: string }>(
      `SELECT detail FROM bourse.payment_orders WHERE ${where.sql} ORDER BY create_time DESC, order_id DESC ${page}`,
      where.values,
    );
    return { total, rows: rows.map((r) => JSON.parse(r.detail) as Record<string, unknown>) };
  }

  async getPaymentOrder(userId: number, orderId: number): Promise<Record<string, unknown> | undefined> {
    const row = await this.first<{ detail: string }>('SELECT detail FROM bourse.payment_orders WHERE order_id = $1 AND user_id = $2', [orderId, userId]);
    return row === undefined ? undefined : (JSON.parse(row.detail) as Record<string, unknown>);
  }
}
