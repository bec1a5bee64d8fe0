import type { Plugin } from 'vite';

export function clientEndpoints(): Plugin;
