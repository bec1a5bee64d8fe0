import type { Plugin } from 'vite';

export function writeCompressedCopies(path: string): Promise<void>;
export function precompress(): Plugin;
