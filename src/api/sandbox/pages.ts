/**
 * The two pages a browser reaches from area B links (docs/merchant-payments.md "Lifecycles"):
 * `GET /sandbox/kyc/{token}` where a merchant submits KYC (and, in sandbox mode, the reviewer's
 * approve and reject), and `GET /sandbox/verify/{token}` where the terms of a USD or EUR account are
 * accepted. The forms post back to the same path; the commands are the ones docs/merchant-payments.md "The simulator and the sandbox API" uses.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Exchange } from '../../exchange/exchange.js';
import { AUTHENTICATING, INCOMPLETE, type Merchant, type MerchantAccount } from '../../payments/model.js';
import { Refusal } from '../../core/refusal.js';

export interface SandboxPageDeps {
  exchange: Exchange;
  sandbox: boolean;
}

const STATUS_NAMES: Record<number, string> = { 1: 'authenticating', 2: 'normal', 3: 'authentication failed', 4: 'incomplete' };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · Bourse sandbox</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem;color:#1d2433}
h1{font-size:1.4rem}button{font-size:1rem;padding:.5rem 1.2rem;margin:.3rem .5rem .3rem 0;cursor:pointer}
.status{padding:.6rem;background:#f1f4f9;border-radius:6px}label{display:block;margin:.6rem 0}</style></head>
<body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

function sendPage(reply: FastifyReply, status: number, title: string, body: string): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').header('Cache-Control', 'no-store').send(page(title, body));
}

function goneLink(reply: FastifyReply): FastifyReply {
  return sendPage(reply, 404, 'Link not valid', '<p>This link does not exist or was replaced by a newer one.</p>');
}

/**
 * The browser return address of docs/merchant-payments.md "Lifecycles": `callbackUrl?merchantId=<id>&status=<status>`, appended to
 * what the merchant's URL already carries, which stays byte for byte as the merchant gave it.
 */
function callbackOf(merchant: Merchant): string {
  const hashAt = merchant.callbackUrl.indexOf('#');
  const base = hashAt < 0 ? merchant.callbackUrl : merchant.callbackUrl.slice(0, hashAt);
  const hash = hashAt < 0 ? '' : merchant.callbackUrl.slice(hashAt);
  const joiner = !base.includes('?') ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&';
  return `${base}${joiner}merchantId=${merchant.merchantId}&status=${merchant.status}${hash}`;
}

function formFields(request: FastifyRequest): URLSearchParams {
  return new URLSearchParams(Buffer.isBuffer(request.body) ? request.body.toString('utf8') : '');
}

const KYC_ACTIONS = ['submit', 'approve', 'reject'] as const;
type KycAction = (typeof KYC_ACTIONS)[number];

