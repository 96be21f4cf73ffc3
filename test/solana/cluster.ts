import { randomBytes } from 'node:crypto';
import { type Address, generateKeyPairSigner, getBase58Decoder } from '@solana/kit';
import { LiteSVM } from 'litesvm';
import { RpcError } from './errors.js';
import { createGenesis, SOL } from './genesis.js';
import { type Commitment, createLedger, type Ledger } from './ledger.js';
import { METHODS } from './methods.js';
import type { View } from './params.js';
import { type Faults, startRpcServer } from './server.js';
import { ata, type Payer, type Payment, pay, signPayment } from './wallet.js';

export type { Payer, Payment } from './wallet.js';

export interface LocalSolana {
  /** Paydesk's node: faults and lag apply here, and calls() counts what it serves. */
  readonly rpcUrl: string;
  /** The payers' wallets' node: the same cluster, never faulty, never lagging, not counted. */
  readonly walletUrl: string;
  readonly mints: { USDC: string; USDT: string };
  /** A funded wallet: 10 SOL for fees and the given token amounts (minor units; 1,000 of each by default) in its ATAs. */
  newPayer(tokens?: { USDC?: bigint; USDT?: bigint }): Promise<Payer>;
  /** A fresh merchant wallet; createAtas (default true): whether its USDC and USDT token accounts exist already. */
  newMerchant(opts?: { createAtas?: boolean }): Promise<{ address: string; signer: Payer['signer'] }>;
  /** Pays as a Solana Pay wallet does (test/solana/wallet.ts), over JSON-RPC; returns the signature. */
  pay(payer: Payer, p: Payment): Promise<string>;
  /** The same payment, signed and not sent: its base64 wire transaction and signature (to send twice, late, or never). */
  signPayment(payer: Payer, p: Payment): Promise<{ wire: string; signature: string }>;
  /** The token balance (minor units) of an owner's associated token account, at a commitment (default processed). */
  balance(owner: string, mint: string, commitment?: Commitment): Promise<bigint>;
  /** The associated token account of an owner for a mint. */
  ata(owner: string, mint: string): Promise<string>;
  /** New slots: a transaction is `confirmed` one slot after the slot it landed in. */
  advance(slots?: number): void;
  /** Everything confirmed becomes finalized (a slot also does by itself once 32 newer slots exist). */
  finalize(): void;
  /** Abandons a fork: the unfinalized transaction (or all of them) vanishes and its effects are undone. Returns the signatures gone. */
  dropUnfinalized(signature?: string): string[];
  readonly faults: Faults & { lag(slots: number): void };
  /** JSON-RPC calls received per method on rpcUrl since start ('(429)' counts rate-limited requests). */
  calls(): Record<string, number>;
  /** The node goes away (connections cut, port closed) and comes back on the same URL with the same ledger. */
  restart(options?: { downMs?: number }): Promise<void>;
  readonly slot: number;
  readonly ledger: Ledger;
  close(): Promise<void>;
}

const running = new Set<LocalSolana>();

/**
 * Starts a Solana cluster for a test: LiteSVM (the real SPL Token and Associated Token Account
 * programs) behind a JSON-RPC server on 127.0.0.1, in this process. In-process keeps the ledger
 * controls synchronous (advance, finalize) and costs ~0.2 s per cluster; `restart()` is still a
 * real outage for the client: the port closes and open connections are cut.
 */
export async function startSolana(options: { slotMs?: number } = {}): Promise<LocalSolana> {
  // No history in LiteSVM (the ledger keeps it, and replays transactions after a dropped fork), no
  // blockhash check (the ledger checks lifetimes against its own slots), lamports for every airdrop.
  const svm = new LiteSVM()
    .withTransactionHistory(0n)
    .withBlockhashCheck(false)
    .withLamports(10n ** 18n);
  const ledger = createLedger(svm);
  const genesis = await createGenesis(svm);
  const mints = { USDC: await genesis.createMint(6), USDT: await genesis.createMint(6) };
  const genesisHash = getBase58Decoder().decode(randomBytes(32));
  let lag = 0;
  const server = await startRpcServer((method, params, route) => {
    const handler = METHODS[method];
    if (!handler) throw new RpcError(-32601, 'Method not found');
    const view: View = { ledger, lag: route === 'node' ? lag : 0, genesisHash };
    return handler(params, view);
  });
  const ticker = options.slotMs ? setInterval(() => ledger.advance(1), options.slotMs) : undefined;
  ticker?.unref();

  const local: LocalSolana = {
    rpcUrl: server.url,
    walletUrl: server.walletUrl,
    mints,
    async newPayer(tokens = { USDC: 1_000_000_000n, USDT: 1_000_000_000n }) {
      const signer = await generateKeyPairSigner();
      genesis.airdrop(signer.address, 10n * SOL);
      const amounts = Object.entries(tokens).filter(([, v]) => v !== undefined && v > 0n);
      if (amounts.length) {
        await genesis.mint(
          signer.address,
          amounts.map(([symbol, v]) => [mints[symbol as 'USDC' | 'USDT'] as Address, v as bigint]),
        );
      }
      return { address: signer.address, signer };
    },
    async newMerchant({ createAtas = true } = {}) {
      const signer = await generateKeyPairSigner();
      if (createAtas)
        await genesis.createAtas(signer.address, [mints.USDC as Address, mints.USDT as Address]);
      return { address: signer.address, signer };
    },
    pay: (payer, p) => pay(server.walletUrl, payer, p),
    signPayment: (payer, p) => signPayment(server.walletUrl, payer, p),
    async balance(owner, mint, commitment = 'processed') {
      const account = ledger.account(await ata(owner, mint), commitment);
      return ledger.token(account)?.amount ?? 0n;
    },
    ata: (owner, mint) => ata(owner, mint),
    advance: (slots = 1) => ledger.advance(slots),
    finalize: () => ledger.finalize(),
    dropUnfinalized: (signature) => ledger.drop(signature),
    faults: {
      ...server.faults,
      lag(slots) {
        lag = Math.max(0, slots);
      },
    },
    calls: server.calls,
    restart: (o = {}) => server.restart(o.downMs),
    get slot() {
      return ledger.slot;
    },
    ledger,
    async close() {
      running.delete(local);
      if (ticker) clearInterval(ticker);
      await server.close();
    },
  };
  running.add(local);
  return local;
}

/** Closes every cluster still open: call from afterAll so a failed test leaves no server behind. */
export async function closeAllSolana(): Promise<void> {
  await Promise.all([...running].map((s) => s.close()));
}
