/**
 * Payments: the merchant payments desk, for a deployment where reviews and payouts wait for a
 * person (`BOURSE_SANDBOX=0`). Four views: the queues, a merchant, an order, the settings. Every
 * action is the operator or sandbox API call a script would make, with the same admin token.
 */
import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { AdminApi } from './api.js';
import { PaymentsMerchant } from './payments-merchant.js';
import { PaymentsOrder } from './payments-order.js';
import { PaymentsQueues } from './payments-queues.js';
import { PaymentsSettings } from './payments-settings.js';

const VIEWS = [
  ['queues', 'Queues'],
  ['merchant', 'Merchant look-up'],
  ['order', 'Order look-up'],
  ['settings', 'Payments settings'],
] as const;
type View = (typeof VIEWS)[number][0];

export function PaymentsSection({ api }: { api: AdminApi }): JSX.Element {
  const [view, setView] = useState<View>('queues');
  const [merchantId, setMerchantId] = useState('');
  const [orderId, setOrderId] = useState('');
  const openMerchant = (id: string): void => {
    setMerchantId(id);
    setView('merchant');
  };
  const openOrder = (id: string): void => {
    setOrderId(id);
    setView('order');
  };
  return (
    <>
      <nav class="subnav" aria-label="Payments views">
        {VIEWS.map(([id, label]) => (
          <button key={id} type="button" aria-pressed={id === view} onClick={() => setView(id)}>
            {label}
          </button>
        ))}
      </nav>
      {view === 'queues' ? <PaymentsQueues api={api} onOpen={(object) => (object.kind === 'order' ? openOrder(object.id) : openMerchant(object.id))} /> : null}
      {view === 'merchant' ? <PaymentsMerchant key={merchantId} api={api} merchantId={merchantId} onLookUp={setMerchantId} onOpenOrder={openOrder} /> : null}
      {view === 'order' ? <PaymentsOrder key={orderId} api={api} orderId={orderId} onLookUp={setOrderId} onOpenMerchant={openMerchant} /> : null}
      {view === 'settings' ? <PaymentsSettings api={api} /> : null}
    </>
  );
}
