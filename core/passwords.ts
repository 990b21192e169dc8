import { randomBytes } from 'node:crypto';
import argon2 from 'argon2';
import type { Config } from './config';

/**
 * The cost of a new password hash (argon2id): memory in KiB and passes, from the settings
 * PASSWORD_HASH_MEMORY_KIB and PASSWORD_HASH_PASSES. A stored hash names its own parameters
 * (`$argon2id$v=19$m=…,t=…,p=…$…`), so it keeps verifying whatever the settings are later.
 */
export type PasswordCost = Pick<Config, 'PASSWORD_HASH_MEMORY_KIB' | 'PASSWORD_HASH_PASSES'>;

export function hashPassword(cost: PasswordCost, password: string): Promise<string> {
  return argon2.hash(password, {
    type: argon2.argon2id,
    memoryCost: cost.PASSWORD_HASH_MEMORY_KIB,
    timeCost: cost.PASSWORD_HASH_PASSES,
  });
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

const dummies = new Map<string, Promise<string>>();

/**
 * A hash of a random password at the configured cost, made once per cost: what a sign-in verifies
 * when the address is unknown, so that it takes as long as a known one and timing does not reveal accounts.
 */
export function dummyHash(cost: PasswordCost): Promise<string> {
  const key = `${cost.PASSWORD_HASH_MEMORY_KIB},${cost.PASSWORD_HASH_PASSES}`;
  let hash = dummies.get(key);
  if (!hash) {
    hash = hashPassword(cost, randomBytes(16).toString('hex'));
    hash.catch(() => dummies.delete(key));
    dummies.set(key, hash);
  }
  return hash;
}
