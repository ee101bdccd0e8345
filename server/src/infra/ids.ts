import { randomBytes } from 'node:crypto';

/**
 * 64-bit identifiers that never collide across nodes and reveal neither counts nor times.
 *
 * A plain snowflake (milliseconds since an epoch, a 10-bit node number, a 12-bit sequence) is
 * unique per node by construction but tells anyone who sees two ids how far apart in time and
 * in count they are. Each snowflake is therefore passed through a keyed permutation of the
 * 63-bit range (a 4-round Feistel network on 64 bits with cycle walking): a permutation maps
 * distinct inputs to distinct outputs, so uniqueness is kept, while the output order and gaps
 * carry nothing. The key is generated once per deployment and stored in the database (it must
 * never change, or new ids could meet old ones); node numbers are claimed with advisory locks.
 * Ids are positive and never 0 (0 is the platform tenant).
 */

const EPOCH_MS = Date.UTC(2024, 0, 1);
const NODE_BITS = 10n;
const SEQUENCE_BITS = 12n;
const MAX_SEQUENCE = (1 << Number(SEQUENCE_BITS)) - 1;
export const MAX_NODE_ID = (1 << Number(NODE_BITS)) - 1;
const LIMIT = 1n << 63n;
const MASK32 = 0xffffffffn;

/** Key material for the permutation: 4 round keys of 32 bits (16 bytes, stored hex). */
export function generateIdKey(): string {
  return randomBytes(16).toString('hex');
}

function roundKeys(hexKey: string): number[] {
  if (!/^[0-9a-f]{32}$/i.test(hexKey)) throw new Error('The id key must be 32 hex characters');
  return [0, 8, 16, 24].map((i) => Number.parseInt(hexKey.slice(i, i + 8), 16) >>> 0);
}

/** A 32-bit mixing function (murmur3 finalizer) of a half block and a round key. */
function mix(half: number, key: number): number {
  let h = (half ^ key) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  return (h ^ (h >>> 16)) >>> 0;
}

function feistel(value: bigint, keys: number[], decrypt: boolean): bigint {
  let left = Number(value >> 32n) >>> 0;
  let right = Number(value & MASK32) >>> 0;
  if (!decrypt) {
    for (const key of keys) [left, right] = [right, (left ^ mix(right, key)) >>> 0];
  } else {
    for (let i = keys.length - 1; i >= 0; i--) [left, right] = [(right ^ mix(left, keys[i]!)) >>> 0, left];
  }
  return (BigInt(left) << 32n) | BigInt(right);
}

/** The permutation of [0, 2^63): cycle walking keeps outputs inside the range (about 2 rounds on average). */
export function permute(value: bigint, hexKey: string): bigint {
  const keys = roundKeys(hexKey);
  let v = value;
  do v = feistel(v, keys, false);
  while (v >= LIMIT);
  return v;
}

export function unpermute(value: bigint, hexKey: string): bigint {
  const keys = roundKeys(hexKey);
  let v = value;
  do v = feistel(v, keys, true);
  while (v >= LIMIT);
  return v;
}

export interface IdGenerator {
  next(): bigint;
  readonly nodeId: number;
}

/**
 * Creates the generator of one node. `nowMs` is the real clock (ids must not depend on a test's
 * manual clock, or two tests could mint the same snowflake).
 */
export function createIdGenerator(options: { nodeId: number; key: string; nowMs?: () => number }): IdGenerator {
  const { nodeId, key } = options;
  if (!Number.isInteger(nodeId) || nodeId < 0 || nodeId > MAX_NODE_ID)
    throw new Error(`nodeId must be 0..${MAX_NODE_ID}`);
  roundKeys(key);
  const now = options.nowMs ?? Date.now;
  let lastMs = -1;
  let sequence = 0;
  const next = (): bigint => {
    let ms = now() - EPOCH_MS;
    // A clock stepped back must not reuse ids: keep counting from the last instant used.
    if (ms < lastMs) ms = lastMs;
    if (ms === lastMs) {
      sequence++;
      if (sequence > MAX_SEQUENCE) {
        // 4096 ids in one millisecond: borrow the next millisecond.
        lastMs++;
        sequence = 0;
      }
    } else {
      lastMs = ms;
      sequence = 0;
    }
    const snowflake =
      (BigInt(lastMs) << (NODE_BITS + SEQUENCE_BITS)) | (BigInt(nodeId) << SEQUENCE_BITS) | BigInt(sequence);
    const id = permute(snowflake, key);
    return id === 0n ? next() : id;
  };
  return { next, nodeId };
}
