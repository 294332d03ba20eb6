export const INSTALLED_MB: number;
export function installNotice(lock: { packages?: Record<string, { version?: string }> }): string;
export function openHint(html: string, platform: string, env: Record<string, string | undefined>): string;
