/**
 * EIP-4361 (Sign-In with Ethereum) messages: the fields, formatted and parsed strictly as the EIP
 * lays them out (https://eips.ethereum.org/EIPS/eip-4361). The console builds them with viem's
 * `createSiweMessage`; any wallet tool that follows the EIP produces the same text.
 */
export interface SignInFields {
  domain: string;
  address: string;
  statement?: string;
  uri: string;
  version: '1';
  chainId: number;
  nonce: string;
  issuedAt: Date;
  expirationTime?: Date;
  notBefore?: Date;
  requestId?: string;
  resources?: string[];
}

const HEADER = / wants you to sign in with your Ethereum account:$/;
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const FIELDS: [keyof SignInFields, string][] = [
  ['uri', 'URI'],
  ['version', 'Version'],
  ['chainId', 'Chain ID'],
  ['nonce', 'Nonce'],
  ['issuedAt', 'Issued At'],
  ['expirationTime', 'Expiration Time'],
  ['notBefore', 'Not Before'],
  ['requestId', 'Request ID'],
];

export function formatSignInMessage(f: SignInFields): string {
  // The EIP's layout: the address, an empty line, the statement if any, an empty line.
  const lines = [`${f.domain} wants you to sign in with your Ethereum account:`, f.address, '', f.statement ?? '', ''];
  if (!f.statement) lines.splice(3, 1);
  for (const [key, label] of FIELDS) {
    const v = f[key];
    if (v !== undefined) lines.push(`${label}: ${v instanceof Date ? v.toISOString() : String(v)}`);
  }
  if (f.resources?.length) lines.push('Resources:', ...f.resources.map((r) => `- ${r}`));
  return lines.join('\n');
}

/** The message's fields, or null when it does not follow the EIP's layout. */
export function parseSignInMessage(text: string): SignInFields | null {
  const lines = text.split('\n');
  const header = HEADER.exec(lines[0] ?? '');
  if (!header || !ADDRESS.test(lines[1] ?? '') || lines[2] !== '') return null;
  const f: Record<string, unknown> & { resources?: string[] } = {
    domain: lines[0].slice(0, header.index),
    address: lines[1],
  };
  let i = 4;
  if (lines[3] !== '') {
    f.statement = lines[3];
    if (lines[4] !== '') return null;
    i = 5;
  }
  for (const [key, label] of FIELDS) {
    const line = lines[i];
    if (line === undefined || !line.startsWith(`${label}: `)) {
      if (['uri', 'version', 'chainId', 'nonce', 'issuedAt'].includes(key)) return null;
      continue;
    }
    const value = line.slice(label.length + 2);
    if (key === 'chainId') {
      if (!/^[0-9]{1,20}$/.test(value)) return null;
      f.chainId = Number(value);
    } else if (key === 'issuedAt' || key === 'expirationTime' || key === 'notBefore') {
      const t = Date.parse(value);
      if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(value) || !Number.isFinite(t)) return null;
      f[key] = new Date(t);
    } else (f as Record<string, unknown>)[key] = value;
    i++;
  }
  if (lines[i] === 'Resources:') {
    f.resources = [];
    for (i++; i < lines.length && lines[i].startsWith('- '); i++) f.resources.push(lines[i].slice(2));
  }
  if (i !== lines.length || f.version !== '1' || !/^[A-Za-z0-9]{8,}$/.test(String(f.nonce))) return null;
  return f as unknown as SignInFields;
}
