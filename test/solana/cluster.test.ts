import { type Address, createSolanaRpc, generateKeyPairSigner, type Signature } from '@solana/kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAllSolana, type LocalSolana, startSolana } from './cluster.js';

let solana: LocalSolana;
beforeAll(async () => {
  solana = await startSolana();
});
afterAll(closeAllSolana);

const rpc = () => createSolanaRpc(solana.rpcUrl);
const newReference = async () => (await generateKeyPairSigner()).address;

async function raw(method: string, params: unknown[] = [], url = solana.rpcUrl) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  return {
    status: res.status,
    body: (await res.json()) as { result?: unknown; error?: { code: number; message: string } },
  };
}

async function payment(options: { memo?: string } = {}) {
  const payer = await solana.newPayer({ USDC: 10_000_000n });
  const merchant = await solana.newMerchant();
  const reference = await newReference();
  const signature = await solana.pay(payer, {
    recipient: merchant.address,
    mint: solana.mints.USDC,
    amount: 2_500_000n,
    references: [reference],
    memo: options.memo,
  });
  const ata = (await solana.ata(merchant.address, solana.mints.USDC)) as Address;
  return { payer, merchant, reference, signature: signature as Signature, ata };
}

const statusOf = async (signature: Signature) =>
  (await rpc().getSignatureStatuses([signature]).send()).value[0]?.confirmationStatus ?? null;

describe('a payment built with @solana/kit', () => {
  it('lands, and is found by the merchant token account and by its reference, with the reference a read-only key', async () => {
    const p = await payment({ memo: 'inv_123' });
    solana.advance();
    const history = await rpc().getSignaturesForAddress(p.ata, { commitment: 'confirmed' }).send();
    expect(history.map((h) => [h.signature, h.memo, h.err])).toEqual([[p.signature, '[7] inv_123', null]]);
    const byReference = await rpc().getSignaturesForAddress(p.reference, { commitment: 'confirmed' }).send();
    expect(byReference.map((h) => h.signature)).toEqual([p.signature]);

    const tx = await rpc()
      .getTransaction(p.signature, {
        commitment: 'confirmed',
        encoding: 'jsonParsed',
        maxSupportedTransactionVersion: 0,
      })
      .send();
    const key = tx?.transaction.message.accountKeys.find((k) => k.pubkey === p.reference);
    expect(key).toMatchObject({ signer: false, writable: false });
    const transfer = tx?.transaction.message.instructions.find(
      (ix) => 'parsed' in ix && ix.program === 'spl-token',
    );
    expect(transfer).toMatchObject({
      parsed: {
        type: 'transferChecked',
        info: { destination: p.ata, signers: [p.reference], tokenAmount: { amount: '2500000' } },
      },
    });
    const post = tx?.meta?.postTokenBalances?.find((b) => b.owner === p.merchant.address);
    expect(post?.uiTokenAmount.amount).toBe('2500000');
    expect(
      tx?.meta?.preTokenBalances?.find((b) => b.owner === p.merchant.address)?.uiTokenAmount.amount,
    ).toBe('0');
    expect(await solana.balance(p.merchant.address, solana.mints.USDC)).toBe(2_500_000n);
    expect(await solana.balance(p.payer.address, solana.mints.USDC)).toBe(7_500_000n);
  });

  it('goes processed, confirmed one slot later, then finalized', async () => {
    const p = await payment();
    expect(await statusOf(p.signature)).toBe('processed');
    expect(await rpc().getSignaturesForAddress(p.ata, { commitment: 'confirmed' }).send()).toEqual([]);
    expect(
      await rpc()
        .getTransaction(p.signature, {
          commitment: 'confirmed',
          encoding: 'json',
          maxSupportedTransactionVersion: 0,
        })
        .send(),
    ).toBeNull();
    solana.advance();
    expect(await statusOf(p.signature)).toBe('confirmed');
    expect((await raw('getSignaturesForAddress', [p.ata])).body.result).toEqual([]); // a node's default is finalized
    expect(await solana.balance(p.merchant.address, solana.mints.USDC, 'finalized')).toBe(0n);
    solana.finalize();
    expect(await statusOf(p.signature)).toBe('finalized');
    const finalized = await rpc().getSignaturesForAddress(p.ata, { commitment: 'finalized' }).send();
    expect(finalized[0]?.confirmationStatus).toBe('finalized');
    expect(await solana.balance(p.merchant.address, solana.mints.USDC, 'finalized')).toBe(2_500_000n);

    const later = await payment();
    solana.advance(31);
    expect(await statusOf(later.signature)).toBe('confirmed');
    solana.advance(1);
    expect(await statusOf(later.signature)).toBe('finalized');
  });

  it('vanishes from every answer when its fork is dropped, and its transfer is undone', async () => {
    const p = await payment();
    solana.advance();
    const other = await payment();
    solana.advance();
    expect(solana.dropUnfinalized(p.signature)).toEqual([p.signature]);
    expect(await rpc().getSignaturesForAddress(p.ata, { commitment: 'confirmed' }).send()).toEqual([]);
    expect(
      await rpc()
        .getTransaction(p.signature, {
          commitment: 'confirmed',
          encoding: 'json',
          maxSupportedTransactionVersion: 0,
        })
        .send(),
    ).toBeNull();
    expect(await statusOf(p.signature)).toBeNull();
    expect(await solana.balance(p.merchant.address, solana.mints.USDC)).toBe(0n);
    expect(await solana.balance(p.payer.address, solana.mints.USDC)).toBe(10_000_000n);
    // The transaction that was not on the dropped fork is still there, with its effect.
    expect(await statusOf(other.signature)).toBe('confirmed');
    expect(await solana.balance(other.merchant.address, solana.mints.USDC)).toBe(2_500_000n);
    solana.finalize();
    expect(() => solana.dropUnfinalized(other.signature)).toThrow(/not an unfinalized/);
  });

  it('takes with it, when dropped, the later transactions that spent what it brought', async () => {
    const payer = await solana.newPayer({ USDC: 5_000_000n });
    const middle = await solana.newPayer({ USDC: 1n }); // has SOL for fees, and a USDC account
    const last = await solana.newMerchant();
    const usdc = solana.mints.USDC;
    const first = await solana.pay(payer, { recipient: middle.address, mint: usdc, amount: 3_000_000n });
    solana.advance();
    const spend = await solana.pay(middle, { recipient: last.address, mint: usdc, amount: 2_000_000n });
    solana.advance();
    expect(solana.dropUnfinalized(first).sort()).toEqual([first, spend].sort());
    expect(await statusOf(spend as Signature)).toBeNull();
    expect(await solana.balance(middle.address, usdc)).toBe(1n);
    expect(await solana.balance(last.address, usdc)).toBe(0n);
    expect(await solana.balance(payer.address, usdc)).toBe(5_000_000n);
  });

  it('creates the merchant token account when asked, in a legacy message, and v0 needs maxSupportedTransactionVersion', async () => {
    const payer = await solana.newPayer({ USDT: 5_000_000n });
    const merchant = await solana.newMerchant({ createAtas: false });
    const ata = await solana.ata(merchant.address, solana.mints.USDT);
    expect((await raw('getAccountInfo', [ata, { commitment: 'processed' }])).body.result).toMatchObject({
      value: null,
    });
    const legacy = await solana.pay(payer, {
      recipient: merchant.address,
      mint: solana.mints.USDT,
      amount: 1_000_000n,
      createRecipientAta: true,
      version: 'legacy',
    });
    const v0 = await solana.pay(payer, { recipient: merchant.address, mint: solana.mints.USDT, amount: 1n });
    solana.advance();
    expect(await solana.balance(merchant.address, solana.mints.USDT)).toBe(1_000_001n);
    const old = await raw('getTransaction', [legacy, { commitment: 'confirmed' }]);
    expect(old.body.result).not.toHaveProperty('version');
    const refused = await raw('getTransaction', [v0, { commitment: 'confirmed' }]);
    expect(refused.body.error?.code).toBe(-32015);
    const parsed = await raw('getAccountInfo', [ata, { commitment: 'confirmed', encoding: 'jsonParsed' }]);
    expect(parsed.body.result).toMatchObject({
      value: {
        data: {
          parsed: { type: 'account', info: { owner: merchant.address, tokenAmount: { amount: '1000001' } } },
        },
      },
    });
  });
});

