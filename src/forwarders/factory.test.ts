import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import {
  type Abi,
  type Address,
  encodeFunctionData,
  getAddress,
  type Hash,
  type Hex,
  parseEventLogs,
  type TransactionReceipt,
  zeroAddress,
} from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LocalChain, startChain, stopAllChains, TOKEN_ABI } from '../../test/chain.js';
import { deployHostile, hostileAbi, installFactory } from '../../test/forwarders.js';
import { forwarderAddress, implementationAddress } from './address.js';
import { FACTORY_ABI, FORWARDER_ABI } from './artifact.js';
import { FACTORY_ADDRESS } from './deploy.js';

// One Hardhat node for the whole file: every test uses fresh salts and payouts, so none sees another's funds.
let chain: LocalChain;
let factory: Address;
let usdc: Address;
let tether: Address;

const AMOUNT = 1_000_000n;
const salt = (): Hex => `0x${randomBytes(32).toString('hex')}`;
const newAddress = (): Address => getAddress(`0x${randomBytes(20).toString('hex')}`);
const fwd = (payout: Address, s: Hex) => forwarderAddress(factory, payout, s);

beforeAll(async () => {
  chain = await startChain();
  factory = await installFactory(chain);
  usdc = await chain.deployToken({ symbol: 'USDC', decimals: 6 });
  tether = await deployHostile(chain, 'TetherLike');
});
afterAll(stopAllChains);

interface Item {
  salt: Hex;
  token: Address;
}

/**
 * Sends collect() and returns its receipt, reverted or not. Hardhat answers a transaction that
 * reverts with an error but mines it all the same: the receipt is the block's last transaction's.
 */
async function collect(
  payout: Address,
  items: Item[],
  options: { fresh?: number; gas?: bigint; from?: Address } = {},
): Promise<TransactionReceipt> {
  const data = encodeFunctionData({
    abi: FACTORY_ABI,
    functionName: 'collect',
    args: [payout, items, BigInt(options.fresh ?? items.length)],
  });
  let hash: Hash;
  try {
    hash = await chain.wallet.sendTransaction({
      to: factory,
      data,
      account: options.from ?? (chain.accounts[1] as Address),
      gas: options.gas ?? 200_000n * BigInt(items.length) + 200_000n,
    });
  } catch {
    const block = await chain.publicClient.getBlock({ blockTag: 'latest' });
    hash = block.transactions.at(-1) as Hash;
  }
  return chain.publicClient.getTransactionReceipt({ hash });
}

const failures = (receipt: TransactionReceipt) =>
  parseEventLogs({ abi: FACTORY_ABI, eventName: 'SweepFailed', logs: receipt.logs }).map((l) =>
    (l.args as { forwarder: Address }).forwarder.toLowerCase(),
  );

async function balance(token: Address, owner: Address, abi: Abi = TOKEN_ABI): Promise<bigint> {
  return (await chain.publicClient.readContract({
    address: token,
    abi,
    functionName: 'balanceOf',
    args: [owner],
  })) as bigint;
}

async function mint(token: Address, to: Address, amount = AMOUNT, abi: Abi = TOKEN_ABI) {
  const hash = await chain.wallet.writeContract({
    address: token,
    abi,
    functionName: 'mint',
    args: [to, amount],
  });
  await chain.publicClient.waitForTransactionReceipt({ hash });
}

const hasCode = async (address: Address) =>
  ((await chain.publicClient.getCode({ address })) ?? '0x') !== '0x';

describe('forwarder addresses', () => {
  it('are computed off-chain exactly as the factory computes them, for any payout and salt', async () => {
    expect(factory).toBe(FACTORY_ADDRESS);
    const implementation = await chain.publicClient.readContract({
      address: factory,
      abi: FACTORY_ABI,
      functionName: 'IMPLEMENTATION',
    });
    expect(implementation).toBe(implementationAddress(factory));
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ minLength: 20, maxLength: 20 }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        async (p, s) => {
          const payout = getAddress(`0x${Buffer.from(p).toString('hex')}`);
          const saltHex: Hex = `0x${Buffer.from(s).toString('hex')}`;
          const onChain = await chain.publicClient.readContract({
            address: factory,
            abi: FACTORY_ABI,
            functionName: 'forwarderAddress',
            args: [payout, saltHex],
          });
          expect(onChain).toBe(forwarderAddress(factory, payout, saltHex));
        },
      ),
      { numRuns: 50 },
    );
  });
});

