import DOMPurify from 'dompurify';

/**
 * Topic HTML comes from reviewed files and from admins' edits; it is sanitised with DOMPurify
 * before it is shown, so no script or event handler can ride along (decision 008).
 */
export function sanitizeHtml(html: string): string {
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true } });
}
