import { describe, expect, it } from 'vitest';
import { restoreCore, serializeCore, stateHash } from '../../../src/exchange/snapshot.js';
import { CoreHarness, createCoreHarness } from '../../support/core-harness.js';

describe('one user per e-mail (createUser)', () => {
  it('when a second user has a taken e-mail in any case, then -1130 email, no number taken, state unchanged', () => {
    const h = createCoreHarness();
    const first = h.ok<{ userId: number }>({ type: 'createUser', email: 'Alice@Example.com', userType: 'user', uniqueEmail: true });
    const before = stateHash(h.core);
    for (const email of ['Alice@Example.com', 'alice@example.com', ' ALICE@EXAMPLE.COM ']) {
      const error = h.refuse({ type: 'createUser', email, userType: 'merchant', uniqueEmail: true });
      expect(error.code).toBe(-1130);
      expect(error.message).toContain("'email'");
      expect(error.message).toContain(`user ${first.userId}`);
    }
    expect(stateHash(h.core)).toBe(before);
    // No e-mail clashes with nothing; system users (the fee account's) do not count.
    h.ok({ type: 'createUser', email: '', userType: 'user', uniqueEmail: true });
    h.ok({ type: 'createUser', email: '', userType: 'user', uniqueEmail: true });
  });

  it('when the core is restored from its snapshot, then the taken e-mail is still refused', () => {
    const h = createCoreHarness();
    h.ok({ type: 'createUser', email: 'bob@example.com', userType: 'user', uniqueEmail: true });
    const restored = new CoreHarness(restoreCore(serializeCore(h.core)));
    expect(restored.refuse({ type: 'createUser', email: 'BOB@example.com', userType: 'user', uniqueEmail: true }).code).toBe(-1130);
    restored.ok({ type: 'createUser', email: 'carol@example.com', userType: 'user', uniqueEmail: true });
  });

  it('when a command journaled before the rule (no uniqueEmail) repeats an e-mail, then it replays as it was accepted', () => {
    const h = createCoreHarness();
    h.ok({ type: 'createUser', email: 'dave@example.com', userType: 'user' });
    const second = h.ok<{ userId: number }>({ type: 'createUser', email: 'dave@example.com', userType: 'user' });
    expect(second.userId).toBeGreaterThan(0);
  });
});