describe('collecting', () => {
  it('moves a USDC-like and a Tether-like deposit made before deployment to the payout, deploying the forwarders', async () => {
    const payout = newAddress();
    const [a, b] = [salt(), salt()];
    await mint(usdc, fwd(payout, a));
    await mint(tether, fwd(payout, b), AMOUNT, hostileAbi('TetherLike'));
    const receipt = await collect(payout, [
      { salt: a, token: usdc },
      { salt: b, token: tether },
    ]);
    expect(receipt.status).toBe('success');
    expect(failures(receipt)).toEqual([]);
    expect(await balance(usdc, payout)).toBe(AMOUNT);
    expect(await balance(tether, payout, hostileAbi('TetherLike'))).toBe(AMOUNT);
    expect(await balance(usdc, fwd(payout, a))).toBe(0n);
    expect(await hasCode(fwd(payout, a))).toBe(true);
  });

  it('collects the same forwarder again when a payment arrives after it was deployed and emptied', async () => {
    const payout = newAddress();
    const s = salt();
    await mint(usdc, fwd(payout, s));
    expect((await collect(payout, [{ salt: s, token: usdc }])).status).toBe('success');
    await mint(usdc, fwd(payout, s), 5n);
    const again = await collect(payout, [{ salt: s, token: usdc }], { fresh: 0 });
    expect(again.status).toBe('success');
    expect(await balance(usdc, payout)).toBe(AMOUNT + 5n);
  });

  it('still collects when the hint calls a deployed forwarder fresh, or a fresh one deployed: it costs gas only', async () => {
    const payout = newAddress();
    const [deployed, notYet] = [salt(), salt()];
    await mint(usdc, fwd(payout, deployed));
    await collect(payout, [{ salt: deployed, token: usdc }]);
    await mint(usdc, fwd(payout, deployed));
    await mint(usdc, fwd(payout, notYet));
    const asFresh = await collect(payout, [{ salt: deployed, token: usdc }], { fresh: 1 });
    const asDeployed = await collect(payout, [{ salt: notYet, token: usdc }], { fresh: 0 });
    expect([asFresh.status, asDeployed.status]).toEqual(['success', 'success']);
    expect(await balance(usdc, payout)).toBe(3n * AMOUNT);
  });

  it('moves native coin sent before and after deployment', async () => {
    const payout = newAddress();
    const s = salt();
    const send = async (value: bigint) => {
      const hash = await chain.wallet.sendTransaction({ to: fwd(payout, s), value });
      expect((await chain.publicClient.waitForTransactionReceipt({ hash })).status).toBe('success');
    };
    await send(7n);
    expect((await collect(payout, [{ salt: s, token: zeroAddress }])).status).toBe('success');
    expect(await chain.publicClient.getBalance({ address: payout })).toBe(7n);
    await send(8n);
    expect((await collect(payout, [{ salt: s, token: zeroAddress }], { fresh: 0 })).status).toBe('success');
    expect(await chain.publicClient.getBalance({ address: payout })).toBe(15n);
  });

  it('leaves native coin in the forwarder when the payout refuses it, and refuses the zero address as payout', async () => {
    // A contract without receive(): every native coin payment to it reverts.
    const payout = await deployHostile(chain, 'RevertingToken');
    const s = salt();
    const hash = await chain.wallet.sendTransaction({ to: fwd(payout, s), value: 9n });
    await chain.publicClient.waitForTransactionReceipt({ hash });
    const receipt = await collect(payout, [{ salt: s, token: zeroAddress }]);
    expect(failures(receipt)).toEqual([fwd(payout, s).toLowerCase()]);
    expect(await chain.publicClient.getBalance({ address: fwd(payout, s) })).toBe(9n);
    expect((await collect(zeroAddress, [{ salt: s, token: zeroAddress }])).status).toBe('reverted');
  });

  it('treats an empty forwarder as nothing to do, not as a failure', async () => {
    const receipt = await collect(newAddress(), [{ salt: salt(), token: usdc }]);
    expect(receipt.status).toBe('success');
    expect(failures(receipt)).toEqual([]);
  });
});

