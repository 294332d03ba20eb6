/**
 * The OTLP export's settings (SPEC §17): otlp_endpoint, otlp_protocol,
 * otlp_headers (a sensitive value), otlp_resource_attributes, declared with
 * the others in src/optin/options.ts. Off unless otlp_endpoint is set. Pure:
 * it takes the environment as a record.
 */
import * as z from "zod/mini";
import { optionEnvName } from "./options.js";

export type OtlpProtocol = "http/protobuf" | "http/json";

/** Where and how to send: the plugin's otlp_* settings, or the CLI's options. */
export interface OtlpTarget {
  /** The collector's base URL (`/v1/logs` is added) or the full logs URL. */
  endpoint: string;
  protocol: OtlpProtocol;
  headers: Record<string, string>;
  resource: Record<string, string>;
}

export const OTLP_OPTIONS = {
  endpoint: "otlp_endpoint",
  protocol: "otlp_protocol",
  headers: "otlp_headers",
  resource: "otlp_resource_attributes",
} as const;

const EndpointSchema = z.url({ protocol: /^https?$/ });
const ProtocolSchema = z.enum(["http/protobuf", "http/json"]);

/** `key=value,key=value`, values URL-encoded, as OTEL_EXPORTER_OTLP_HEADERS and OTEL_RESOURCE_ATTRIBUTES write them. */
export function parsePairs(text: string): Record<string, string> | undefined {
  const out: Record<string, string> = {};
  for (const part of text.split(",")) {
    if (part.trim() === "") continue;
    const eq = part.indexOf("=");
    if (eq <= 0) return undefined;
    const key = part.slice(0, eq).trim();
    try {
      out[key] = decodeURIComponent(part.slice(eq + 1).trim());
    } catch {
      return undefined;
    }
    if (key === "") return undefined;
  }
  return out;
}

export interface OtlpConfig {
  /** Where to send; absent when export is off or its settings are invalid. */
  target?: OtlpTarget;
  /** One line per invalid setting (never a header's value). */
  problems: string[];
}

function text(env: Readonly<Record<string, string | undefined>>, option: string): string | undefined {
  const value = env[optionEnvName(option)];
  return value === undefined || value.trim() === "" ? undefined : value.trim();
}

/** Each setting read and checked; a problem for each invalid one. */
function readSettings(env: Readonly<Record<string, string | undefined>>, endpoint: string, problems: string[]) {
  if (!EndpointSchema.safeParse(endpoint).success)
    problems.push(`${OTLP_OPTIONS.endpoint} is ${JSON.stringify(endpoint)}; expected an http:// or https:// URL`);
  const protocolText = text(env, OTLP_OPTIONS.protocol) ?? "http/protobuf";
  const protocol = ProtocolSchema.safeParse(protocolText);
  if (!protocol.success) problems.push(`${OTLP_OPTIONS.protocol} is ${JSON.stringify(protocolText)}; expected http/protobuf or http/json`);
  const headers = parsePairs(text(env, OTLP_OPTIONS.headers) ?? "");
  if (!headers)
    problems.push(`${OTLP_OPTIONS.headers} is not key=value pairs separated by commas (its value is not shown: it is sensitive)`);
  const resourceText = text(env, OTLP_OPTIONS.resource) ?? "";
  const resource = parsePairs(resourceText);
  if (!resource) problems.push(`${OTLP_OPTIONS.resource} is ${JSON.stringify(resourceText)}; expected key=value pairs separated by commas`);
  return { protocol: protocol.success ? (protocol.data as OtlpProtocol) : undefined, headers, resource };
}

/** The export's target from the plugin's settings; off (no target, no problem) when otlp_endpoint is not set. */
export function parseOtlpConfig(env: Readonly<Record<string, string | undefined>>): OtlpConfig {
  const endpoint = text(env, OTLP_OPTIONS.endpoint);
  if (endpoint === undefined) return { problems: [] };
  const problems: string[] = [];
  const { protocol, headers, resource } = readSettings(env, endpoint, problems);
  if (problems.length > 0 || !protocol || !headers || !resource) return { problems };
  return { target: { endpoint, protocol, headers, resource: { "service.name": "utility", ...resource } }, problems };
}
