import { describe, expect, test } from 'vitest';
import { money } from '../money/money.js';
import { carriesAmount, paymentRequest } from './payment-request.js';
import { loadNetworks } from './registry.js';

const networks = loadNetworks({});
const pay = '0x9858EfFD232B4033E47d90003D41EC34EcaEda94';

describe('paymentRequest', () => {
  test('on sandbox: sandbox:{pay_address}?amount={amount}&currency={currency}', () => {
    const target = { network: 'sandbox', currency: 'USDT', pay_address: '0xabc', amount: money('10.5') };
    expect(paymentRequest(target, networks)).toBe('sandbox:0xabc?amount=10.50&currency=USDT');
  });

  test('on a network it does not know: the bare address, which any wallet reads', () => {
    const target = { network: 'somechain', currency: 'USDC', pay_address: 'addr1', amount: money('1') };
    expect(paymentRequest(target, networks)).toBe('addr1');
  });

  test('on an EVM network: an EIP-681 transfer of the token, in its smallest units', () => {
    const target = { network: 'ethereum', currency: 'USDT', pay_address: pay, amount: money('10.50') };
    expect(paymentRequest(target, networks)).toBe(
      `ethereum:0xdAC17F958D2ee523a2206206994597C13D831ec7@1/transfer?address=${pay}&uint256=10500000`,
    );
  });

  test('uses the token decimals of the network: 18 on BNB Smart Chain', () => {
    const target = { network: 'bsc', currency: 'USDC', pay_address: pay, amount: money('0.01') };
    expect(paymentRequest(target, networks)).toBe(
      `ethereum:0x8AC76a51cc950d9822D68b83fE1Ad97B32Cd580d@56/transfer?address=${pay}&uint256=10000000000000000`,
    );
  });
});

describe('on TRON', () => {
  const target = {
    network: 'tron',
    currency: 'USDT',
    pay_address: 'TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH',
    amount: money('10.50'),
  };

  test('the QR code holds the bare T-address, as contract §14 says', () => {
    expect(paymentRequest(target, networks)).toBe('TUEZSdKsoDHQMeZwihtdoBiN46zxhGWYdH');
    expect(paymentRequest({ ...target, network: 'tron-nile' }, networks)).toBe(target.pay_address);
  });

  test('so the payer types the amount: only EVM and sandbox requests carry it', () => {
    expect(carriesAmount('tron', networks)).toBe(false);
    expect(carriesAmount('tron-nile', networks)).toBe(false);
    expect(carriesAmount('polygon', networks)).toBe(true);
    expect(carriesAmount('sandbox', networks)).toBe(true);
    expect(carriesAmount('somechain', networks)).toBe(false);
  });
});

describe('network labels', () => {
  test('a chain network is named by the registry, sandbox by us, an unknown one as stored', () => {
    expect(networks.label('arbitrum')).toBe('Arbitrum One');
    expect(networks.label('sandbox')).toBe('Sandbox');
    expect(networks.label('somechain')).toBe('somechain');
  });
});
