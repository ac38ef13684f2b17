import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readCertificateContent } from './certificate-pdf.service.ts';

const folders: string[] = [];
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

/** A content folder holding only content/certificate/ with the given files. */
function contentWith(files: Record<string, string | Uint8Array>): string {
  const contentDir = mkdtempSync(path.join(tmpdir(), 'certificate-content-'));
  folders.push(contentDir);
  mkdirSync(path.join(contentDir, 'certificate'));
  for (const [name, bytes] of Object.entries(files)) writeFileSync(path.join(contentDir, 'certificate', name), bytes);
  return contentDir;
}

describe('readCertificateContent (decision 062)', () => {
  it('reads the school’s approval number per state and the signature image', () => {
    const png = readFileSync(new URL('../../platform/pdf/testdata/signature.png', import.meta.url));
    const content = readCertificateContent(
      contentWith({
        'approvals.json': JSON.stringify({ approvals: { CA: 'TEST-CA-1', TX: 'TEST-TX-2' } }),
        'signature.png': png,
      }),
    );
    expect(Object.fromEntries(content.approvals)).toEqual({ CA: 'TEST-CA-1', TX: 'TEST-TX-2' });
    expect(content.signaturePng).toEqual(png);
  });

  it('prints no approval number and no signature image when the content has none', () => {
    const content = readCertificateContent(contentWith({}));
    expect(content.approvals.size).toBe(0);
    expect(content.signaturePng).toBeUndefined();
  });

  it('stops on an approvals file whose state is not two capital letters or whose number is blank, naming the file', () => {
    for (const approvals of [{ California: 'TEST-1' }, { CA: ' ' }]) {
      const contentDir = contentWith({ 'approvals.json': JSON.stringify({ approvals }) });
      expect(() => readCertificateContent(contentDir)).toThrow(/approvals\.json/);
    }
  });

  it('reads the school’s own content/certificate/ folder as shipped', () => {
    expect(() => readCertificateContent()).not.toThrow();
  });
});
