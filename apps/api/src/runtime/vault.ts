import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Problem, SECRET_DATA_LIMIT } from "@fleet/contracts";

const ALGORITHM = "aes-256-gcm";
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** What a sealed secret stores: its data key wrapped by the master key, and the value under the data key. */
export interface Sealed {
  wrappedKey: string;
  ciphertext: string;
}

function encrypt(key: Buffer, plaintext: Buffer, aad: Buffer): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv(ALGORITHM, key, iv);
  cipher.setAAD(aad);
  const body = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64");
}

function decrypt(key: Buffer, sealed: string, aad: Buffer): Buffer {
  const bytes = Buffer.from(sealed, "base64");
  const decipher = createDecipheriv(ALGORITHM, key, bytes.subarray(0, IV_BYTES));
  decipher.setAAD(aad);
  decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
}

/** Associated data binding a sealed value to its row: it opens only for this workspace and name. */
function binding(workspaceId: string, name: string): Buffer {
  return Buffer.from(`fleet-secret:v1:${workspaceId}:${name}`);
}

/**
 * Envelope encryption of workspace secrets: a fresh AES-256-GCM key per secret, itself sealed by the
 * master key. Values leave the vault only through `open`, which nothing on the HTTP surface calls.
 */
export class Vault {
  constructor(private readonly masterKey: Buffer | null) {}

  private key(): Buffer {
    if (this.masterKey === null) {
      throw new Problem("UZ-VAULT-002", {
        detail: "The vault has no master key configured (FLEET_MASTER_KEY).",
      });
    }
    return this.masterKey;
  }

  /** Checks a body against the spec's rules: a non-empty object of at most 4 KiB stringified. */
  static validate(data: Record<string, unknown>): Buffer {
    if (Object.keys(data).length === 0)
      throw new Problem("UZ-VAULT-001", { detail: "data must not be empty." });
    const json = Buffer.from(JSON.stringify(data));
    if (json.length > SECRET_DATA_LIMIT) {
      throw new Problem("UZ-VAULT-001", {
        detail: `data must be at most ${SECRET_DATA_LIMIT} bytes stringified.`,
      });
    }
    return json;
  }

  seal(workspaceId: string, name: string, data: Record<string, unknown>): Sealed {
    const json = Vault.validate(data);
    const master = this.key();
    const dataKey = randomBytes(32);
    const aad = binding(workspaceId, name);
    const sealed = { wrappedKey: encrypt(master, dataKey, aad), ciphertext: encrypt(dataKey, json, aad) };
    dataKey.fill(0);
    return sealed;
  }

  open(workspaceId: string, name: string, sealed: Sealed): Record<string, unknown> {
    const aad = binding(workspaceId, name);
    try {
      const dataKey = decrypt(this.key(), sealed.wrappedKey, aad);
      const json = decrypt(dataKey, sealed.ciphertext, aad);
      dataKey.fill(0);
      return JSON.parse(json.toString("utf8")) as Record<string, unknown>;
    } catch (error) {
      if (error instanceof Problem) throw error;
      throw new Problem("UZ-VAULT-002", { detail: "The secret could not be opened with this master key." });
    }
  }
}

/**
 * The master key in force: configured, or on the embedded database one generated once into the data
 * directory (readable by its owner only), or for an in-memory database one for the process's life.
 */
export function resolveMasterKey(
  configured: Buffer | undefined,
  dataDir: string | null,
  embedded: boolean,
): Buffer | null {
  if (configured !== undefined) return configured;
  if (dataDir !== null) {
    const path = join(dataDir, "master.key");
    if (!existsSync(path))
      writeFileSync(path, randomBytes(32).toString("base64"), { mode: 0o600, flag: "wx" });
    chmodSync(path, 0o600);
    return Buffer.from(readFileSync(path, "utf8").trim(), "base64");
  }
  return embedded ? randomBytes(32) : null; // an in-memory database lives no longer than this key
}
