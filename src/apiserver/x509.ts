// Builds and signs X.509 v3 certificates with Node's own keys (ECDSA or RSA): node-forge only encodes ASN.1 (its
// certificate signer knows RSA alone, and RSA key generation was most of a cold `winkube up`).

import { createHash, randomBytes, sign, type KeyObject } from 'node:crypto';
import forge from 'node-forge';

const { asn1 } = forge;
/** Two node-forge functions that exist at run time but are missing from its type declarations. */
const pki = forge.pki as typeof forge.pki & {
  certificateExtensionsToAsn1(exts: object[]): forge.asn1.Asn1;
  RDNAttributesAsArray(rdn: forge.asn1.Asn1): forge.pki.CertificateField[];
};

/** ecdsa-with-SHA256 (RFC 5758: no parameters) and sha256WithRSAEncryption (RFC 4055: NULL parameters). */
const SIG_ALG = {
  ec: { oid: '1.2.840.10045.4.3.2', nullParams: false },
  rsa: { oid: '1.2.840.113549.1.1.11', nullParams: true },
} as const;

export interface CertSpec {
  /** The new certificate's public key. */
  publicKey: KeyObject;
  subject: { cn: string; orgs?: string[] };
  /** Issuer name; the subject itself for a self-signed certificate. */
  issuer?: { cn: string; orgs?: string[] } | forge.pki.CertificateField[];
  notBefore: Date;
  notAfter: Date;
  /** Extensions in node-forge's declarative form (basicConstraints, keyUsage, extKeyUsage, subjectAltName). */
  extensions: object[];
  /** Adds subjectKeyIdentifier (for a CA). */
  subjectKeyId?: boolean;
  /** Signs with this key (the issuer's; the certificate's own for a self-signed one). */
  signingKey: KeyObject;
}

const seq = (items: forge.asn1.Asn1[]) => asn1.create(asn1.Class.UNIVERSAL, asn1.Type.SEQUENCE, true, items);

function nameAttrs(n: { cn: string; orgs?: string[] }): forge.pki.CertificateField[] {
  return [{ name: 'commonName', value: n.cn }, ...(n.orgs ?? []).map((value) => ({ name: 'organizationName', value }))];
}

function algorithmIdentifier(key: KeyObject): forge.asn1.Asn1 {
  const alg = key.asymmetricKeyType === 'ec' ? SIG_ALG.ec : key.asymmetricKeyType === 'rsa' ? SIG_ALG.rsa : undefined;
  if (!alg) throw new Error(`x509: cannot sign with a ${key.asymmetricKeyType} key`);
  const items = [asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OID, false, asn1.oidToDer(alg.oid).getBytes())];
  if (alg.nullParams) items.push(asn1.create(asn1.Class.UNIVERSAL, asn1.Type.NULL, false, ''));
  return seq(items);
}

/** UTCTime through 2049, GeneralizedTime after, as RFC 5280 4.1.2.5 requires. */
function time(d: Date): forge.asn1.Asn1 {
  return d.getUTCFullYear() < 2050
    ? asn1.create(asn1.Class.UNIVERSAL, asn1.Type.UTCTIME, false, asn1.dateToUtcTime(d))
    : asn1.create(asn1.Class.UNIVERSAL, asn1.Type.GENERALIZEDTIME, false, asn1.dateToGeneralizedTime(d));
}

/** subjectKeyIdentifier: SHA-1 of the key's BIT STRING contents (RFC 5280 4.2.1.2, method 1). */
function subjectKeyIdExtension(spki: Buffer): object {
  const bits = (asn1.fromDer(fromBuffer(spki)).value as forge.asn1.Asn1[])[1]!.value as string;
  const ski = createHash('sha1').update(toBuffer(bits.slice(1))).digest(); // past the unused-bits byte
  return { id: '2.5.29.14', critical: false, value: asn1.create(asn1.Class.UNIVERSAL, asn1.Type.OCTETSTRING, false, fromBuffer(ski)) };
}

/** DER bytes (a binary string, as forge keeps them) → Buffer and back. */
const toBuffer = (bytes: string) => Buffer.from(bytes, 'binary');
const fromBuffer = (buf: Buffer) => buf.toString('binary');

/** Returns the certificate as PEM. */
export function buildCertificate(spec: CertSpec): string {
  // A forge certificate object only to fill in the extensions' encodings; the key parts are ours.
  const holder = forge.pki.createCertificate();
  const spki = spec.publicKey.export({ type: 'spki', format: 'der' });
  holder.setExtensions(spec.extensions);
  const exts: object[] = [...holder.extensions];
  if (spec.subjectKeyId) exts.push(subjectKeyIdExtension(spki));
  const subject = nameAttrs(spec.subject);
  const issuerAttrs = !spec.issuer ? subject : Array.isArray(spec.issuer) ? spec.issuer : nameAttrs(spec.issuer);
  holder.setSubject(subject);
  holder.setIssuer(issuerAttrs);
  const sigAlg = algorithmIdentifier(spec.signingKey);
  const tbs = seq([
    asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [asn1.create(asn1.Class.UNIVERSAL, asn1.Type.INTEGER, false, asn1.integerToDer(2).getBytes())]),
    // A positive serial: the leading 0x01 keeps the top bit clear.
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.INTEGER, false, forge.util.hexToBytes('01' + randomBytes(8).toString('hex'))),
    sigAlg,
    forge.pki.distinguishedNameToAsn1(holder.issuer),
    seq([time(spec.notBefore), time(spec.notAfter)]),
    forge.pki.distinguishedNameToAsn1(holder.subject),
    asn1.fromDer(fromBuffer(spki)),
  ]);
  if (exts.length) (tbs.value as forge.asn1.Asn1[]).push(pki.certificateExtensionsToAsn1(exts));
  const tbsDer = toBuffer(asn1.toDer(tbs).getBytes());
  // Node signs ECDSA as a DER Ecdsa-Sig-Value and RSA as PKCS#1 v1.5, which is what these algorithm identifiers mean.
  const signature = sign('sha256', tbsDer, spec.signingKey);
  const cert = seq([
    tbs,
    sigAlg,
    asn1.create(asn1.Class.UNIVERSAL, asn1.Type.BITSTRING, false, '\u0000' + fromBuffer(signature)),
  ]);
  return forge.pem.encode({ type: 'CERTIFICATE', body: asn1.toDer(cert).getBytes() });
}

/** The issuer fields of a PEM certificate, for certificates it signs. */
export function subjectOf(pem: string): forge.pki.CertificateField[] {
  // forge cannot parse an EC key, but it reads the subject without touching the key.
  const der = forge.pem.decode(pem)[0]!.body;
  const tbs = (asn1.fromDer(der).value as forge.asn1.Asn1[])[0]!;
  const parts = tbs.value as forge.asn1.Asn1[];
  // version [0], serial, signature, issuer, validity, subject
  const subject = parts[parts[0]!.tagClass === asn1.Class.CONTEXT_SPECIFIC ? 5 : 4]!;
  return pki.RDNAttributesAsArray(subject);
}
