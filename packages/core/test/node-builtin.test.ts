import { deflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { nodeBuiltin } from '../src/index.js';

describe('nodeBuiltin', () => {
  it('gives the platform module on Node (the same object as an import), null for a name Node lacks', () => {
    const zlib = nodeBuiltin<{ deflateSync: typeof deflateSync }>('node:zlib');
    expect(zlib?.deflateSync).toBe(deflateSync);
    expect(nodeBuiltin('node:no-such-module')).toBeNull();
  });
});
