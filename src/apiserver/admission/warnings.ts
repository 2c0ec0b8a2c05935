// Admission warnings as HTTP `Warning` headers (RFC 7234 warn-code 299, as apiserver's warning recorder writes them):
// `299 - "text"`, several joined with ", ", each text once even if admission ran again on a retried update.

/** `299 - "<text>"` with quotes and backslashes escaped for the quoted-string. */
export function warningValue(text: string): string {
  return `299 - "${text.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

/** Adds each warning to `headers.Warning` unless it is already there. */
export function addWarnings(headers: Record<string, string>, texts: readonly string[] | undefined): void {
  for (const text of texts ?? []) {
    const value = warningValue(text);
    const current = headers.Warning;
    if (!current) headers.Warning = value;
    else if (!current.includes(value)) headers.Warning = `${current}, ${value}`;
  }
}
