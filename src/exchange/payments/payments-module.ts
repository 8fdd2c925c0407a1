import type { Command } from '../../core/types.js';
import type { PostingContext } from '../../ledger/ledger.js';
import type { CoreModule } from '../core-module.js';
import type { ExchangeCore } from '../exchange-core.js';

export interface PaymentsImage {
  counters: Record<string, number>;
}

/** Area B: merchants, merchant accounts, beneficiaries, funding records. */
export class PaymentsModule implements CoreModule<PaymentsImage> {
  readonly name = 'payments';
  readonly commandTypes = [] as const;

  constructor(private readonly core: ExchangeCore) {}

  apply(command: Command, ctx: PostingContext): unknown {
    void ctx;
    throw new Error(`payments cannot apply ${command.type} (${this.core.lastSeq})`);
  }

  image(): PaymentsImage {
    return { counters: {} };
  }

  restore(image: PaymentsImage): void {
    void image;
  }
}