describe('a bad deposit', () => {
  it('never blocks the others: false, revert, no code, burnt gas and a revert bomb fail alone and keep their funds', async () => {
    const payout = newAddress();
    const bad: Array<[Address, Abi]> = [
      [await deployHostile(chain, 'FalseToken'), hostileAbi('FalseToken')],
      [await deployHostile(chain, 'RevertingToken'), hostileAbi('RevertingToken')],
      [await deployHostile(chain, 'GasBurner', [0n]), hostileAbi('GasBurner')],
      [await deployHostile(chain, 'GasBurner', [1n]), hostileAbi('GasBurner')],
    ];
    const items: Item[] = [];
    for (const [token, abi] of bad) {
      const s = salt();
      await mint(token, fwd(payout, s), AMOUNT, abi);
      items.push({ salt: s, token }, { salt: salt(), token: usdc });
    }
    const noCode = { salt: salt(), token: newAddress() };
    items.push(noCode);
    for (const item of items.filter((i) => i.token === usdc)) await mint(usdc, fwd(payout, item.salt));

    const receipt = await collect(payout, items);
    expect(receipt.status).toBe('success');
    const failed = items.filter((i) => i.token !== usdc).map((i) => fwd(payout, i.salt).toLowerCase());
    expect(failures(receipt).sort()).toEqual(failed.sort());
    expect(await balance(usdc, payout)).toBe(4n * AMOUNT);
    for (const [i, [token, abi]] of bad.entries()) {
      expect(await balance(token, fwd(payout, (items[2 * i] as Item).salt), abi)).toBe(AMOUNT);
      expect(await balance(token, payout, abi)).toBe(0n);
    }
  });

  it('that answers true followed by 64 KiB is collected, and the answer is not copied', async () => {
    const payout = newAddress();
    const bomb = await deployHostile(chain, 'GasBurner', [2n]);
    const s = salt();
    await mint(bomb, fwd(payout, s), AMOUNT, hostileAbi('GasBurner'));
    const receipt = await collect(payout, [{ salt: s, token: bomb }]);
    expect(failures(receipt)).toEqual([]);
    expect(await balance(bomb, payout, hostileAbi('GasBurner'))).toBe(AMOUNT);
  });

  it('from a token that re-enters collect or sweeps a forwarder itself moves nothing anywhere else', async () => {
    const payout = newAddress();
    const attacker = newAddress();
    const reentrant = await deployHostile(chain, 'ReentrantToken');
    const abi = hostileAbi('ReentrantToken');
    const [s, victim] = [salt(), salt()];
    await mint(reentrant, fwd(payout, s), AMOUNT, abi);
    await mint(usdc, fwd(payout, victim));
    // The victim forwarder is deployed first, so the token's own calls meet real code.
    await collect(payout, [{ salt: victim, token: tether }]);
    const hooks: Array<[Address, Hex]> = [
      [
        factory,
        encodeFunctionData({
          abi: FACTORY_ABI,
          functionName: 'collect',
          args: [attacker, [{ salt: victim, token: usdc }], 1n],
        }),
      ],
      [
        factory,
        encodeFunctionData({
          abi: FACTORY_ABI,
          functionName: 'collect',
          args: [payout, [{ salt: victim, token: usdc }], 0n],
        }),
      ],
      [
        fwd(payout, victim),
        encodeFunctionData({ abi: FORWARDER_ABI, functionName: 'sweep', args: [usdc, attacker] }),
      ],
    ];
    for (const [target, data] of hooks) {
      for (const strict of [true, false]) {
        await chain.wallet.writeContract({
          address: reentrant,
          abi,
          functionName: 'setHook',
          args: [target, data, strict],
        });
        await mint(reentrant, fwd(payout, s), 1n, abi);
        const receipt = await collect(payout, [{ salt: s, token: reentrant }], { fresh: 0 });
        expect(receipt.status).toBe('success');
        // Every call the token makes from inside the sweep is refused.
        expect(
          await chain.publicClient.readContract({
            address: reentrant,
            abi,
            functionName: 'lastCallSucceeded',
          }),
        ).toBe(false);
        // Strict: the token gives up, the factory reports it. Lenient: the token transfers as asked, to the payout.
        expect(failures(receipt)).toEqual(strict ? [fwd(payout, s).toLowerCase()] : []);
      }
    }
    expect(await balance(usdc, fwd(payout, victim))).toBe(AMOUNT);
    expect(await balance(usdc, attacker)).toBe(0n);
    expect(await balance(reentrant, attacker, abi)).toBe(0n);
    expect(await balance(reentrant, payout, abi)).toBe(AMOUNT + 6n);
  });
});