describe('transactions that fail', () => {
  it('are refused by preflight, or land failed with the fee charged and nothing moved', async () => {
    const payer = await solana.newPayer({ USDC: 1_000_000n });
    const merchant = await solana.newMerchant();
    const tooMuch = { recipient: merchant.address, mint: solana.mints.USDC, amount: 2_000_000n };
    await expect(solana.pay(payer, tooMuch)).rejects.toMatchObject({ context: { __code: -32002 } });
    const failed = await solana.pay(payer, { ...tooMuch, skipPreflight: true });
    solana.advance();
    const ata = (await solana.ata(merchant.address, solana.mints.USDC)) as Address;
    const [entry] = await rpc().getSignaturesForAddress(ata, { commitment: 'confirmed' }).send();
    // Kit reads every JSON number as a bigint.
    expect(entry).toMatchObject({ signature: failed, err: { InstructionError: [0n, { Custom: 1n }] } });
    const tx = await raw('getTransaction', [
      failed,
      { commitment: 'confirmed', maxSupportedTransactionVersion: 0 },
    ]);
    expect(tx.body.result).toMatchObject({
      meta: { fee: 5000, status: { Err: { InstructionError: [0, { Custom: 1 }] } } },
    });
    expect(await solana.balance(payer.address, solana.mints.USDC)).toBe(1_000_000n);
  });

  it('cannot be sent twice, nor forged, nor after their blockhash expired', async () => {
    const payer = await solana.newPayer({ USDC: 1_000_000n });
    const merchant = await solana.newMerchant();
    const p = { recipient: merchant.address, mint: solana.mints.USDC, amount: 1n };
    const once = await solana.signPayment(payer, p);
    const send = (wire: string) => raw('sendTransaction', [wire, { encoding: 'base64' }], solana.walletUrl);
    expect((await send(once.wire)).body.result).toBe(once.signature);
    expect((await send(once.wire)).body.error?.message).toMatch(/already been processed/);
    const forged = Buffer.from(once.wire, 'base64');
    forged[5] = (forged[5] ?? 0) ^ 1;
    expect((await send(forged.toString('base64'))).body.error).toEqual({
      code: -32003,
      message: 'Transaction signature verification failure',
    });
    const late = await solana.signPayment(payer, { ...p, amount: 2n });
    solana.advance(151);
    expect((await send(late.wire)).body.error).toMatchObject({
      code: -32002,
      message: 'Transaction simulation failed: Blockhash not found',
    });
  });
});

