import { createHash } from 'node:crypto';

/**
 * SM2 signature verification (GB/T 32918.2, curve sm2p256v1, SM3 digest, the default
 * distinguishing identifier "1234567812345678"), for credentials registered with an SM2 public
 * key. OpenSSL's generic ECDSA over the SM2 curve is not SM2 (it lacks Z_A and uses another
 * verification equation), so the check is written out here on BigInt, in Jacobian
 * coordinates. Only public values are involved, so constant time is not needed.
 */

const P = 0xfffffffeffffffffffffffffffffffffffffffff00000000ffffffffffffffffn;
const A = P - 3n;
const B = 0x28e9fa9e9d9f5e344d5a9e4bcf6509a7f39789f515ab8f92ddbcbd414d940e93n;
const N = 0xfffffffeffffffffffffffffffffffff7203df6b21c6052b53bbf40939d54123n;
const GX = 0x32c4ae2c1f1981195f9904466a39c9948fe30bbff2660be1715a4589334c74c7n;
const GY = 0xbc3736a2f4f6779c59bdcee36b692153d0a9877cc62a474002df32e52139f0a0n;
const DEFAULT_ID = Buffer.from('1234567812345678', 'utf8');
/** DER before the point: id-ecPublicKey on the SM2 curve (1.2.156.10197.1.301), as OpenSSL writes it. */
const SPKI_PREFIXES = ['3059301306072a8648ce3d020106082a811ccf5501822d034200'];

type Jacobian = [bigint, bigint, bigint]; // (X, Y, Z); Z = 0 is the point at infinity
const INFINITY: Jacobian = [1n, 1n, 0n];

const mod = (x: bigint, m = P) => ((x % m) + m) % m;

function inverse(x: bigint, m = P): bigint {
  // Fermat: m is prime for both the field and the group order.
  let result = 1n;
  let base = mod(x, m);
  for (let e = m - 2n; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * base) % m;
    base = (base * base) % m;
  }
  return result;
}

function double([x, y, z]: Jacobian): Jacobian {
  if (z === 0n || y === 0n) return INFINITY;
  const yy = mod(y * y);
  const s = mod(4n * x * yy);
  const zz = mod(z * z);
  const m = mod(3n * x * x + A * zz * zz);
  const x3 = mod(m * m - 2n * s);
  return [x3, mod(m * (s - x3) - 8n * yy * yy), mod(2n * y * z)];
}

function add(p: Jacobian, q: Jacobian): Jacobian {
  if (p[2] === 0n) return q;
  if (q[2] === 0n) return p;
  const z1z1 = mod(p[2] * p[2]);
  const z2z2 = mod(q[2] * q[2]);
  const u1 = mod(p[0] * z2z2);
  const u2 = mod(q[0] * z1z1);
  const s1 = mod(p[1] * q[2] * z2z2);
  const s2 = mod(q[1] * p[2] * z1z1);
  if (u1 === u2) return s1 === s2 ? double(p) : INFINITY;
  const h = mod(u2 - u1);
  const r = mod(s2 - s1);
  const hh = mod(h * h);
  const hhh = mod(h * hh);
  const v = mod(u1 * hh);
  const x3 = mod(r * r - hhh - 2n * v);
  return [x3, mod(r * (v - x3) - s1 * hhh), mod(h * p[2] * q[2])];
}

function multiply(k: bigint, point: Jacobian): Jacobian {
  let result = INFINITY;
  for (let i = BigInt(k.toString(2).length - 1); i >= 0n; i--) {
    result = double(result);
    if ((k >> i) & 1n) result = add(result, point);
  }
  return result;
}

function affineX([x, , z]: Jacobian): bigint {
  const zi = inverse(z);
  return mod(x * zi * zi);
}

const toBig = (bytes: Uint8Array) => BigInt(`0x${Buffer.from(bytes).toString('hex') || '0'}`);
const to32 = (n: bigint) => Buffer.from(n.toString(16).padStart(64, '0'), 'hex');

export interface Sm2PublicKey {
  x: bigint;
  y: bigint;
}

/** An SM2 public key: uncompressed hex (`04` + x + y, as SM2 tool kits print it) or PEM SPKI. */
export function parseSm2PublicKey(text: string): Sm2PublicKey | undefined {
  const trimmed = text.trim();
  let raw: Buffer | undefined;
  if (/^(04)?[0-9a-f]{128}$/i.test(trimmed))
    raw = Buffer.from(trimmed.length === 128 ? `04${trimmed}` : trimmed, 'hex');
  else if (trimmed.startsWith('-----BEGIN PUBLIC KEY-----')) {
    // SubjectPublicKeyInfo of a point on the SM2 curve. Read here rather than by OpenSSL, which
    // gives such keys a type Node does not name.
    const der = Buffer.from(trimmed.replace(/-----(BEGIN|END) PUBLIC KEY-----/g, '').replace(/\s+/g, ''), 'base64');
    const prefix = der.subarray(0, der.length - 65).toString('hex');
    if (SPKI_PREFIXES.includes(prefix)) raw = der.subarray(der.length - 65);
  }
  if (raw?.length !== 65) return undefined;
  const x = toBig(raw.subarray(1, 33));
  const y = toBig(raw.subarray(33));
  // On the curve, or it is no key at all.
  if (x >= P || y >= P || mod(y * y) !== mod(x * x * x + A * x + B)) return undefined;
  return { x, y };
}

/** r and s from raw r||s (64 bytes) or DER, given in hex or Base64. */
function parseSignature(text: string): [bigint, bigint] | undefined {
  const t = text.trim();
  const bytes =
    /^[0-9a-f]+$/i.test(t) && t.length % 2 === 0
      ? Buffer.from(t, 'hex')
      : /^[A-Za-z0-9+/]+={0,2}$/.test(t)
        ? Buffer.from(t, 'base64')
        : undefined;
  if (!bytes) return undefined;
  if (bytes.length === 64) return [toBig(bytes.subarray(0, 32)), toBig(bytes.subarray(32))];
  // DER: SEQUENCE { INTEGER r, INTEGER s } with short lengths (at most 72 bytes in all).
  if (bytes[0] !== 0x30 || bytes[1] !== bytes.length - 2) return undefined;
  const ints: bigint[] = [];
  let at = 2;
  while (at < bytes.length && ints.length < 2) {
    const length = bytes[at + 1]!;
    if (bytes[at] !== 0x02 || length === 0 || length > 33 || at + 2 + length > bytes.length) return undefined;
    ints.push(toBig(bytes.subarray(at + 2, at + 2 + length)));
    at += 2 + length;
  }
  return ints.length === 2 && at === bytes.length ? [ints[0]!, ints[1]!] : undefined;
}

/** Verifies an SM2 signature of the UTF-8 text under the key. */
export function verifySm2(key: Sm2PublicKey, text: string, signature: string): boolean {
  const rs = parseSignature(signature);
  if (!rs) return false;
  const [r, s] = rs;
  if (r < 1n || r >= N || s < 1n || s >= N) return false;
  const t = (r + s) % N;
  if (t === 0n) return false;
  const za = createHash('sm3')
    .update(Buffer.from([0x00, DEFAULT_ID.length * 8]))
    .update(DEFAULT_ID)
    .update(Buffer.concat([to32(A), to32(B), to32(GX), to32(GY), to32(key.x), to32(key.y)]))
    .digest();
  const e = toBig(createHash('sm3').update(za).update(text, 'utf8').digest());
  const point = add(multiply(s, [GX, GY, 1n]), multiply(t, [key.x, key.y, 1n]));
  if (point[2] === 0n) return false;
  return (e + affineX(point)) % N === r;
}
