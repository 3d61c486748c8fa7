// Types of scripts/chain-certificate.mjs for the tests that import it (tsconfig.test.json).
export function chainSlots(k: number): { pair: [string, string]; three: string; blocks: [string, string] }[];
export const FORK: { stones: string[]; move: string };
export function chainCertificate(k: number, omit?: string[]): string;
