import { Component, type ReactNode } from 'react';

interface Props {
  fallback: (retry: () => void) => ReactNode;
  children: ReactNode;
}

/** Keeps the shell standing when a screen fails to render; the root's onCaughtError logs it. */
export class ErrorBoundary extends Component<Props, { failed: boolean }> {
  state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  render() {
    return this.state.failed ? this.props.fallback(() => this.setState({ failed: false })) : this.props.children;
  }
}
