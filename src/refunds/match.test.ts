import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { type DueRefund, matchTransfers, type SeenTransfer } from './match.js';

const A = '0xA';
const TOKEN = '0xt';
const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));
const refund = (id: string, units: bigint, minute: number, extra: Partial<DueRefund> = {}): DueRefund => ({
  id,
  createdAt: at(minute),
  address: A,
  token: TOKEN,
  units,
  afterBlock: null,
  ...extra,
});
const transfer = (value: bigint, extra: Partial<SeenTransfer> = {}): SeenTransfer => ({
  token: TOKEN,
  to: A,
  value,
  txHash: '0x1',
  blockNumber: 10n,
  ...extra,
});
const pairs = (r: DueRefund[], t: SeenTransfer[]) =>
  matchTransfers(r, t).map((m) => [m.refund.id, m.transfer.value]);

describe('matching transfers to ready refunds', () => {
  test('one transaction with transfers of 1.00 and 2.00 to one address pays both refunds', () => {
    expect(pairs([refund('one', 100n, 1), refund('two', 200n, 2)], [transfer(100n), transfer(200n)])).toEqual(
      [
        ['one', 100n],
        ['two', 200n],
      ],
    );
  });

  test('a transfer pays the refund it equals before an older one it covers', () => {
    expect(pairs([refund('old', 100n, 1), refund('new', 200n, 2)], [transfer(200n)])).toEqual([
      ['new', 200n],
    ]);
  });

  test('without an equal one, the oldest refund it covers', () => {
    expect(
      pairs([refund('b', 100n, 2), refund('a', 150n, 1), refund('c', 300n, 0)], [transfer(200n)]),
    ).toEqual([['a', 200n]]);
  });

  test('a larger transfer first does not take the refund a later exact transfer pays', () => {
    const refunds = [refund('two', 200n, 1), refund('two-fifty', 250n, 2)];
    expect(pairs(refunds, [transfer(300n, { blockNumber: 9n }), transfer(200n)])).toEqual([
      ['two', 200n],
      ['two-fifty', 300n],
    ]);
  });

  test('transfers are never added up; too little, another token, address or an earlier block pay nothing', () => {
    const r = [refund('r', 300n, 1, { afterBlock: 10n })];
    expect(pairs(r, [transfer(100n, { blockNumber: 11n }), transfer(200n, { blockNumber: 11n })])).toEqual(
      [],
    );
    expect(pairs(r, [transfer(300n)])).toEqual([]);
    expect(pairs(r, [transfer(300n, { blockNumber: 11n, token: '0xu' })])).toEqual([]);
    expect(pairs(r, [transfer(300n, { blockNumber: 11n, to: '0xB' })])).toEqual([]);
    expect(pairs(r, [transfer(300n, { blockNumber: 11n })])).toEqual([['r', 300n]]);
  });
});

const arbRefund = fc.record({
  id: fc.uuid(),
  createdAt: fc.integer({ min: 0, max: 50 }).map(at),
  address: fc.constantFrom('0xA', '0xB'),
  token: fc.constantFrom(TOKEN, '0xu'),
  units: fc.bigInt({ min: 1n, max: 6n }),
  afterBlock: fc.option(fc.bigInt({ min: 0n, max: 4n }), { nil: null }),
});
const arbTransfer = fc.record({
  token: fc.constantFrom(TOKEN, '0xu'),
  to: fc.constantFrom('0xA', '0xB'),
  value: fc.bigInt({ min: 1n, max: 6n }),
  txHash: fc.constantFrom('0x1', '0x2'),
  blockNumber: fc.bigInt({ min: 0n, max: 5n }),
});

test('property: no refund paid twice, no transfer used twice, each pays what it covers, equal amounts first', () => {
  fc.assert(
    fc.property(
      fc.uniqueArray(arbRefund, { selector: (r) => r.id, maxLength: 8 }),
      fc.array(arbTransfer, { maxLength: 8 }),
      (refunds, transfers) => {
        const found = matchTransfers(refunds, transfers);
        expect(new Set(found.map((f) => f.refund)).size).toBe(found.length);
        expect(new Set(found.map((f) => f.transfer)).size).toBe(found.length);
        const paid = new Set(found.map((f) => f.refund));
        const eligible = (t: SeenTransfer, r: DueRefund) =>
          t.to === r.address &&
          t.token === r.token &&
          (r.afterBlock === null || t.blockNumber > r.afterBlock);
        for (const { refund: r, transfer: t } of found) {
          expect(eligible(t, r) && t.value >= r.units).toBe(true);
          // A transfer paying a refund it does not equal left no equal refund it could pay unpaid.
          if (t.value !== r.units) {
            expect(refunds.some((o) => !paid.has(o) && eligible(t, o) && o.units === t.value)).toBe(false);
          }
        }
        // Nothing payable is left: no unused transfer covers an unpaid refund it may pay.
        const used = new Set(found.map((f) => f.transfer));
        for (const t of transfers.filter((x) => !used.has(x))) {
          expect(refunds.some((r) => !paid.has(r) && eligible(t, r) && t.value >= r.units)).toBe(false);
        }
      },
    ),
    { numRuns: 2000 },
  );
});
