import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { type Address, getAddress, type Hex } from 'viem';
import { type PrivateKeyAccount, privateKeyToAccount } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Merchant, manualClock, startTestApp, type TestApp } from '../../test/app.js';
import { closeAfterTest, sharedChromium, skipBrowserTests } from '../../test/browser/chromium.js';
import { type LocalChain, startChain, stopAllChains } from '../../test/chain.js';
import {
  type ChainTokens,
  chainMerchant,
  deployTokens,
  getInvoice,
  newInvoice,
} from '../../test/chain-app.js';
import { installFactory } from '../../test/forwarders.js';
import { gaslessNetworkEnv, gaslessPayer } from '../../test/gasless.js';
import { deployUsdcLike } from '../../test/usdc-like.js';
import { eventually } from '../../test/webhooks.js';

/**
 * Contract §23, the payment page's "Pay from your browser wallet" in Chromium: an injected EIP-1193
 * provider, announced by EIP-6963, that signs with a real private key (viem) as a wallet does; the
 * payer holds USDC and no native coin. Each refusal leaves the invoice open with a message in the
 * payer's language.
 */
let chain: LocalChain;
let tokens: ChainTokens;
let t: TestApp;
let m: Merchant;
let base: string;
const relayerKey: Hex = `0x${randomBytes(32).toString('hex')}`;
const payout = getAddress(`0x${randomBytes(20).toString('hex')}`);

beforeAll(async () => {
  if (skipBrowserTests) return;
  chain = await startChain();
  tokens = { ...(await deployTokens(chain)), usdc: (await deployUsdcLike(chain)).address };
  await installFactory(chain);
  await chain.wallet.sendTransaction({ to: privateKeyToAccount(relayerKey).address, value: 10n ** 18n });
  t = await startTestApp({
    clock: manualClock(),
    workers: ['chain-scan:localchain'],
    env: { ...gaslessNetworkEnv(chain, tokens, 1), PAYDESK_RELAYER_KEY: relayerKey },
  });
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  m = await chainMerchant(t, { payout_address: payout, currency: 'USDC' });
}, 120_000);

afterAll(async () => {
  await t?.close();
  await stopAllChains();
});

type Behaviour = 'sign' | 'reject' | 'wrong-chain';

/** A page whose window has a wallet: EIP-6963 announced, requests answered in Node by a viem account. */
async function pageWithWallet(payer: PrivateKeyAccount, behaviour: Behaviour, lang = 'en'): Promise<Page> {
  const browser = await sharedChromium();
  const context = await browser.newContext({ reducedMotion: 'reduce', locale: lang });
  closeAfterTest(context);
  const page = await context.newPage();
  await page.exposeFunction('__walletRequest', async (method: string, params: unknown[]) => {
    if (method === 'eth_requestAccounts' || method === 'eth_accounts') return [payer.address];
    if (method === 'eth_chainId')
      return `0x${(behaviour === 'wrong-chain' ? 1 : chain.chainId).toString(16)}`;
    if (method === 'eth_signTypedData_v4') {
      if (behaviour === 'reject') return { error: { code: 4001, message: 'User rejected the request.' } };
      const [from, json] = params as [Address, string];
      if (getAddress(from) !== payer.address) throw new Error('asked to sign for another account');
      const { domain, types, primaryType, message } = JSON.parse(json);
      const { EIP712Domain: _, ...rest } = types;
      return payer.signTypedData({ domain, types: rest, primaryType, message });
    }
    return { error: { code: 4200, message: `unsupported ${method}` } };
  });
  await page.addInitScript(() => {
    const w = globalThis as any;
    const provider = {
      async request({ method, params }: { method: string; params?: unknown[] }) {
        const answer = await w.__walletRequest(method, params ?? []);
        if (answer && typeof answer === 'object' && 'error' in answer) {
          throw Object.assign(new Error(answer.error.message), { code: answer.error.code });
        }
        return answer;
      },
    };
    const info = {
      uuid: 'b6a4c0f4-0000-4000-8000-000000000001',
      name: 'Test Wallet',
      icon: 'data:,',
      rdns: 'test.wallet',
    };
    w.addEventListener('eip6963:requestProvider', () =>
      w.dispatchEvent(
        new w.CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info, provider }) }),
      ),
    );
  });
  return page;
}

async function invoicePage(payer: PrivateKeyAccount, behaviour: Behaviour, lang?: string) {
  const invoice = await newInvoice(t, m, '12.50');
  const page = await pageWithWallet(payer, behaviour, lang);
  await page.goto(`${base}/pay/${invoice.id}${lang ? `?lang=${lang}` : ''}`);
  return { invoice, page };
}

describe.skipIf(skipBrowserTests)('Pay from your browser wallet', () => {
  test('a payer with no native coin signs in the wallet and the invoice is paid', async () => {
    const payer = await gaslessPayer(chain, tokens.usdc, 20_000_000n);
    const { invoice, page } = await invoicePage(payer, 'sign');
    await page.getByRole('button', { name: 'Pay from your browser wallet' }).click();
    await page.getByText('Payment sent. Waiting for the network to confirm it…').waitFor();
    await eventually(async () => (await getInvoice(t, m, invoice.id)).status === 'paid', 20_000);
    expect(await chain.publicClient.getBalance({ address: payer.address })).toBe(0n);
  });

  test("a refused signature, a wrong chain and a short balance leave the invoice open, each said in the payer's language", async () => {
    const rich = await gaslessPayer(chain, tokens.usdc, 20_000_000n);
    const poor = await gaslessPayer(chain, tokens.usdc, 1_000_000n);
    const cases: Array<[PrivateKeyAccount, Behaviour, string, string]> = [
      [rich, 'reject', 'en', 'You declined the signature in your wallet.'],
      [rich, 'wrong-chain', 'es', 'Tu cartera está en otra red. Cámbiala a Local chain'],
      [poor, 'sign', 'de', 'Your wallet does not hold enough USDC on Local chain'],
      [poor, 'sign', 'ru', 'В кошельке недостаточно USDC в сети Local chain'],
    ];
    for (const [payer, behaviour, lang, text] of cases) {
      const { invoice, page } = await invoicePage(payer, behaviour, lang);
      await page.locator('[data-wallet-pay]').click();
      await page.getByText(text).waitFor();
      expect((await getInvoice(t, m, invoice.id)).status).toBe('pending');
      await page.context().close();
    }
  });

  test('an expired request is refused with its message', async () => {
    const payer = await gaslessPayer(chain, tokens.usdc, 20_000_000n);
    const { page } = await invoicePage(payer, 'sign', 'tr');
    // The page's clock runs past the invoice's expiry: the script refuses before asking to sign.
    await page.evaluate(() => {
      const section = (globalThis as any).document.querySelector('[data-wallet]');
      section.dataset.validBefore = '1';
    });
    await page.locator('[data-wallet-pay]').click();
    await page.getByText('Bu ödeme isteğinin süresi doldu.').waitFor();
  });
});
