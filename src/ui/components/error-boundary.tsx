/**
 * Shows a readable message instead of a blank page when rendering itself fails (a bug in the
 * page, or a server answer of an unexpected shape); server errors are shown by the App.
 */
import { Component } from 'preact';
import type { ComponentChildren } from 'preact';

interface State {
  readonly error: Error | null;
}

/** Catches render errors below it. */
export class ErrorBoundary extends Component<{ readonly children: ComponentChildren }, State> {
  override state: State = { error: null };

  static override getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override render() {
    if (this.state.error === null) return this.props.children;
    return (
      <div class="error" role="alert">
        <p><strong>The page failed to show this search.</strong> {this.state.error.message}</p>
        <p><a href="/">Start over</a></p>
      </div>
    );
  }
}
