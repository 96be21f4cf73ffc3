import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { expect, test } from 'vitest';
import { MERCHANT_MNEMONIC, TEST_XPUB, TRON_TEST_XPUB } from './chain/wallet.js';

// `npm run xpub` (scripts/xpub.ts), run as a newcomer runs it: the phrase on standard input.
const SCRIPT = fileURLToPath(new URL('../scripts/xpub.ts', import.meta.url));
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;

function xpubCommand(input: string, args: string[] = []) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', TSX, SCRIPT, ...args], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      stdout += c;
    });
    child.stderr.setEncoding('utf8').on('data', (c: string) => {
      stderr += c;
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(input);
  });
}

test('prints the EVM and TRON account keys Paydesk takes, with the addresses the wallet shows first', async () => {
  const { code, stdout } = await xpubCommand(`${MERCHANT_MNEMONIC}\n`);
  expect(code).toBe(0);
  expect(stdout).toContain(TEST_XPUB);
  expect(stdout).toContain(TRON_TEST_XPUB);
  // The well-known first addresses of the all-"abandon" wallet (MetaMask's Account 1; tronweb's first).
  expect(stdout).toContain('0/0  0x9858EfFD232B4033E47d90003D41EC34EcaEda94');
  expect(stdout).toContain('0/0  TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH');
  expect(stdout).not.toContain('abandon');
}, 30_000);

test('refuses what is not a phrase, without repeating it, and derives nothing', async () => {
  const { code, stdout, stderr } = await xpubCommand('correct horse battery staple\n');
  expect(code).toBe(1);
  expect(stdout).toBe('');
  expect(stderr).toMatch(/12, 15, 18, 21 or 24 English words; got 4/);
  expect(stderr).not.toMatch(/horse|staple/);
}, 30_000);
