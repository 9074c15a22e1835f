/** Text for HTML content or a quoted attribute: `&`, `<`, `>`, `"` and `'` as numeric character references. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