describe('the node Paydesk talks to', () => {
  it('answers 429 while rate limited and JSON-RPC errors when failing; the wallets’ node is unaffected', async () => {
    solana.faults.rateLimit(2);
    expect((await raw('getSlot')).status).toBe(429);
    expect((await raw('getSlot', [], solana.walletUrl)).status).toBe(200);
    expect((await raw('getSlot')).status).toBe(429);
    expect((await raw('getSlot')).body.result).toEqual(expect.any(Number));
    solana.faults.error(1);
    expect((await raw('getSlot')).body.error).toEqual({ code: -32603, message: 'Internal error' });
    expect((await raw('getSlot')).body.result).toEqual(expect.any(Number));
    expect(solana.calls()['(429)']).toBe(2);
  });

  it('lags: a lower slot, and the newest transactions hidden', async () => {
    const p = await payment();
    solana.advance();
    const head = await rpc().getSlot({ commitment: 'confirmed' }).send();
    solana.faults.lag(5);
    expect(await rpc().getSlot({ commitment: 'confirmed' }).send()).toBe(head - 5n);
    expect(await rpc().getSignaturesForAddress(p.ata, { commitment: 'confirmed' }).send()).toEqual([]);
    expect(await statusOf(p.signature)).toBeNull();
    solana.faults.lag(0);
    expect((await rpc().getSignaturesForAddress(p.ata, { commitment: 'confirmed' }).send()).length).toBe(1);
  });

  it('hangs on request, answering nothing until the client gives up', async () => {
    solana.faults.hang(1);
    await expect(
      fetch(solana.rpcUrl, {
        method: 'POST',
        body: '{"jsonrpc":"2.0","id":1,"method":"getSlot"}',
        signal: AbortSignal.timeout(100),
      }),
    ).rejects.toThrow();
    expect((await raw('getSlot')).status).toBe(200);
  });

  it('serves batches, blocks and token accounts by owner', async () => {
    const p = await payment({ memo: 'batch' });
    solana.advance();
    const slot = Number((await rpc().getSignatureStatuses([p.signature]).send()).value[0]?.slot);
    const res = await fetch(solana.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify([
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'getBlock',
          params: [slot, { commitment: 'confirmed', transactionDetails: 'signatures' }],
        },
        {
          jsonrpc: '2.0',
          id: 2,
          method: 'getTokenAccountsByOwner',
          params: [
            p.merchant.address,
            { mint: solana.mints.USDC },
            { commitment: 'confirmed', encoding: 'jsonParsed' },
          ],
        },
        {
          jsonrpc: '2.0',
          id: 3,
          method: 'getMultipleAccounts',
          params: [[p.ata, p.reference], { commitment: 'confirmed' }],
        },
        { jsonrpc: '2.0', id: 4, method: 'noSuchMethod' },
      ]),
    });
    const [block, owned, many, unknown] = (await res.json()) as { result?: any; error?: any }[];
    expect(block?.result.signatures).toContain(p.signature);
    expect(owned?.result.value).toMatchObject([
      { pubkey: p.ata, account: { data: { parsed: { info: { tokenAmount: { amount: '2500000' } } } } } },
    ]);
    expect(many?.result.value[1]).toBeNull();
    expect(unknown?.error).toEqual({ code: -32601, message: 'Method not found' });
  });

  it('moves on by itself with slotMs', async () => {
    const ticking = await startSolana({ slotMs: 20 });
    const start = ticking.slot;
    await expect.poll(() => ticking.slot, { interval: 20 }).toBeGreaterThan(start + 2);
    await ticking.close();
  });

  it('restarts: unreachable for a while, then back on the same URL with the same ledger', async () => {
    const p = await payment();
    solana.advance();
    const restarted = solana.restart({ downMs: 100 });
    await new Promise((r) => setTimeout(r, 20));
    await expect(raw('getSlot')).rejects.toThrow();
    await restarted;
    expect(await statusOf(p.signature)).toBe('confirmed');
  });
});
