/**
 * The one secret redactor: the logger runs every line through it, and the market client runs
 * the text the service sends back through it, so a key or token is replaced the same way
 * wherever it would have surfaced.
 */

/** What replaces a secret. */
export const REDACTED = "[REDACTED]";

/**
 * Every form a secret takes in text we write: as is, JSON-escaped, and percent-encoded
 * (Telegram puts the token in URL paths, where `:` may arrive as `%3A`). Longest first, so a
 * secret that contains another is replaced whole. Empty secrets are ignored.
 */
export function secretForms(secrets: readonly string[]): string[] {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (!secret) continue;
    forms.add(secret);
    forms.add(JSON.stringify(secret).slice(1, -1));
    forms.add(encodeURIComponent(secret));
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

/** `text` with every form of every secret replaced by `[REDACTED]`; `forms` from `secretForms`. */
export function redactForms(text: string, forms: readonly string[]): string {
  let out = text;
  for (const form of forms) out = out.replaceAll(form, REDACTED);
  return out;
}

/** `text` with every form of each secret replaced by `[REDACTED]`. */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  return redactForms(text, secretForms(secrets));
}
