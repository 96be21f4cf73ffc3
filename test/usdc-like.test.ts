import { randomBytes } from 'node:crypto';
import {
  type Address,
  encodeFunctionData,
  getAddress,
  type Hex,
  keccak256,
  parseEventLogs,
  toBytes,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forwarderAddress } from '../src/forwarders/address.js';
import { FACTORY_ABI } from '../src/forwarders/artifact.js';
import { TRANSFER_WITH_AUTHORIZATION_TYPES } from '../src/gasless/typed-data.js';
import { type LocalChain, startChain, stopAllChains } from './chain.js';
import { installFactory } from './forwarders.js';
import {
  deployUsdcLike,
  USDC_LIKE_ABI,
  USDC_LIKE_PROXY_ABI,
  type UsdcLikeToken,
  usdcLikeDomain,
} from './usdc-like.js';

// The benchmark's USDC-like token (test/chain/UsdcLike.sol) must behave like the token it stands for,
// or its gas figures mean nothing.
let chain: LocalChain;
let token: UsdcLikeToken;
let admin: Address;

const AMOUNT = 1_000_000n;
const newAddress = (): Address => getAddress(`0x${randomBytes(20).toString('hex')}`);
const slot = (label: string) => keccak256(toBytes(label));
const asAddress = (word: Hex | undefined) => getAddress(`0x${(word ?? '').slice(-40)}`);

beforeAll(async () => {
  chain = await startChain();
  admin = chain.accounts[1] as Address;
  token = await deployUsdcLike(chain, admin);
});
afterAll(stopAllChains);

async function send(functionName: string, args: unknown[], from = chain.accounts[0] as Address) {
  const hash = await chain.wallet.writeContract({
    address: token.address,
    abi: USDC_LIKE_ABI,
    functionName,
    args,
    account: from,
    chain: chain.wallet.chain,
  });
  return chain.publicClient.waitForTransactionReceipt({ hash });
}

const balanceOf = async (owner: Address, at = token.address) =>
  (await chain.publicClient.readContract({
    address: at,
    abi: USDC_LIKE_ABI,
    functionName: 'balanceOf',
    args: [owner],
  })) as bigint;

const simulateTransfer = (from: Address, to: Address, value = AMOUNT) =>
  chain.publicClient.simulateContract({
    address: token.address,
    abi: USDC_LIKE_ABI,
    functionName: 'transfer',
    args: [to, value],
    account: from,
  });

describe('the USDC-like proxy', () => {
  it("keeps the implementation and the admin in FiatTokenProxy's unstructured slots, and the balances in its own storage", async () => {
    const at = (label: string) =>
      chain.publicClient.getStorageAt({ address: token.address, slot: slot(label) });
    expect(asAddress(await at('org.zeppelinos.proxy.implementation'))).toBe(getAddress(token.implementation));
    expect(asAddress(await at('org.zeppelinos.proxy.admin'))).toBe(getAddress(admin));
    const holder = newAddress();
    await send('mint', [holder, AMOUNT]);
    expect(await balanceOf(holder)).toBe(AMOUNT);
    expect(await balanceOf(holder, token.implementation)).toBe(0n);
  });

  it('refuses the token to its admin, and lets the admin upgrade', async () => {
    await expect(simulateTransfer(admin, newAddress(), 0n)).rejects.toThrow(/admin cannot fall back/);
    const other = await deployUsdcLike(chain);
    const hash = await chain.wallet.writeContract({
      address: token.address,
      abi: USDC_LIKE_PROXY_ABI,
      functionName: 'upgradeTo',
      args: [other.implementation],
      account: admin,
      chain: chain.wallet.chain,
    });
    await chain.publicClient.waitForTransactionReceipt({ hash });
    const implementation = await chain.publicClient.readContract({
      address: token.address,
      abi: USDC_LIKE_PROXY_ABI,
      functionName: 'implementation',
    });
    expect(implementation).toBe(getAddress(other.implementation));
  });
});

