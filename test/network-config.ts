import { expect } from 'vitest';
import { loadNetworks, NetworkConfigError } from '../src/networks/registry.js';

/** Why the registry refuses a configuration: its NetworkConfigError's message (the test fails if it is taken). */
export function configProblem(env: Record<string, string>): string {
  try {
    loadNetworks(env);
  } catch (error) {
    expect(error).toBeInstanceOf(NetworkConfigError);
    return (error as Error).message;
  }
  throw new Error('expected the configuration to be refused');
}