describe('nobody but the payout gets anything', () => {
  it('a stranger calling collect with their own payout reaches other, empty forwarders and gets nothing', async () => {
    const payout = newAddress();
    const stranger = chain.accounts[5] as Address;
    const strangerPayout = newAddress();
    const s = salt();
    await mint(usdc, fwd(payout, s));
    const receipt = await collect(strangerPayout, [{ salt: s, token: usdc }], { from: stranger });
    expect(receipt.status).toBe('success');
    expect(await balance(usdc, strangerPayout)).toBe(0n);
    expect(await balance(usdc, stranger)).toBe(0n);
    expect(await balance(usdc, fwd(payout, s))).toBe(AMOUNT);
    // Anyone may trigger the real collection; it still pays the payout only.
    await collect(payout, [{ salt: s, token: usdc }], { from: stranger });
    expect(await balance(usdc, payout)).toBe(AMOUNT);
    expect(await balance(usdc, stranger)).toBe(0n);
  });

  it("another project's forwarder (another payout, the same salt) is untouched by this project's collection", async () => {
    const [mine, theirs] = [newAddress(), newAddress()];
    const s = salt();
    await mint(usdc, fwd(mine, s));
    await mint(usdc, fwd(theirs, s));
    await collect(mine, [{ salt: s, token: usdc }]);
    expect(await balance(usdc, mine)).toBe(AMOUNT);
    expect(await balance(usdc, fwd(theirs, s))).toBe(AMOUNT);
  });

  it('a forwarder, or the implementation behind them all, refuses anyone but the factory', async () => {
    const payout = newAddress();
    const s = salt();
    await mint(usdc, fwd(payout, s));
    await collect(payout, [{ salt: s, token: usdc }]);
    await mint(usdc, fwd(payout, s));
    const thief = chain.accounts[6] as Address;
    for (const target of [fwd(payout, s), implementationAddress(factory)]) {
      await expect(
        chain.publicClient.simulateContract({
          address: target,
          abi: FORWARDER_ABI,
          functionName: 'sweep',
          args: [usdc, thief],
          account: thief,
        }),
      ).rejects.toThrow();
    }
    expect(await balance(usdc, fwd(payout, s))).toBe(AMOUNT);
    expect(await balance(usdc, thief)).toBe(0n);
    // The refusal is the caller check, not a malformed call: the same call from the factory goes through.
    await expect(
      chain.publicClient.simulateContract({
        address: fwd(payout, s),
        abi: FORWARDER_ABI,
        functionName: 'sweep',
        args: [usdc, payout],
        account: factory,
      }),
    ).resolves.toBeDefined();
  });
});

describe('a collector that runs out of gas mid-batch', () => {
  it('reverts the whole transaction: nothing moved, nothing marked failed, and a retry with gas collects all', async () => {
    const payout = newAddress();
    const items = Array.from({ length: 5 }, () => ({ salt: salt(), token: usdc }));
    for (const i of items) await mint(usdc, fwd(payout, i.salt));
    // Enough for about two deposits, not five.
    const short = await collect(payout, items, { gas: 400_000n });
    expect(short.status).toBe('reverted');
    expect(await balance(usdc, payout)).toBe(0n);
    for (const i of items) {
      expect(await balance(usdc, fwd(payout, i.salt))).toBe(AMOUNT);
      expect(await hasCode(fwd(payout, i.salt))).toBe(false);
    }
    const retry = await collect(payout, items);
    expect(retry.status).toBe('success');
    expect(failures(retry)).toEqual([]);
    expect(await balance(usdc, payout)).toBe(5n * AMOUNT);
  });
});
