// PKCS#10 certificate requests (RFC 2986) with Node's keys: what a kubelet sends for its client and serving
// certificates (client-go util/certificate/csr) and what the CSR signer reads back (pkg/controller/certificates).

import { createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { isIP } from 'node:net';
import forge from 'node-forge';

const { asn1 } = forge;
const pki = forge.pki as typeof forge.pki & {
  certificateExtensionsToAsn1(exts: object[]): forge.asn1.Asn1;
  RDNAttributesAsArray(rdn: forge.asn1.Asn1): forge.pki.CertificateField[];
};
const EXTENSION_REQUEST = '1.2.840.113549.1.9.14';
const SUBJECT_ALT_NAME = '2.5.29.17';
const ECDSA_SHA256 = '1.2.840.10045.4.3.2';
const RSA_SHA256 = '1.2.840.113549.1.1.11';

const toBuffer = (bytes: string) => Buffer.from(bytes, 'binary');
const fromBuffer = (buf: Buffer) => buf.toString('binary');
const seq = (items: forge.asn1.Asn1[]) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, items);
const oid = (o: string) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(o).getBytes());

export interface CsrSubject {
  cn: string;
  orgs?: string[];
  dns?: string[];
  ips?: string[];
}

export interface ParsedCsr extends Required<CsrSubject> {
  publicKey: KeyObject;
}

/** A PEM "CERTIFICATE REQUEST" for `subject`, signed with `key` (ECDSA P-256 or RSA). */
export function buildCsr(subject: CsrSubject, key: KeyObject): string {
  const names = [{ name: 'commonName', value: subject.cn }, ...(subject.orgs ?? []).map((value) => ({ name: 'organizationName', value }))];
  const holder = forge.pki.createCertificate();
  holder.setSubject(names);
  const attrs: forge.asn1.Asn1[] = [];
  const alt = [...(subject.dns ?? []).map((value) => ({ type: 2, value })), ...(subject.ips ?? []).map((ip) => ({ type: 7, ip }))];
  if (alt.length) {
    holder.setExtensions([{ name: 'subjectAltName', altNames: alt }]);
    const extSeq = (pki.certificateExtensionsToAsn1(holder.extensions).value as forge.asn1.Asn1[])[0]!; // past the [3] wrapper
    attrs.push(seq([oid(EXTENSION_REQUEST), asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SET, true, [extSeq])]));
  }
  const spki = createPublicKey(key).export({ type: 'spki', format: 'der' });
  const info = seq([
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.INTEGER, false, asn1.integerToDer(0).getBytes()),
    forge.pki.distinguishedNameToAsn1(holder.subject),
    asn1.fromDer(fromBuffer(spki)),
    asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, attrs),
  ]);
  const infoDer = toBuffer(asn1.toDer(info).getBytes());
  const algOid = key.asymmetricKeyType === 'ec' ? ECDSA_SHA256 : RSA_SHA256;
  const alg = seq(algOid === RSA_SHA256 ? [oid(algOid), asn1.create(asn1.Class.UNIVERSAL, asn1.Type.NULL, false, '')] : [oid(algOid)]);
  const sig = sign('sha256', infoDer, key);
  const req = seq([info, alg, asn1.create(asn1.Class.UNIVERSAL, asn1.Type.BITSTRING, false, '\u0000' + fromBuffer(sig))]);
  return forge.pem.encode({ type: 'CERTIFICATE REQUEST', body: asn1.toDer(req).getBytes() });
}

/** Reads a PEM request and checks its self-signature; throws with a reason the signer reports. */
export function parseCsr(pem: string): ParsedCsr {
  const block = forge.pem.decode(pem).find((b) => b.type === 'CERTIFICATE REQUEST');
  if (!block) throw new Error('PEM block type must be CERTIFICATE REQUEST');
  // decodeBitStrings off: an ECDSA signature is itself DER, which forge would otherwise parse in place of its bytes.
  const fromDer = asn1.fromDer as unknown as (bytes: string, opts: { decodeBitStrings: boolean }) => forge.asn1.Asn1;
  const [info, , sigBits] = fromDer(block.body, { decodeBitStrings: false }).value as forge.asn1.Asn1[];
  const parts = info!.value as forge.asn1.Asn1[];
  const fields = pki.RDNAttributesAsArray(parts[1]!);
  const cn = String(fields.find((f) => f.name === 'commonName')?.value ?? '');
  const orgs = fields.filter((f) => f.name === 'organizationName').map((f) => String(f.value));
  const publicKey = createPublicKey({ key: toBuffer(asn1.toDer(parts[2]!).getBytes()), format: 'der', type: 'spki' });
  const sig = toBuffer((sigBits!.value as string).slice(1));
  if (!verify('sha256', firstInnerElement(toBuffer(block.body)), publicKey, sig)) throw new Error('the certificate request\'s signature is invalid');
  const dns: string[] = [];
  const ips: string[] = [];
  for (const attr of (parts[3]?.value as forge.asn1.Asn1[] | undefined) ?? []) {
    const [id, set] = attr.value as forge.asn1.Asn1[];
    if (asn1.derToOid(id!.value as string) !== EXTENSION_REQUEST) continue;
    for (const ext of ((set!.value as forge.asn1.Asn1[])[0]?.value as forge.asn1.Asn1[]) ?? []) {
      const [extId, ...rest] = ext.value as forge.asn1.Asn1[];
      if (asn1.derToOid(extId!.value as string) !== SUBJECT_ALT_NAME) continue;
      const names = asn1.fromDer(rest[rest.length - 1]!.value as string).value as forge.asn1.Asn1[];
      for (const n of names) {
        if (n.type === 2) dns.push(n.value as string);
        if (n.type === 7) ips.push(ipFromBytes(toBuffer(n.value as string)));
      }
    }
  }
  return { cn, orgs, dns, ips, publicKey };
}

/** The bytes of the first element inside a DER SEQUENCE, as sent: re-encoding a parsed tree need not reproduce them. */
function firstInnerElement(der: Buffer): Buffer {
  const header = (at: number): { len: number; body: number } => {
    const first = der[at + 1]!;
    if (first < 0x80) return { len: first, body: at + 2 };
    const n = first & 0x7f;
    let len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + der[at + 2 + i]!;
    return { len, body: at + 2 + n };
  };
  const inner = header(0).body;
  const h = header(inner);
  return der.subarray(inner, h.body + h.len);
}

function ipFromBytes(b: Buffer): string {
  if (b.length === 4) return [...b].join('.');
  const groups: string[] = [];
  for (let i = 0; i < b.length; i += 2) groups.push(b.readUInt16BE(i).toString(16));
  const text = groups.join(':');
  // The URL parser writes an IPv6 address in its canonical, compressed form (::1).
  return isIP(text) ? new URL(`http://[${text}]/`).hostname.slice(1, -1) : b.toString('hex');
}
