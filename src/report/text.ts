/** Terminal-safe text: control characters from a log (escape sequences, bells) are shown as \uXXXX, not obeyed; newlines and tabs become spaces. */
export function terminalSafe(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => (c === "\n" || c === "\t" || c === "\r" ? " " : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`));
}
