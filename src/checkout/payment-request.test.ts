import { describe, expect, test } from 'vitest';
import { loadNetworks } from '../chains/networks.js';
import { networkLabel } from './network.js';
import { paymentRequest } from './payment-request.js';

describe('paymentRequest', () => {
  test('on sandbox: sandbox:{pay_address}?amount={amount}&currency={currency}', () => {
    const target = { network: 'sandbox', currency: 'USDT', pay_address: '0xabc', amount: '10.50' };
    expect(paymentRequest(target)).toBe('sandbox:0xabc?amount=10.50&currency=USDT');
  });

  test('on a network it does not know: the bare address, which any wallet reads', () => {
    const target = { network: 'somechain', currency: 'USDC', pay_address: 'addr1', amount: '1.00' };
    expect(paymentRequest(target)).toBe('addr1');
  });
});

describe('paymentRequest on an EVM network of the registry', () => {
  const networks = loadNetworks({});
  const pay = '0x9858EfFD232B4033E47d90003D41EC34EcaEda94';

  test('is an EIP-681 transfer of the token, in its smallest units', () => {
    const target = { network: 'ethereum', currency: 'USDT', pay_address: pay, amount: '10.50' };
    expect(paymentRequest(target, networks)).toBe(
      `ethereum:0xdAC17F958D2ee523a2206206994597C13D831ec7@1/transfer?address=${pay}&uint256=10500000`,
    );
  });

  test('uses the token decimals of the network: 18 on BNB Smart Chain', () => {
    const target = { network: 'bsc', currency: 'USDC', pay_address: pay, amount: '0.01' };
    expect(paymentRequest(target, networks)).toBe(
      `ethereum:0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d@56/transfer?address=${pay}&uint256=10000000000000000`,
    );
  });
});

describe('networkLabel', () => {
  test('is the registry label of a chain network', () => {
    expect(networkLabel('arbitrum', loadNetworks({}))).toBe('Arbitrum One');
  });

  test('names sandbox, and shows an unknown network as stored', () => {
    expect(networkLabel('sandbox')).toBe('Sandbox');
    expect(networkLabel('somechain')).toBe('somechain');
  });
});