describe('the USDC-like token', () => {
  it('transfers, answers true and emits Transfer', async () => {
    const [from, to] = [chain.accounts[2] as Address, newAddress()];
    await send('mint', [from, AMOUNT]);
    const { result } = await simulateTransfer(from, to);
    expect(result).toBe(true);
    const receipt = await send('transfer', [to, AMOUNT], from);
    const [event] = parseEventLogs({ abi: USDC_LIKE_ABI, eventName: 'Transfer', logs: receipt.logs });
    expect(event?.args).toEqual({ from, to, value: AMOUNT });
    expect(await balanceOf(to)).toBe(AMOUNT);
  });

  it('refuses a blacklisted sender or recipient and keeps the balance behind the flag', async () => {
    const [from, blocked] = [chain.accounts[3] as Address, newAddress()];
    await send('mint', [from, AMOUNT]);
    await send('mint', [blocked, AMOUNT]);
    await send('blacklist', [blocked]);
    // The flag is the balance slot's high bit: balanceOf masks it.
    expect(await balanceOf(blocked)).toBe(AMOUNT);
    await expect(simulateTransfer(from, blocked)).rejects.toThrow(/recipient blacklisted/);
    await send('blacklist', [from]);
    await expect(simulateTransfer(from, newAddress())).rejects.toThrow(/sender blacklisted/);
  });

  it('refuses every transfer while paused', async () => {
    const from = chain.accounts[4] as Address;
    await send('mint', [from, AMOUNT]);
    await send('setPaused', [true]);
    try {
      await expect(simulateTransfer(from, newAddress())).rejects.toThrow(/paused/);
    } finally {
      await send('setPaused', [false]);
    }
  });

  it('is collected by a forwarder, and a blacklisted forwarder fails alone with its funds kept', async () => {
    const factory = await installFactory(chain);
    const payout = newAddress();
    const good: Hex = `0x${'11'.repeat(32)}`;
    const bad: Hex = `0x${'22'.repeat(32)}`;
    const goodForwarder = forwarderAddress(factory, payout, good);
    const badForwarder = forwarderAddress(factory, payout, bad);
    await send('mintMany', [[goodForwarder, badForwarder], AMOUNT]);
    await send('blacklist', [badForwarder]);
    const hash = await chain.wallet.sendTransaction({
      to: factory,
      data: encodeFunctionData({
        abi: FACTORY_ABI,
        functionName: 'collect',
        args: [payout, [good, bad].map((s) => ({ salt: s, token: token.address })), 2n],
      }),
      account: chain.accounts[5] as Address,
      gas: 1_000_000n,
    });
    const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
    expect(receipt.status).toBe('success');
    const failed = parseEventLogs({ abi: FACTORY_ABI, eventName: 'SweepFailed', logs: receipt.logs });
    expect(failed.map((l) => (l.args as { forwarder: Address }).forwarder)).toEqual([badForwarder]);
    expect(await balanceOf(payout)).toBe(AMOUNT);
    expect(await balanceOf(goodForwarder)).toBe(0n);
    expect(await balanceOf(badForwarder)).toBe(AMOUNT);
  });
});

describe('the USDC-like token, EIP-3009', () => {
  const payer = privateKeyToAccount(`0x${'5a'.repeat(32)}`);
  const authorization = (to: Address, nonce: Hex, validBefore = 2n ** 40n) => ({
    from: payer.address,
    to,
    value: AMOUNT,
    validAfter: 0n,
    validBefore,
    nonce,
  });
  const sign = (message: ReturnType<typeof authorization>) =>
    payer.signTypedData({
      domain: usdcLikeDomain(token.address, chain.chainId),
      types: TRANSFER_WITH_AUTHORIZATION_TYPES,
      primaryType: 'TransferWithAuthorization',
      message,
    });
  const submit = (m: ReturnType<typeof authorization>, signature: Hex, from = chain.accounts[6] as Address) =>
    send(
      'transferWithAuthorization',
      [m.from, m.to, m.value, m.validAfter, m.validBefore, m.nonce, signature],
      from,
    );

  it('moves a signed transfer submitted by anyone, once, and says so with AuthorizationUsed', async () => {
    await send('mint', [payer.address, AMOUNT * 2n]);
    const to = newAddress();
    const nonce: Hex = `0x${randomBytes(32).toString('hex')}`;
    const message = authorization(to, nonce);
    const signature = await sign(message);
    const receipt = await submit(message, signature);
    const [used] = parseEventLogs({ abi: USDC_LIKE_ABI, eventName: 'AuthorizationUsed', logs: receipt.logs });
    expect(used?.args).toEqual({ authorizer: payer.address, nonce });
    expect(await balanceOf(to)).toBe(AMOUNT);
    expect(
      await chain.publicClient.readContract({
        address: token.address,
        abi: USDC_LIKE_ABI,
        functionName: 'authorizationState',
        args: [payer.address, nonce],
      }),
    ).toBe(true);
    // The same signature again, by another sender: refused, nothing moves twice.
    await expect(submit(message, signature, chain.accounts[7] as Address)).rejects.toThrow(
      /used or canceled/,
    );
    expect(await balanceOf(to)).toBe(AMOUNT);
  });

  it('refuses a changed amount, a wrong signer and an expired authorization', async () => {
    const nonce: Hex = `0x${randomBytes(32).toString('hex')}`;
    const message = authorization(newAddress(), nonce);
    const signature = await sign(message);
    await expect(submit({ ...message, value: AMOUNT + 1n }, signature)).rejects.toThrow(/invalid signature/);
    await expect(submit({ ...message, from: newAddress() }, signature)).rejects.toThrow(/invalid signature/);
    const expired = authorization(newAddress(), nonce, 1n);
    await expect(submit(expired, await sign(expired))).rejects.toThrow(/expired/);
  });
});
