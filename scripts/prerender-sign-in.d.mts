import type { Plugin } from 'vite';

export function prerenderSignIn(): Plugin;
