import { spawn } from 'node:child_process';

/**
 * Runs `node args…` as children sharing our terminal. Ctrl+C and SIGTERM go to every child; when
 * the first one ends, the others are stopped and we exit with its code.
 */
export function runTogether(commands, { cwd }) {
  const children = commands.map((args) => spawn(process.execPath, args, { cwd, stdio: 'inherit', env: process.env }));
  let exiting = false;
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      for (const child of children) if (child.exitCode === null) child.kill(signal);
    });
  }
  for (const child of children) {
    child.on('exit', (code, signal) => {
      if (exiting) return;
      exiting = true;
      for (const other of children) if (other !== child && other.exitCode === null) other.kill('SIGTERM');
      process.exitCode = code ?? (signal ? 128 + (signalNumbers[signal] ?? 1) : 1);
    });
  }
}

const signalNumbers = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15, SIGKILL: 9 };
