import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config.js';
import { collectorKeys } from './collector-key.js';

const KEY = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d';
const OTHER = '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a';

describe('collector keys', () => {
  it('come from PAYDESK_COLLECTOR_KEY, overridden per network by PAYDESK_COLLECTOR_KEY_<NAME>', () => {
    const problems: string[] = [];
    const key = collectorKeys(
      { PAYDESK_COLLECTOR_KEY: KEY, PAYDESK_COLLECTOR_KEY_POLYGON_AMOY: OTHER },
      ['ethereum', 'polygon-amoy'],
      problems,
    );
    expect(problems).toEqual([]);
    expect([key('ethereum'), key('polygon-amoy'), key('tron')]).toEqual([KEY, OTHER, undefined]);
  });

  it('are refused when malformed, naming the variable but never the value', () => {
    for (const bad of [`${KEY}00`, KEY.slice(2), `0x${'0'.repeat(64)}`, `0x${'f'.repeat(64)}`]) {
      let message = '';
      try {
        loadConfig({ PAYDESK_COLLECTOR_KEY_ETHEREUM: bad });
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        message = (error as Error).message;
      }
      expect(message).toMatch(
        /PAYDESK_COLLECTOR_KEY_ETHEREUM must be a 0x-prefixed 32-byte secp256k1 private key/,
      );
      expect(message).not.toContain(bad.slice(4, 40));
    }
  });

  it('are refused for a network that does not exist, a typo that would leave collection off', () => {
    expect(() => loadConfig({ PAYDESK_COLLECTOR_KEY_ETHERUM: KEY })).toThrow(
      /PAYDESK_COLLECTOR_KEY_ETHERUM names no EVM network/,
    );
  });

  it('are in no enumerable property of the configuration, so a logged config shows none', () => {
    const config = loadConfig({ PAYDESK_COLLECTOR_KEY: KEY });
    expect(config.collectorKey('ethereum')).toBe(KEY);
    expect(JSON.stringify(config)).not.toContain(KEY.slice(2));
  });
});
