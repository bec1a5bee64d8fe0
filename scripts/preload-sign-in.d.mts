import type { Plugin } from 'vite';

export function preloadSignIn(): Plugin;