export function registerSandboxPages(app: FastifyInstance, deps: SandboxPageDeps): void {
  const { exchange } = deps;
  const merchantByToken = (token: string): Merchant | undefined => [...exchange.core.payments.state.merchants.values()].find((m) => m.kycToken === token && token !== '');
  const accountByToken = (token: string): MerchantAccount | undefined => [...exchange.core.payments.state.merchantAccounts.values()].find((a) => a.verifyToken === token && token !== '');

  const kycPage = (reply: FastifyReply, merchant: Merchant, note = '', status = 200): FastifyReply => {
    const buttons: string[] = [];
    if (merchant.status === INCOMPLETE) buttons.push('<button name="action" value="submit">Submit KYC</button>');
    if (deps.sandbox && (merchant.status === INCOMPLETE || merchant.status === AUTHENTICATING)) {
      buttons.push('<button name="action" value="approve">Approve (sandbox)</button>', '<button name="action" value="reject">Reject (sandbox)</button>');
    }
    const form = buttons.length === 0 ? '' : `<form method="post"><p>Confirm that the details of ${escapeHtml(merchant.merchantName)} are complete.</p>${buttons.join('')}</form>`;
    return sendPage(
      reply,
      status,
      `KYC: ${merchant.merchantName}`,
      `${note}<p class="status" id="status">Merchant ${merchant.merchantId} · status ${merchant.status} (${STATUS_NAMES[merchant.status] ?? ''})</p>${form}<p><a id="back" href="${escapeHtml(callbackOf(merchant))}">Back to ${escapeHtml(new URL(merchant.callbackUrl).host)}</a></p>`,
    );
  };

  app.get('/sandbox/kyc/:token', async (request, reply) => {
    const merchant = merchantByToken((request.params as { token: string }).token);
    return merchant === undefined ? goneLink(reply) : kycPage(reply, merchant);
  });

  app.post('/sandbox/kyc/:token', async (request, reply) => {
    const merchant = merchantByToken((request.params as { token: string }).token);
    if (merchant === undefined) return goneLink(reply);
    const action = formFields(request).get('action') ?? '';
    const allowed: readonly string[] = deps.sandbox ? KYC_ACTIONS : ['submit'];
    if (!allowed.includes(action)) return kycPage(reply, merchant, '<p role="alert">Choose one of the buttons below.</p>', 400);
    const steps: KycAction[] = [];
    if (merchant.status === INCOMPLETE) steps.push('submit');
    if (action === 'approve' || action === 'reject') steps.push(action);
    try {
      for (const step of steps) {
        // The automatic mode may have decided already: a step whose status has passed is skipped.
        const current = exchange.core.payments.state.merchants.get(merchant.merchantId);
        if (step === 'submit' ? current?.status !== INCOMPLETE : current?.status !== AUTHENTICATING) continue;
        await exchange.submit({ type: 'merchantKyc', userId: 0, merchantId: merchant.merchantId, action: step, ...(step === 'reject' ? { rejectReason: 'Rejected on the sandbox KYC page' } : {}) });
      }
    } catch (error) {
      if (!(error instanceof Refusal)) throw error;
      return kycPage(reply, merchant, `<p role="alert">${escapeHtml(error.message)}</p>`, 400);
    }
    const after = exchange.core.payments.state.merchants.get(merchant.merchantId) ?? merchant;
    return reply.redirect(callbackOf(after), 303);
  });

  const verifyPage = (reply: FastifyReply, account: MerchantAccount, note = '', status = 200): FastifyReply => {
    if (note === '' && account.status !== INCOMPLETE) note = '<p>Thank you: the terms are accepted.</p>';
    const form =
      account.status === INCOMPLETE
        ? `<form method="post"><label><input type="checkbox" name="accept" value="1" required> I accept the terms of the ${escapeHtml(account.fiat)} account.</label><button name="action" value="verify">Accept the terms</button></form>`
        : '';
    return sendPage(reply, status, `Terms of the ${account.fiat} account`, `${note}<p class="status" id="status">Merchant ${account.merchantId} · ${escapeHtml(account.fiat)} account · status ${account.status} (${STATUS_NAMES[account.status] ?? ''})</p>${form}`);
  };

  app.get('/sandbox/verify/:token', async (request, reply) => {
    const account = accountByToken((request.params as { token: string }).token);
    return account === undefined ? goneLink(reply) : verifyPage(reply, account);
  });

  app.post('/sandbox/verify/:token', async (request, reply) => {
    const account = accountByToken((request.params as { token: string }).token);
    if (account === undefined) return goneLink(reply);
    const fields = formFields(request);
    if (account.status === INCOMPLETE) {
      // Acceptance is the ticked box: a client that skips the browser's check is refused here too.
      if (fields.get('action') !== 'verify' || fields.get('accept') !== '1') return verifyPage(reply, account, '<p role="alert">Tick the box to accept the terms.</p>', 400);
      try {
        await exchange.submit({ type: 'reviewMerchantAccount', userId: 0, merchantId: account.merchantId, fiat: account.fiat, action: 'verify' });
      } catch (error) {
        if (!(error instanceof Refusal)) throw error;
        return verifyPage(reply, account, `<p role="alert">${escapeHtml(error.message)}</p>`, 400);
      }
    }
    // Post, then redirect: reloading the page does not post the form again.
    return reply.redirect(request.url, 303);
  });
}
