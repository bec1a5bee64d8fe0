import type { OutputBundle, OutputChunk } from 'rollup';
import type { Plugin } from 'vite';

export const SIGN_IN: RegExp;
export function chunksFrom(bundle: OutputBundle, modules: readonly RegExp[]): OutputChunk[];
export function preloadSignIn(): Plugin;
