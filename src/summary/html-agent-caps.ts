// The report page's table of caps per subagent (SPEC §16): each subagent's own
// spend, the caps in force for it, and the cap it hit. Pure.
import { formatUsd } from "../engine/prices.js";
import type { AgentCapRow } from "./agent-caps.js";
import { escapeHtml } from "./html-parts.js";
import { capsText, scopeTitle } from "./report-text.js";

/** The section, or nothing when no subagent had a cap or hit one. */
export function agentCapsSection(rows: readonly AgentCapRow[]): string {
  if (!rows.some((r) => r.caps !== undefined || r.hit !== undefined)) return "";
  const body = rows.map((r) => {
    const title = scopeTitle({ agentId: r.agentId, agentType: r.agentType, scope: "subagent" });
    const hit = r.hit
      ? `<b>${escapeHtml(r.hit.cap)}</b> (${r.hit.refused} refused)<br><span class="reason">${escapeHtml(r.hit.reason)}</span>`
      : "-";
    return `<tr data-agent="${escapeHtml(r.agentId)}"${r.hit ? ` class="hit"` : ""}><td>${escapeHtml(title)}</td><td>${r.tokens.toLocaleString("en-US")}</td><td>${escapeHtml(formatUsd(r.costUsd))}</td><td>${r.toolCalls}</td><td>${escapeHtml(r.caps ? capsText(r.caps) : "none")}</td><td>${hit}</td></tr>`;
  });
  return `<section>
<h2>Caps per subagent</h2>
<div class="scroll"><table class="agent-caps"><thead><tr><th>subagent</th><th>its tokens</th><th>its cost</th><th>its tool calls</th><th>caps</th><th>cap hit</th></tr></thead><tbody>${body.join("")}</tbody></table></div>
</section>`;
}
