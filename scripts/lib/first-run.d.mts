export const INSTALLED_MB: number;
export interface Platform {
  os: string;
  cpu: string;
  libc?: string;
}
export function thisPlatform(): Platform;
export function installNotice(
  lock: { packages?: Record<string, { version?: string; os?: string[]; cpu?: string[]; libc?: string[] }> },
  platform?: Platform,
): string;
export function openHint(html: string, platform: string, env: Record<string, string | undefined>): string;
