export const serverEntry: string;
export const serverNodeArgs: string[];
export const serverEnv: Record<string, string>;
export function buildServer(): Promise<void>;
