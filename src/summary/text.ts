/** Terminal-safe text: control characters from a log (escape sequences, bells) are shown as \uXXXX, not obeyed; newlines and tabs become spaces. */
export function terminalSafe(text: string): string {
  // Every UTF-16 code unit but the printable ones: C0 controls, DEL and C1 controls.
  return text.replace(/[^\u0020-\u007e\u00a0-\uffff]/g, (c) =>
    c === "\n" || c === "\t" || c === "\r" ? " " : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  );
}

/** `This session's token budget is spent: 480 tokens of 200 (session_token_budget).`: a reason's first sentence (a `.` then a space or the end; `0.50` is not an end). */
export function firstSentence(reason: string): string {
  const end = reason.search(/\.(\s|$)/);
  return end < 0 ? reason : reason.slice(0, end + 1);
}
